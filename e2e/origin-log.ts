// "Nothing leaves the origin", proved the same way in every engine: the built demo (with the in-page error hook,
// e2e/browsers/page-hook.ts) served by a static server of the test file's own that records every request it
// receives. WebKit's driver reports no requests, so the proof cannot come from the browser; it comes from the two
// things every engine has. The origin's log shows what reached the page's own server: only reads (GET/HEAD) of files
// it has, none with a body. The demo's Content-Security-Policy (`connect-src 'self'`, `default-src 'self'`) is what
// keeps anything from going to any other host, and the page's hook records each `securitypolicyviolation`, so an
// attempt shows in `page.errors()`.
import { afterAll, beforeAll } from 'vitest'
import { demoOutDir } from '../scripts/demo-build'
import { type RequestLogEntry, type StaticServer, startStaticServer } from '../scripts/static-server'
import type { EngineRun } from './browsers/each-engine'
import { hookedSite } from './browsers/page-hook'
import type { PageSession } from './browsers/session'

export type { RequestLogEntry }

export interface LoggedSite {
  /** The demo's origin, e.g. `http://localhost:41234` (once the file's beforeAll has run). */
  readonly url: string
  /** A point in the log: `since(mark)` is what arrived after it. */
  mark(): number
  /**
   * The requests received since `mark`, read once no request has completed for a moment, so that one the page sent
   * just before is in (the server reports a request when its body is read and its answer sent).
   */
  since(mark: number): Promise<RequestLogEntry[]>
}

/** A server that records the requests it receives (`log`), over `root`. */
export async function loggedServer(root: string): Promise<{ server: StaticServer; log: RequestLogEntry[] }> {
  const log: RequestLogEntry[] = []
  const server = await startStaticServer({ root, port: 0, onRequest: (entry) => log.push(entry) })
  return { server, log }
}

/** The hooked demo on a logged server of this test file's own, started before its tests and closed after them. */
export function loggedSiteForFile(): LoggedSite {
  let site: { server: StaticServer; log: RequestLogEntry[] } | undefined
  let remove: (() => Promise<void>) | undefined
  beforeAll(async () => {
    const hooked = await hookedSite(demoOutDir)
    remove = hooked.remove
    site = await loggedServer(hooked.root)
  })
  afterAll(async () => {
    await site?.server.close()
    await remove?.()
  })
  const started = () => {
    if (!site) throw new Error('the logged demo server has not started')
    return site
  }
  return {
    get url() {
      return started().server.url
    },
    mark: () => started().log.length,
    async since(mark) {
      const { log } = started()
      let seen = -1
      for (let waited = 0; log.length !== seen && waited < 5_000; waited += 250) {
        seen = log.length
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
      return log.slice(mark)
    },
  }
}

/**
 * What is wrong with each request that is not a plain read of a file the site has: a method other than GET/HEAD, a
 * body, an answer of 400 or more (a file that is not there), or a word of the history in its URL. Empty when every
 * request is a read of a static file.
 */
export function offendingRequests(entries: readonly RequestLogEntry[], words: readonly string[] = []): string[] {
  const found: string[] = []
  for (const { method, url, bodyBytes, status } of entries) {
    const request = `${method} ${url} (${status})`
    if (method !== 'GET' && method !== 'HEAD') found.push(`${request}: not a read`)
    if (bodyBytes > 0) found.push(`${request}: a body of ${bodyBytes} bytes`)
    if (status >= 400) found.push(`${request}: no such file`)
    let target = url
    try {
      target = decodeURIComponent(url)
    } catch {}
    for (const word of words)
      if (target.toLowerCase().includes(word.toLowerCase())) found.push(`${request}: carries "${word}"`)
  }
  return found
}

/** The paths (no query) of the requests, to check that the model and ONNX Runtime files came from the origin. */
export function requestedPaths(entries: readonly RequestLogEntry[]): string[] {
  return entries.map((entry) => new URL(entry.url, 'http://origin').pathname)
}

/**
 * One tab for all the tests of an engine's block, opened before the first. The tests share it rather than each closing
 * a tab of its own: over WebKit's classic WebDriver, closing a session's last window ends the session, and the block's
 * next `newPage()` fails ("invalid session id").
 */
export function tabForBlock(run: EngineRun): () => PageSession {
  let tab: PageSession | undefined
  beforeAll(async () => {
    tab = await run.browser().newPage()
  })
  return () => {
    if (!tab) throw new Error(`${run.engine.name}: the block's tab did not open`)
    return tab
  }
}

/** What the tab's error record (`page.errors()`, kept across loads) gained since `from` entries. */
export async function errorsSince(page: PageSession, from: number): Promise<string[]> {
  return (await page.errors()).slice(from)
}
