// WebKit over classic W3C WebDriver: WebKitGTK's WebKitWebDriver driving MiniBrowser on an Xvfb screen of its own,
// spoken to with plain fetch (the handful of commands the session interface needs, webdriver-driver.ts).
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import type { WebKitBinaries } from '../../scripts/find-browsers'
import type { BrowserSession, EngineName } from './session'
import { type Command, classicSession, type Send, sessionTimeouts } from './webdriver-driver'

/** Each command's route on the W3C WebDriver HTTP API, under /session/{id}; `{id}` is taken from the parameters. */
const routes: Record<Command, [method: string, path: string]> = {
  SetTimeouts: ['POST', '/timeouts'],
  GetWindowHandle: ['GET', '/window'],
  SwitchToWindow: ['POST', '/window'],
  NewWindow: ['POST', '/window/new'],
  CloseWindow: ['DELETE', '/window'],
  Navigate: ['POST', '/url'],
  Refresh: ['POST', '/refresh'],
  ExecuteAsyncScript: ['POST', '/execute/async'],
  FindElement: ['POST', '/element'],
  ElementClick: ['POST', '/element/{id}/click'],
  DeleteSession: ['DELETE', ''],
}

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
    const send: Send = (name, params = {}, timeoutMs) => {
      const [method, route] = routes[name]
      const { id, ...body } = params
      const path = route.replace('{id}', String(id))
      return command(session, method, path, method === 'GET' || method === 'DELETE' ? undefined : body, timeoutMs)
    }
    await send('SetTimeouts', sessionTimeouts)
    return classicSession(engine, `MiniBrowser (WebKitGTK) ${created.capabilities.browserVersion ?? ''}`, send, stop)
  } catch (error) {
    stop()
    throw error
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
