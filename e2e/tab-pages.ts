// Pages of one browser profile that open the same memory through the demo page's test hook, as tabs would: a
// playwright context's pages (Chromium), or a session's tabs in any engine (e2e/browsers/).
import type { BrowserContext, Page } from 'playwright-core'
import { inject } from 'vitest'
import type { IndexProgress, Memory } from '../src/types'
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
