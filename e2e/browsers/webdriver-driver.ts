// A classic W3C WebDriver session as the session interface: a tab is a window, commands go one at a time, each to
// its own window first. The transport is the engine's: WebKitWebDriver over HTTP (webkit-driver.ts), Firefox's
// Marionette over its TCP protocol (marionette-driver.ts). No BiDi: no console, no request events, no workers; errors
// come from the in-page hook (page-hook.ts).
import { hookGlobal } from './page-hook'
import type { BrowserSession, EngineName, PageSession } from './session'

const defaultTimeout = 30_000

/** The WebDriver commands the session interface needs, by the names the WebDriver spec and Marionette give them. */
export type Command =
  | 'SetTimeouts'
  | 'GetWindowHandle'
  | 'SwitchToWindow'
  | 'NewWindow'
  | 'CloseWindow'
  | 'Navigate'
  | 'Refresh'
  | 'ExecuteAsyncScript'
  | 'FindElement'
  | 'ElementClick'
  | 'DeleteSession'

/** One command on the session; resolves with its value. `timeoutMs` bounds it (none: the session's own timeouts). */
export type Send = (command: Command, params?: Record<string, unknown>, timeoutMs?: number) => Promise<unknown>

/** The timeouts every session runs with: a script may await a whole ingest, a page load a cold model cache. */
export const sessionTimeouts = { script: 600_000, pageLoad: 120_000, implicit: 10_000 }

/** A started session as the interface's `BrowserSession`; `stop` ends the processes behind it after the session. */
export function classicSession(
  engine: EngineName,
  version: string,
  send: Send,
  stop: () => void | Promise<void>,
): BrowserSession {
  return new WebDriverBrowser(engine, version, send, stop)
}

class WebDriverBrowser implements BrowserSession {
  private current: string | undefined
  /** The tabs' windows still open. */
  private readonly open = new Set<string>()
  private unusedFirstWindow = true
  /** Commands one at a time: each page's go to its own window first. */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
    readonly engine: EngineName,
    readonly version: string,
    private readonly send: Send,
    private readonly stop: () => void | Promise<void>,
  ) {}

  /** Runs `work` once the commands before it are done, whether they succeeded or not. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work)
    this.queue = run.catch(() => undefined)
    return run
  }

  /** Runs `work` alone, on the window `handle`. */
  inWindow<T>(handle: string, work: () => Promise<T>): Promise<T> {
    return this.serial(async () => {
      if (this.current !== handle) {
        await this.send('SwitchToWindow', { handle })
        this.current = handle
      }
      return work()
    })
  }

  /** A blank window opened when the last tab's closed (`closeWindow`): the next `newPage()` takes it. */
  private spare: string | undefined

  /**
   * Closes a tab's window. WebDriver ends the session with its last window, so before the last one closes a blank one
   * opens, for the next tab. The tab's window is closed, not sent to a blank page: a page navigated away from may stay
   * alive in the back-forward cache, its memory still open, which a closed tab's never is.
   */
  closeWindow(handle: string): Promise<void> {
    // Closed already, and maybe taken since as the spare by another tab, which this must not close.
    if (!this.open.has(handle)) return Promise.resolve()
    return this.inWindow(handle, async () => {
      if (this.open.size === 1)
        this.spare = ((await this.send('NewWindow', { type: 'tab' })) as { handle: string }).handle
      await this.send('CloseWindow')
      this.current = undefined
      this.open.delete(handle)
    })
  }

  async newPage(): Promise<PageSession> {
    const handle = await this.serial(async () => {
      if (this.unusedFirstWindow) {
        this.unusedFirstWindow = false
        this.current = (await this.send('GetWindowHandle')) as string
        this.open.add(this.current)
        return this.current
      }
      if (this.spare !== undefined) {
        const spare = this.spare
        this.spare = undefined
        this.open.add(spare)
        return spare
      }
      // A new window opens from the current one: after the current tab closed, from another that is still open.
      const [other] = this.open
      if (this.current === undefined && other !== undefined) {
        await this.send('SwitchToWindow', { handle: other })
        this.current = other
      }
      const { handle } = (await this.send('NewWindow', { type: 'tab' })) as { handle: string }
      this.open.add(handle)
      return handle
    })
    return new WebDriverPage(this, handle, this.send)
  }

  /** Ends the session, then the processes behind it (`stop`), whatever state the session was left in. */
  async close(): Promise<void> {
    try {
      await this.queue
      await this.send('DeleteSession', {}, 15_000).catch(() => undefined)
    } finally {
      await this.stop()
    }
  }
}

