import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

/**
 * A real PouchDB Server (the CouchDB replication protocol, LevelDB files) on loopback, in a folder of its own, for the
 * sync tests: started, stopped and started again over the same files, and read raw.
 */
export class SyncServer {
  private process: ChildProcess | undefined

  private constructor(
    readonly folder: string,
    readonly port: number,
  ) {}

  static async start(): Promise<SyncServer> {
    const server = new SyncServer(mkdtempSync(join(tmpdir(), 'sift-sync-server-')), await freePort())
    await server.restart()
    return server
  }

  /** The URL of database `name` on this server. */
  url(name: string): string {
    return `http://127.0.0.1:${this.port}/${name}`
  }

  async restart(): Promise<void> {
    await this.stop()
    const bin = resolve('node_modules/.bin/pouchdb-server')
    this.process = spawn(bin, ['--host', '127.0.0.1', '--port', String(this.port), '--no-stdout-logs'], {
      cwd: this.folder,
      stdio: 'ignore',
    })
    for (let tries = 0; tries < 200; tries++) {
      if (
        await fetch(`http://127.0.0.1:${this.port}/`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return
      await new Promise((done) => setTimeout(done, 100))
    }
    throw new Error('PouchDB Server did not start')
  }

  async stop(): Promise<void> {
    const running = this.process
    if (!running || running.exitCode !== null) return
    const exited = new Promise((done) => running.once('exit', done))
    running.kill('SIGTERM')
    await exited
    this.process = undefined
  }

  /** Every byte of every file in the server's folder, one buffer per file. */
  files(): Buffer[] {
    const buffers: Buffer[] = []
    const walk = (folder: string) => {
      for (const entry of readdirSync(folder)) {
        const path = join(folder, entry)
        if (statSync(path).isDirectory()) walk(path)
        else buffers.push(readFileSync(path))
      }
    }
    walk(this.folder)
    return buffers
  }

  /** GET a path of the server's HTTP API, as JSON. */
  async get(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`http://127.0.0.1:${this.port}/${path}`)
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }

  /** POST to a path of the server's HTTP API (e.g. `db/_compact`). */
  async post(path: string): Promise<number> {
    const response = await fetch(`http://127.0.0.1:${this.port}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    })
    await response.arrayBuffer()
    return response.status
  }
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))))
    })
  })
}
