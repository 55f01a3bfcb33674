// Driving the demo page as a person does, for the demo's browser tests: open it on a memory of its own, wait for
// what it is doing to land on screen, read its history and its stats.
import type { Page } from 'playwright-core'
import { launchDemo, type DemoSession } from './launch-demo'

export interface OpenDemo {
  session: DemoSession
  page: Page
  /** Console errors and uncaught exceptions, recorded from the first byte. */
  errors: string[]
  url: string
}

/** Opens the demo on the memory `name`, with console errors and uncaught exceptions recorded from the first byte. */
export async function openDemo(baseUrl: string, name: string): Promise<OpenDemo> {
  const session = await launchDemo({ baseUrl, webgpu: false })
  const { page } = session
  const errors: string[] = []
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
  page.on('pageerror', (error) => errors.push(error.message))
  const url = `${baseUrl}/?device=wasm&name=${name}`
  await page.goto(url)
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 })
  return { session, page, errors, url }
}

/** Waits until the latest context and chart asked for are on screen. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.body.dataset.context === 'ready' && document.body.dataset.chart === 'ready')
}

/** Waits for "all indexed" and the message count; on a timeout, says what the page showed instead. */
export async function waitIndexed(page: Page, messages: number): Promise<void> {
  try {
    await page.waitForFunction(
      (messages) =>
        document.getElementById('progress-text')!.textContent!.startsWith('all indexed') &&
        document.getElementById('status')!.textContent!.startsWith(`${messages} messages`),
      messages,
      { timeout: 120_000 },
    )
  } catch (error) {
    const shown = await page.evaluate(() =>
      ['progress-text', 'status', 'load-status'].map((id) => `${id}: ${document.getElementById(id)!.textContent}`),
    )
    throw new Error(`waiting for ${messages} messages, all indexed; the page shows ${shown.join(' | ')}`, {
      cause: error,
    })
  }
}

export function historyText(page: Page): Promise<string> {
  return page.evaluate(() => document.getElementById('history')!.textContent!)
}

/** The value of the context stats row `term`, or undefined when the stats have no such row. */
export function statsRow(page: Page, term: string): Promise<string | undefined> {
  return page.evaluate(
    (term) =>
      [...document.querySelectorAll('#context-stats dt')].find((dt) => dt.textContent === term)?.nextElementSibling
        ?.textContent ?? undefined,
    term,
  )
}

/** "1,234" → 1234 */
export function countIn(text: string): number {
  return Number(text.replaceAll(',', ''))
}
