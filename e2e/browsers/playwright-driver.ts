// Chromium (CDP) and Firefox (WebDriver BiDi) through playwright-core: one browser process, one context (one
// profile), a page per tab.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { hookGlobal } from './page-hook'
import type { BrowserSession, EngineName, PageSession } from './session'

const defaultTimeout = 30_000

/** A playwright browser as a `BrowserSession`: `newPage()` opens a tab in its one context. */
export async function playwrightSession(engine: EngineName, browser: Browser): Promise<BrowserSession> {
  let context: BrowserContext
  try {
    context = await browser.newContext()
  } catch (error) {
    await browser.close().catch(() => undefined)
    throw error
  }
  return {
    engine,
    version: `${browser.browserType().name()} ${browser.version()}`,
    newPage: async () => playwrightPage(await context.newPage()),
    close: () => browser.close(),
  }
}

function playwrightPage(page: Page): PageSession {
  page.setDefaultTimeout(defaultTimeout)
  // What the hook cannot see: the workers' console (where the driver reports it) and errors of pages gone by.
  const seen: string[] = []
  page.on('worker', (worker) =>
    worker.on('console', (message) => message.type() === 'error' && seen.push(`[worker] ${message.text()}`)),
  )
  const readHook = (): Promise<string[]> =>
    page
      .evaluate((name) => ((window as unknown as Record<string, string[] | undefined>)[name] ?? []).slice(), hookGlobal)
      .catch(() => [])
  const keepHooked = async () => {
    seen.push(...(await readHook()))
  }
  return {
    async goto(url) {
      await keepHooked()
      await page.goto(url)
    },
    async reload() {
      await keepHooked()
      await page.reload()
    },
    // Plain JSON arguments only (the interface's contract), so playwright's handle unboxing never applies.
    evaluate: <R, A>(fn: (arg: A) => R | Promise<R>, arg?: A) =>
      page.evaluate(fn as (arg: unknown) => R | Promise<R>, arg as unknown),
    async waitForFunction(fn, arg, options) {
      await page.waitForFunction(fn as (arg: unknown) => unknown, arg, { timeout: options?.timeout ?? defaultTimeout })
    },
    click: (selector) => page.click(selector),
    fill: (selector, value) => page.fill(selector, value),
    async selectOption(selector, value) {
      await page.selectOption(selector, value)
    },
    textContent: (selector) =>
      page.evaluate((selector) => document.querySelector(selector)?.textContent ?? null, selector),
    errors: async () => [...seen, ...(await readHook())],
    close: () => page.close(),
  }
}
