// Pages of one browser profile that open the same memory through the demo page's test hook, as tabs would: a
// playwright context's pages (Chromium), or a session's tabs in any engine (e2e/browsers/).
import type { BrowserContext, Page } from 'playwright-core'
import { afterEach, inject } from 'vitest'
import type { IndexProgress, Memory } from '../src/types'
import type { EngineRun } from './browsers/each-engine'
import type { BrowserSession, PageSession } from './browsers/session'

const baseUrl = inject('baseUrl')

declare global {
  interface Window {
    tabMemory: Memory
    tabProgress: IndexProgress[]
  }
}

/** Opens a page on the demo with `window.tabMemory` open on `name` (WASM), its progress events in `window.tabProgress`. */
export async function openPage(context: BrowserContext, name: string): Promise<Page> {
  return withTabMemory(await context.newPage(), name)
}

/** A new tab of `browser` on the demo with `window.tabMemory` open on `name` (WASM), as `openPage` opens a page. */
export async function openTab(browser: BrowserSession, name: string): Promise<PageSession> {
  return withTabMemory(await browser.newPage(), name)
}

/**
 * `openTab` for the tests of an engine's block: each tab it opens is closed after the test that opened it, so that
 * each test opens its own memory name and leaves the block's one browser as it found it.
 */
export function tabsClosedAfterEach(run: EngineRun): TabsOfATest {
  let opened: PageSession[] = []
  afterEach(async () => {
    for (const page of opened) await page.close().catch(() => undefined)
    opened = []
  })
  const kept = (page: PageSession) => {
    opened.push(page)
    return page
  }
  return Object.assign(async (name: string) => kept(await openTab(run.browser(), name)), {
    blank: async () => kept(await run.browser().newPage()),
  })
}

/** A tab with `window.tabMemory` open on `name`; `blank()` a tab with nothing open. Both closed after the test. */
export interface TabsOfATest {
  (name: string): Promise<PageSession>
  blank(): Promise<PageSession>
}

/** What opening a tab's memory takes of a page: both playwright's `Page` and a `PageSession` have it. */
interface DemoTab {
  goto(url: string): Promise<unknown>
  waitForFunction(fn: () => unknown): Promise<unknown>
  evaluate(fn: (name: string) => Promise<void>, name: string): Promise<unknown>
}

/** `page` on the demo with `window.tabMemory` open on `name`: the same steps through either page interface. */
async function withTabMemory<P extends DemoTab>(page: P, name: string): Promise<P> {
  const tab: DemoTab = page
  await tab.goto(`${baseUrl}/?open=0`)
  await tab.waitForFunction(() => typeof window.sift?.createMemory === 'function')
  await tab.evaluate(async (name) => {
    window.tabProgress = []
    window.tabMemory = await window.sift.createMemory({
      name,
      device: 'wasm',
      onProgress: (progress) => window.tabProgress.push(progress),
    })
  }, name)
  return page
}

/** Waits for the backlog, retrying a call that the end of another page's engine failed with WORKER_FAILED. */
export function indexedWithRetry(page: Page | PageSession): Promise<void> {
  // Either runs the function in the page; the session's signature is the plainer one to call.
  return (page as PageSession).evaluate(async () => {
    for (;;) {
      try {
        return await window.tabMemory.indexed()
      } catch (error) {
        if ((error as { code?: string }).code !== 'WORKER_FAILED') throw error
      }
    }
  })
}