class WebDriverPage implements PageSession {
  /** What the hook recorded on pages this tab has since left. */
  private readonly seen: string[] = []

  constructor(
    private readonly browser: WebDriverBrowser,
    private readonly handle: string,
    private readonly send: Send,
  ) {}

  private on<T>(work: () => Promise<T>): Promise<T> {
    return this.browser.inWindow(this.handle, work)
  }

  private async keepHooked(): Promise<void> {
    this.seen.push(...(await this.readHook()))
  }

  private readHook(): Promise<string[]> {
    return this.evaluate(
      (name) => ((window as unknown as Record<string, string[] | undefined>)[name] ?? []).slice(),
      hookGlobal,
    ).catch(() => [])
  }

  async goto(url: string): Promise<void> {
    await this.keepHooked()
    await this.on(() => this.send('Navigate', { url }))
  }

  async reload(): Promise<void> {
    await this.keepHooked()
    await this.on(() => this.send('Refresh'))
  }

  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return this.run(fn.toString(), arg)
  }

  /** Runs the function whose source is `source` on `arg` in the page (awaited), as `evaluate` does. */
  private async run<R>(source: string, arg: unknown): Promise<R> {
    const script = `const done = arguments[arguments.length - 1]
const arg = arguments[0]
Promise.resolve()
  .then(() => (${source})(arg))
  .then(
    (value) => done({ value: value === undefined ? null : value, undefined: value === undefined }),
    (error) => done({ error: error instanceof Error ? error.name + ': ' + error.message : String(error) }),
  )`
    const result = (await this.on(() =>
      this.send('ExecuteAsyncScript', { script, args: [arg === undefined ? null : arg] }),
    )) as { value?: R; undefined?: boolean; error?: string } | null
    if (result?.error !== undefined) throw new Error(`evaluate: ${result.error}`)
    return (result?.undefined ? undefined : result?.value) as R
  }

  async waitForFunction<A = undefined>(
    fn: (arg: A) => unknown,
    arg?: A,
    options?: { timeout?: number },
  ): Promise<void> {
    const timeout = options?.timeout ?? defaultTimeout
    const until = Date.now() + timeout
    // Only a boolean comes back: a truthy element or window would not serialise.
    const truthy = `(arg) => !!(${fn.toString()})(arg)`
    for (;;) {
      if (await this.run<boolean>(truthy, arg)) return
      if (Date.now() > until) throw new Error(`waitForFunction: not true after ${timeout} ms: ${fn.toString()}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  async click(selector: string): Promise<void> {
    await this.on(async () => {
      const element = await this.element(selector)
      await this.send('ElementClick', { id: element })
    })
  }

  async fill(selector: string, value: string): Promise<void> {
    await this.setValue(selector, value)
  }

  async selectOption(selector: string, value: string): Promise<void> {
    await this.setValue(selector, value)
  }

  textContent(selector: string): Promise<string | null> {
    return this.evaluate((selector) => document.querySelector(selector)?.textContent ?? null, selector)
  }

  async errors(): Promise<string[]> {
    return [...this.seen, ...(await this.readHook())]
  }

  private closed = false

  close(): Promise<void> {
    // Once: its window may be another tab's by now (the spare `newPage` hands on).
    if (this.closed) return Promise.resolve()
    this.closed = true
    return this.browser.closeWindow(this.handle)
  }

  /** The element's WebDriver reference (the implicit wait lets it appear first). */
  private async element(selector: string): Promise<string> {
    const found = (await this.send('FindElement', { using: 'css selector', value: selector })) as Record<string, string>
    return Object.values(found)[0]
  }

  /** A field's value set as typing or picking sets it: `input`, then `change`. */
  private async setValue(selector: string, value: string): Promise<void> {
    const done = await this.evaluate(
      ({ selector, value }) => {
        const field = document.querySelector(selector) as HTMLInputElement | HTMLSelectElement | null
        if (!field) return false
        field.focus()
        field.value = value
        field.dispatchEvent(new Event('input', { bubbles: true }))
        field.dispatchEvent(new Event('change', { bubbles: true }))
        return true
      },
      { selector, value },
    )
    if (!done) throw new Error(`no element matches ${selector}`)
  }
}
