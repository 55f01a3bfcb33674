// Opens the built demo page in headless Debian Chromium and records every request the page and its workers make.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchChromium } from '../scripts/launch-chromium'

export interface DemoSession {
  browser: Browser
  context: BrowserContext
  page: Page
  /** Every request URL issued so far, by the page and by its workers. */
  requests: string[]
  /** The same requests with their method and body (`undefined` when they had none). */
  requestLog: { url: string; method: string; body: string | undefined }[]
  /** Console messages of the page and its workers reporting a Content-Security-Policy violation. */
  policyViolations: string[]
  close(): Promise<void>
}

export interface LaunchOptions {
  baseUrl: string
  /** Launch with `--enable-unsafe-webgpu` (SwiftShader adapter); without it Chromium offers no WebGPU adapter here. */
  webgpu: boolean
  /** Query string for the demo page; `open=0` keeps the page from opening its own memory. */
  query?: string
}

export async function launchDemo({ baseUrl, webgpu, query = 'open=0' }: LaunchOptions): Promise<DemoSession> {
  const browser = await launchChromium({ webgpu })
  const context = await browser.newContext()
  const requests: string[] = []
  const requestLog: DemoSession['requestLog'] = []
  context.on('request', (request) => {
    requests.push(request.url())
    requestLog.push({ url: request.url(), method: request.method(), body: request.postData() ?? undefined })
  })
  const policyViolations: string[] = []
  const page = await context.newPage()
  const noteViolation = (text: string) => /Content Security Policy/i.test(text) && policyViolations.push(text)
  page.on('worker', (worker) => worker.on('console', (message) => noteViolation(message.text())))
  context.on('response', (response) => {
    if (response.status() >= 400) console.error(`[page] ${response.status()} ${response.url()}`)
  })
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`))
  page.on('console', (message) => {
    noteViolation(message.text())
    if (message.type() === 'error' || message.type() === 'warning')
      console.error(`[page ${message.type()}] ${message.text()}`)
  })
  await page.goto(`${baseUrl}/?${query}`)
  await page.waitForFunction(() => typeof window.sift?.createMemory === 'function')
  return { browser, context, page, requests, requestLog, policyViolations, close: () => browser.close() }
}

/** Request URLs whose origin is not the demo's own (blob: and data: URLs never leave the page). */
export function foreignRequests(requests: readonly string[], baseUrl: string): string[] {
  const origin = new URL(baseUrl).origin
  return requests.filter((url) => {
    if (url.startsWith('data:')) return false
    if (url.startsWith('blob:')) return !url.startsWith(`blob:${origin}/`)
    return new URL(url).origin !== origin
  })
}
