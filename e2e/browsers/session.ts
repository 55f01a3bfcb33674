// The page API the browser tests use, the same in every engine: a driver per engine implements it (Chromium and
// Firefox through playwright-core, WebKit over classic W3C WebDriver), and SIFT_E2E_BROWSER picks the engine.

/** The engines, as SIFT_E2E_BROWSER names them. `webkit` is WebKit as Safari ships it (the Storage API and
 * SharedArrayBuffer on); `webkit-nostorage` is WebKitGTK's defaults (no `navigator.storage`, no SharedArrayBuffer). */
export const engineNames = ['chromium', 'firefox', 'webkit', 'webkit-nostorage'] as const
export type EngineName = (typeof engineNames)[number]

/** The title prefix of every per-engine block: `[firefox] tabs` (e2e/browsers/each-engine.ts). */
export function engineTitle(engine: EngineName, title: string): string {
  return `[${engine}] ${title}`
}

/** The engine a block title names with `engineTitle`, or undefined for a title that names none. */
export function engineOfTitle(title: string): EngineName | undefined {
  const name = /^\[([a-z-]+)\] /.exec(title)?.[1]
  return (engineNames as readonly string[]).includes(name ?? '') ? (name as EngineName) : undefined
}

/** The engine SIFT_E2E_BROWSER names; Chromium when it names none. */
export function engineFromEnv(value = process.env.SIFT_E2E_BROWSER): EngineName {
  if (value === undefined || value === '') return 'chromium'
  if ((engineNames as readonly string[]).includes(value)) return value as EngineName
  throw new Error(`SIFT_E2E_BROWSER=${value}: expected one of ${engineNames.join(', ')}`)
}

export interface WaitOptions {
  /** Milliseconds; default 30 s. */
  timeout?: number
}

/** One tab. Every method rejects (never hangs past its timeout) when the page cannot do what it asks. */
export interface PageSession {
  /** Loads `url` and waits for its load event. */
  goto(url: string): Promise<void>
  /** Reloads the page and waits for its load event. */
  reload(): Promise<void>
  /**
   * Runs `fn(arg)` in the page and resolves with its (awaited) result. `fn` is sent as source text: it sees only its
   * argument and the page's globals. The argument and the result must be JSON values (undefined is kept).
   */
  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>
  /** Waits until `fn(arg)` returns a truthy value in the page (polled), rejecting after `timeout`. */
  waitForFunction<A = undefined>(fn: (arg: A) => unknown, arg?: A, options?: WaitOptions): Promise<void>
  /** Clicks the element `selector` finds (waiting for it to exist), as a user does. */
  click(selector: string): Promise<void>
  /** Sets a text field's value as typing does (an `input` event). */
  fill(selector: string, value: string): Promise<void>
  /** Picks a `<select>`'s option by value (`input` and `change` events). */
  selectOption(selector: string, value: string): Promise<void>
  /** The element's `textContent`, or null when `selector` finds none. */
  textContent(selector: string): Promise<string | null>
  /**
   * Console errors, uncaught exceptions, unhandled rejections and Content-Security-Policy violations of this page
   * since it first loaded (across reloads), from an in-page hook that runs before any of the page's scripts (served
   * by the hooked site, e2e/browsers/page-hook.ts), plus what the driver itself sees (Chromium: its workers' console).
   * WebKit's driver gives no console, so there it is the hook's record only: a worker's console is not in it.
   */
  errors(): Promise<string[]>
  close(): Promise<void>
}

/** One browser process with one profile: its pages share the origin's storage, as tabs do. */
export interface BrowserSession {
  engine: EngineName
  /** The browser's name and version, as the driver reports it. */
  version: string
  /** A new tab. */
  newPage(): Promise<PageSession>
  close(): Promise<void>
}

export interface Engine {
  name: EngineName
  /** Why this engine cannot run on this machine (its binary missing), or undefined when it can. */
  missing(): string | undefined
  launch(): Promise<BrowserSession>
}
