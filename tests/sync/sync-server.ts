import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { createMemory, type Memory, type NodeMemoryOptions } from '../../src/node'

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
    // CORS, as a CouchDB serving a web app from another origin must allow: the browser tests' pages are on another port.
    const cors = {
      origins: '*',
      credentials: true,
      methods: 'GET, PUT, POST, HEAD, DELETE',
      headers: 'accept, authorization, content-type, origin, referer',
    }
    writeFileSync(join(server.folder, 'config.json'), JSON.stringify({ httpd: { enable_cors: true }, cors }))
    await server.restart()
    return server
  }

  /** The URL of database `name` on this server. */
  url(name: string): string {
    return `http://127.0.0.1:${this.port}/${name}`
  }

  /** Whether the server's process is up (`stop` ends it; `restart` starts it again). */
  get running(): boolean {
    return this.process !== undefined && this.process.exitCode === null && this.process.signalCode === null
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

  /**
   * Stops the server and runs LevelDB's own compaction over every database in its folder, then starts it again.
   * PouchDB Server's `_compact` deletes old revisions' keys, but LevelDB keeps the bytes in its log and tables until it
   * compacts them itself (docs/sync-design.md, measured); CouchDB's compaction writes a new file instead.
   */
  async compactFiles(): Promise<void> {
    await this.stop()
    const { default: leveldown } = (await import('leveldown')) as unknown as {
      default: (path: string) => LevelDown
    }
    for (const entry of readdirSync(this.folder)) {
      const path = join(this.folder, entry)
      if (!existsSync(join(path, 'CURRENT'))) continue
      const db = leveldown(path)
      await new Promise<void>((done, fail) => db.open((error) => (error ? fail(error) : done())))
      await new Promise<void>((done, fail) =>
        db.compactRange('\u0000', '\uffff', (error) => (error ? fail(error) : done())),
      )
      await new Promise<void>((done, fail) => db.close((error) => (error ? fail(error) : done())))
    }
    await this.restart()
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

  /**
   * The sealed fields of `sealings` that the server's files hold. LevelDB compresses its blocks (Snappy): a repeat of
   * four bytes anywhere in a block becomes a back-reference, so a long run of a sealing may not be in the files as
   * written; ten 12-character pieces of each are searched, and one found is it (a piece of random base64 matches by
   * chance about once in 64^12).
   */
  sealingsInFiles(sealings: readonly string[]): string[] {
    const raw = Buffer.concat(this.files())
    return sealings.filter((sealing) =>
      Array.from({ length: 10 }, (_, i) => sealing.slice(i * 12, i * 12 + 12)).some((piece) =>
        raw.includes(Buffer.from(piece)),
      ),
    )
  }

  /** GET a path of the server's HTTP API, as JSON. */
  async get(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`http://127.0.0.1:${this.port}/${path}`)
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }

  /** The sealed field of every live record's document in `database` (the key check left out). */
  async sealings(database: string): Promise<string[]> {
    const { body } = await this.get(`${database}/_all_docs?include_docs=true`)
    const rows = body.rows as { id: string; doc: { s: string } }[]
    return rows.filter((row) => row.id !== 'sift-key-check').map((row) => row.doc.s)
  }
}

/**
 * A device of a synced memory in Node: memory `name` in an IndexedDB of its own (or `options.indexedDB`, to open the
 * same storage again), synced with `url` under `passphrase`.
 */
export function syncedDevice(
  name: string,
  url: string,
  passphrase: string,
  options: Partial<NodeMemoryOptions> = {},
): Promise<Memory> {
  return createMemory({
    name,
    indexedDB: new IDBFactory(),
    IDBKeyRange: IDBKeyRange as unknown as typeof globalThis.IDBKeyRange,
    passphrase,
    sync: { url },
    ...options,
  })
}

interface LevelDown {
  open(callback: (error?: Error) => void): void
  compactRange(start: string, end: string, callback: (error?: Error) => void): void
  close(callback: (error?: Error) => void): void
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
