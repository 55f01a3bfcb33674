// Firefox over classic WebDriver, spoken to on Marionette, the protocol Firefox serves itself (`--marionette`) and
// geckodriver translates W3C WebDriver into. There is no geckodriver package on Debian and no maintained Marionette
// client on npm, and the session interface needs eleven commands, so this speaks the protocol directly: a TCP stream
// of `length:json` packets, a command `[0, id, name, params]`, its answer `[1, id, error, result]`.
//
// Why not WebDriver BiDi (playwright-core's `moz-firefox` channel, how the tests first drove Firefox): with a BiDi
// session open, Firefox ESR 153's engine worker froze for good while starting its nested model worker in about 1 of 13
// to 1 of 60 opens (7 of 900 in a bare BiDi session), which no user sees: 0 of 1,050 without automation and 0 of
// 1,200 over Marionette (docs/browsers.md).
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserSession, EngineName } from './session'
import { classicSession, type Send, sessionTimeouts } from './webdriver-driver'

export interface FirefoxOptions {
  binary: string
  /** Preferences written to the fresh profile's user.js. */
  prefs: Record<string, boolean | number | string>
}

/** Commands whose answer is the result itself; Marionette wraps every other one's as `{ value }`. */
const unwrapped = new Set(['WebDriver:NewSession', 'WebDriver:NewWindow'])

/** Starts headless Firefox on a fresh profile with Marionette on a port it picks, and opens a session on it. */
export async function firefoxSession(engine: EngineName, options: FirefoxOptions): Promise<BrowserSession> {
  const profile = mkdtempSync(join(tmpdir(), 'sift-firefox-'))
  // Port 0: Marionette takes a free port and writes it to the profile's MarionetteActivePort.
  const prefs = { ...options.prefs, 'marionette.port': 0 }
  writeFileSync(
    join(profile, 'user.js'),
    Object.entries(prefs)
      .map(([name, value]) => `user_pref(${JSON.stringify(name)}, ${JSON.stringify(value)});\n`)
      .join(''),
  )
  const firefox = spawn(options.binary, ['--headless', '--no-remote', '--marionette', '--profile', profile], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  })
  const log: string[] = []
  firefox.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()))
  let connection: Marionette | undefined
  const stop = async (graceMs = 10_000) => {
    connection?.close()
    await exited(firefox, graceMs)
    rmSync(profile, { recursive: true, force: true })
  }
  try {
    const port = await activePort(profile, firefox, log)
    connection = await Marionette.connect(port)
    const marionette = connection
    const created = (await marionette.command('WebDriver:NewSession', { pageLoadStrategy: 'normal' })) as {
      capabilities: { browserName?: string; browserVersion?: string }
    }
    const send: Send = async (name, params = {}, timeoutMs) => {
      if (name === 'DeleteSession') {
        // Ending the session leaves Firefox running; quitting ends both.
        return marionette.command('Marionette:Quit', { flags: ['eForceQuit'] }, timeoutMs).catch(() => undefined)
      }
      return marionette.command(`WebDriver:${name}`, params, timeoutMs)
    }
    await send('SetTimeouts', sessionTimeouts)
    const { browserName = 'firefox', browserVersion = '' } = created.capabilities
    return classicSession(engine, `${browserName} ${browserVersion} (Marionette)`, send, stop)
  } catch (error) {
    await stop(0)
    throw error
  }
}

/** One Marionette connection: commands numbered, each answer matched to its command by number. */
class Marionette {
  private nextId = 0
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>()
  private buffered = Buffer.alloc(0)
  private closed: Error | undefined

  /** The server's greeting, the first packet (not an answer to a command); rejects if the connection fails first. */
  private greeted!: (greeting: unknown) => void
  private notGreeted!: (error: Error) => void
  private readonly greeting = new Promise<unknown>((resolve, reject) => {
    this.greeted = resolve
    this.notGreeted = reject
  })

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk))
    socket.on('close', () => this.fail(new Error('Marionette: the connection closed')))
    socket.on('error', (error) => this.fail(error))
  }

  /** Connects and waits for the server's greeting. */
  static async connect(port: number): Promise<Marionette> {
    const socket = connect(port, '127.0.0.1')
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve)
      socket.once('error', reject)
    })
    const connection = new Marionette(socket)
    await connection.greeting
    return connection
  }

  command(name: string, params: Record<string, unknown>, timeoutMs?: number): Promise<unknown> {
    if (this.closed) return Promise.reject(this.closed)
    const id = ++this.nextId
    const json = Buffer.from(JSON.stringify([0, id, name, params]))
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              this.waiting.delete(id)
              reject(new Error(`Marionette ${name}: no answer within ${timeoutMs} ms`))
            }, timeoutMs)
      this.waiting.set(id, {
        resolve: (value) => {
          clearTimeout(timer)
          resolve(value)
        },
        reject: (error) => {
          clearTimeout(timer)
          reject(error)
        },
      })
    })
    this.socket.write(Buffer.concat([Buffer.from(`${json.length}:`), json]))
    return answer.then((body) => (unwrapped.has(name) ? body : (body as { value: unknown } | null)?.value))
  }

  close(): void {
    this.socket.destroy()
  }

  private receive(chunk: Buffer): void {
    this.buffered = Buffer.concat([this.buffered, chunk])
    this.packets((packet) => {
      if (!Array.isArray(packet)) return this.greeted(packet)
      if (packet[0] !== 1) return
      const [, id, error, result] = packet as [1, number, { error: string; message: string } | null, unknown]
      const waiter = this.waiting.get(id)
      this.waiting.delete(id)
      if (error) waiter?.reject(new Error(`Marionette: ${error.error} ${error.message}`))
      else waiter?.resolve(result)
    })
  }

  /** Hands each whole packet in the buffer to `take`, keeping a partial one for the next chunk. */
  private packets(take: (packet: unknown) => void): void {
    for (;;) {
      const colon = this.buffered.indexOf(':')
      if (colon < 0) return
      const length = Number(this.buffered.subarray(0, colon).toString())
      if (this.buffered.length < colon + 1 + length) return
      const packet = JSON.parse(this.buffered.subarray(colon + 1, colon + 1 + length).toString())
      this.buffered = this.buffered.subarray(colon + 1 + length)
      take(packet)
    }
  }

  private fail(error: Error): void {
    this.closed ??= error
    this.notGreeted(error)
    for (const waiter of this.waiting.values()) waiter.reject(error)
    this.waiting.clear()
  }
}

/** The port Marionette took, once it has written it to the profile (Firefox is listening by then). */
async function activePort(profile: string, firefox: ChildProcess, log: string[]): Promise<number> {
  const until = Date.now() + 60_000
  for (;;) {
    if (firefox.exitCode !== null) throw new Error(`Firefox exited (${firefox.exitCode}): ${log.join('').slice(-2000)}`)
    try {
      const port = Number(readFileSync(join(profile, 'MarionetteActivePort'), 'utf8'))
      if (port > 0) return port
    } catch {}
    if (Date.now() > until)
      throw new Error(`Firefox's Marionette did not start within 60 s: ${log.join('').slice(-2000)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Waits up to `ms` for Firefox to end after the quit, then ends what is left of its process group. */
async function exited(child: ChildProcess, ms: number): Promise<void> {
  const gone =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once('exit', () => resolve()))
  await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, ms))])
  if (child.pid !== undefined) {
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {}
  }
  await gone
}
