// WebKit over classic W3C WebDriver: WebKitGTK's WebKitWebDriver driving MiniBrowser on an Xvfb screen of its own,
// spoken to with plain fetch (the handful of commands the session interface needs). No BiDi there: no console, no
// request events, no workers; errors come from the in-page hook (page-hook.ts).
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import type { WebKitBinaries } from '../../scripts/find-browsers'
import type { BrowserSession, EngineName, PageSession } from './session'
import { hookGlobal } from './page-hook'

const defaultTimeout = 30_000

export interface WebKitOptions {
  binaries: WebKitBinaries
  /** MiniBrowser's `--features=` list, e.g. `+StorageAPI,+StorageAPIEstimate`; none keeps WebKitGTK's defaults. */
  features?: string
  /** `JSC_useSharedArrayBuffer=1`: SharedArrayBuffer as Safari has it (WebKitGTK leaves it off by default). */
  sharedArrayBuffer: boolean
}

/** Starts Xvfb (it picks a free display), WebKitWebDriver on a free port, and a MiniBrowser session. */
export async function webkitSession(engine: EngineName, options: WebKitOptions): Promise<BrowserSession> {
  const processes: ChildProcess[] = []
  const stop = () => {
    for (const child of processes.reverse()) {
      // Each was started in a group of its own (the driver's MiniBrowser and its web processes with it).
      if (child.pid !== undefined && child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGTERM')
        } catch {}
      }
    }
  }
  try {
    const xvfb = spawn(options.binaries.xvfb, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
      detached: true,
    })
    processes.push(xvfb)
    const display = await firstLine(xvfb, 3, 'Xvfb')
    const port = await freePort()
    const env: NodeJS.ProcessEnv = { ...process.env, DISPLAY: `:${display}` }
    delete env.JSC_useSharedArrayBuffer
    if (options.sharedArrayBuffer) env.JSC_useSharedArrayBuffer = '1'
    const driverProcess = spawn(options.binaries.driver, [`--port=${port}`, '--replace-on-new-session'], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    })
    processes.push(driverProcess)
    const driverLog: string[] = []
    driverProcess.stderr?.on('data', (chunk: Buffer) => driverLog.push(chunk.toString()))
    const base = `http://127.0.0.1:${port}`
    await waitForDriver(base, driverProcess, driverLog)
    const args = ['--automation', ...(options.features ? [`--features=${options.features}`] : [])]
    const created = (await command(base, 'POST', '/session', {
      capabilities: {
        alwaysMatch: {
          browserName: 'MiniBrowser',
          'webkitgtk:browserOptions': { binary: options.binaries.miniBrowser, args },
        },
      },
    })) as { sessionId: string; capabilities: { browserVersion?: string } }
    const session = `${base}/session/${created.sessionId}`
    const send: Send = (method, path, body, timeoutMs) => command(session, method, path, body, timeoutMs)
    await send('POST', '/timeouts', { script: 600_000, pageLoad: 120_000, implicit: 10_000 })
    return new WebDriverBrowser(
      engine,
      `MiniBrowser (WebKitGTK) ${created.capabilities.browserVersion ?? ''}`,
      send,
      stop,
    )
  } catch (error) {
    stop()
    throw error
  }
}

type Send = (method: string, path: string, body?: unknown, timeoutMs?: number) => Promise<unknown>

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
    private readonly stop: () => void,
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
        await this.send('POST', '/window', { handle })
        this.current = handle
      }
      return work()
    })
  }

  /** A window left blank when its tab closed, because it was the last one: the next `newPage()` takes it. */
  private spare: string | undefined

  /**
   * Closes a tab's window. WebDriver ends the session with its last window, so the last one is left on a blank page
   * instead, for the next tab.
   */
  closeWindow(handle: string): Promise<void> {
    return this.inWindow(handle, async () => {
      if (this.open.size === 1) {
        await this.send('POST', '/url', { url: 'about:blank' })
        this.spare = handle
      } else {
        await this.send('DELETE', '/window')
        if (this.current === handle) this.current = undefined
      }
      this.open.delete(handle)
    })
  }

  async newPage(): Promise<PageSession> {
    const handle = await this.serial(async () => {
      if (this.unusedFirstWindow) {
        this.unusedFirstWindow = false
        this.current = (await this.send('GET', '/window')) as string
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
        await this.send('POST', '/window', { handle: other })
        this.current = other
      }
      const { handle } = (await this.send('POST', '/window/new', { type: 'tab' })) as { handle: string }
      this.open.add(handle)
      return handle
    })
    return new WebDriverPage(this, handle, this.send)
  }

  /** Ends the session (MiniBrowser quits), then the driver and Xvfb, whatever state the session was left in. */
  async close(): Promise<void> {
    try {
      await this.queue
      await this.send('DELETE', '', undefined, 15_000).catch(() => undefined)
    } finally {
      this.stop()
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
    await this.on(() => this.send('POST', '/url', { url }))
  }

  async reload(): Promise<void> {
    await this.keepHooked()
    await this.on(() => this.send('POST', '/refresh', {}))
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
      this.send('POST', '/execute/async', { script, args: [arg === undefined ? null : arg] }),
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
      await this.send('POST', `/element/${element}/click`, {})
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

  close(): Promise<void> {
    return this.browser.closeWindow(this.handle)
  }

  /** The element's WebDriver reference (the implicit wait lets it appear first). */
  private async element(selector: string): Promise<string> {
    const found = (await this.send('POST', '/element', { using: 'css selector', value: selector })) as Record<
      string,
      string
    >
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

/** One WebDriver command; `timeoutMs` bounds it (none: the driver's own timeouts, set at session start, do). */
async function command(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs?: number,
): Promise<unknown> {
  const response = await fetch(base + path, {
    method,
    signal: timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs),
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const answer = (await response.json().catch(() => ({}))) as { value?: unknown }
  if (!response.ok) {
    const value = answer.value as { error?: string; message?: string } | undefined
    throw new Error(`WebDriver ${method} ${path || '/'}: ${value?.error ?? response.status} ${value?.message ?? ''}`)
  }
  return answer.value
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** The first line a child writes to its file descriptor `fd` (Xvfb's `-displayfd`: the display it took). */
function firstLine(child: ChildProcess, fd: number, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 10 s`)), 10_000)
    const stream = child.stdio[fd] as NodeJS.ReadableStream
    stream.on('data', (chunk: Buffer) => {
      text += chunk.toString()
      if (text.includes('\n')) {
        clearTimeout(timer)
        resolve(text.trim())
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${name} exited (${code}) before it started`))
    })
  })
}

async function waitForDriver(base: string, driver: ChildProcess, log: string[]): Promise<void> {
  const until = Date.now() + 10_000
  for (;;) {
    if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited (${driver.exitCode}): ${log.join('')}`)
    const ready = await fetch(`${base}/status`)
      .then((response) => response.ok)
      .catch(() => false)
    if (ready) return
    if (Date.now() > until) throw new Error(`WebKitWebDriver did not answer on ${base} within 10 s: ${log.join('')}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
