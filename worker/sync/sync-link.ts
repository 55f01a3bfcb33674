import { SiftError } from '../../src/errors'
import type { ForgetSelector } from '../../src/types'
import type { ScopeSelector } from './forget-replay'
import { type LocalHistory, type MirrorDatabase, Replica } from './replica'
import { KEY_CHECK_ID, type SyncDocument, type SyncDocuments } from './sync-document'
import { databaseNameOf, syncDocumentsFor } from './sync-keys'

/** The PouchDB adapter a host keeps the mirror with: `indexeddb` in the browser, `memory` in Node. */
export interface MirrorAdapter {
  name: string
  plugin: unknown
}

/** What `MemoryOptions.sync` gives, validated. */
export interface SyncSettings {
  url: URL
  passphrase: string
  /** The memory's name: its mirror is the PouchDB database `sift-sync-` + it. */
  memoryName: string
}

/** The parts of PouchDB's constructor and replication the link uses. */
interface PouchConstructor {
  new (name: string, options?: object): PouchDatabase
  plugin(plugin: unknown): PouchConstructor
  replicate(source: PouchDatabase, target: PouchDatabase, options?: object): Promise<unknown>
  sync(one: PouchDatabase, other: PouchDatabase, options: object): LiveSync
}

interface PouchDatabase extends MirrorDatabase {
  close(): Promise<void>
  info(): Promise<unknown>
}

interface LiveSync {
  on(event: 'change', listener: (info: { direction: 'push' | 'pull' }) => void): LiveSync
  on(event: 'error', listener: (error: unknown) => void): LiveSync
  on(event: 'complete', listener: () => void): LiveSync
  cancel(): void
}

/** How long a round waits after the change that asked for it, so that a burst of changes makes one round. */
const ROUND_DELAY_MS = 50

/**
 * A memory's sync with its server (docs/sync-design.md): the mirror, the live replication between it and the server,
 * and the rounds (`Replica`) that carry changes between the mirror and the store. Replication with the server starts
 * only once the server's key check opened with this memory's key (or was written by it), so a device with another
 * passphrase pushes nothing; until the server is reached the rounds go on locally and the mirror keeps what they wrote.
 */
export class SyncLink {
  private rounds: Promise<void> = Promise.resolve()
  private roundTimer: ReturnType<typeof setTimeout> | undefined
  private live: LiveSync | undefined
  private checked: Promise<void> | undefined
  private stopped = false
  /**
   * A round wrote a deletion or a rewrite that the server has not compacted away since. True at first: the last session
   * may have closed between a push and its compaction.
   */
  private serverCompactionDue = true
  /** Live pushes so far: one that lands while the server compacts may bring a body the compaction has passed. */
  private livePushes = 0
  /** The server's compaction under way, which `compactServer` joins. */
  private compaction: Promise<void> | undefined

  private constructor(
    private readonly PouchDB: PouchConstructor,
    private readonly mirror: PouchDatabase,
    private readonly remote: PouchDatabase,
    private readonly documents: SyncDocuments,
    private readonly replica: Replica,
  ) {}

  static async start(settings: SyncSettings, local: LocalHistory, adapter: MirrorAdapter): Promise<SyncLink> {
    const [documents, PouchDB] = await Promise.all([
      syncDocumentsFor(settings.passphrase, databaseNameOf(settings.url)),
      pouchWith(adapter),
    ])
    const mirror = new PouchDB(`sift-sync-${settings.memoryName}`, { adapter: adapter.name })
    const remote = withObservedInfo(new PouchDB(settings.url.href))
    const link = new SyncLink(PouchDB, mirror, remote, documents, new Replica(mirror, documents, local))
    link.changed()
    // Not awaited: a memory opens while its server is out of reach, and replicates once it is back.
    link.connect().catch(() => undefined)
    return link
  }

  /**
   * A forget is about to be made here. One by conversation, `before` or `after` travels itself, besides the deletions a
   * round sends, so that a device apart now applies it to what it stored before it was made (`replayedForget`); its
   * record is in the mirror before the store forgets. Should the mirror refuse it, the next round writes it.
   */
  async forgetting(selector: ForgetSelector): Promise<void> {
    if (!('conversationId' in selector || 'before' in selector || 'after' in selector)) {
      this.replica.forgettingByName(
        'id' in selector
          ? [selector.id]
          : 'ids' in selector
            ? selector.ids
            : selector.sentences.map((s) => s.messageId),
      )
      return
    }
    const forget = { selector: selector as ScopeSelector, at: Date.now() }
    await this.replica.recordScopeForget(forget).catch(() => this.replica.forgotByScope(forget))
  }

  /** The app is about to clear the memory: the mirror notes it first, for the round that sends it in any session. */
  async clearing(): Promise<void> {
    await this.replica.notes.clearing().catch(() => undefined)
  }

  /** Runs an add or an import of the app's: its messages are dated, for the forgets by scope of other devices, from its start. */
  async storing<T>(work: () => Promise<T>): Promise<T> {
    try {
      await this.replica.notes.storeBegan(Date.now())
      return await work()
    } finally {
      this.replica.notes.storeEnded()
    }
  }

  /** The app cleared the memory: the next round sends the deletion of everything (a forget of it all). */
  cleared(): void {
    this.replica.clearedStore()
    this.changed()
  }

  /** Asks for a round soon: the store changed (an add, a forget, an import, a clear). */
  changed(): void {
    if (this.stopped || this.roundTimer !== undefined) return
    this.roundTimer = setTimeout(() => {
      this.roundTimer = undefined
      this.queueRound().catch(() => undefined)
    }, ROUND_DELAY_MS)
  }

  /**
   * Resolves once what the store held when it was called is on the server and what the server held then is in the
   * store: a round, a push and a pull, a round for what the pull brought, and a push of what that round wrote. Rejects
   * with the failure (the server out of reach, `WRONG_KEY`).
   */
  async synced(): Promise<void> {
    await this.connect()
    // The live replication is stopped meanwhile: a one-off replication beside it shares its checkpoints, and after the
    // server came back the two could wait on each other.
    await this.stopLive()
    try {
      await this.queueRound()
      await this.PouchDB.replicate(this.mirror, this.remote)
      await this.PouchDB.replicate(this.remote, this.mirror)
      await this.queueRound()
      await this.PouchDB.replicate(this.mirror, this.remote)
      await this.compactServer()
    } finally {
      this.startLive()
    }
  }

  async stop(): Promise<void> {
    // A round asked for and not run yet carries what the store changed last (a forget by scope's record is held in
    // memory until then): run it into the mirror before closing, so the next session sends it.
    const pending = this.roundTimer !== undefined
    clearTimeout(this.roundTimer)
    this.roundTimer = undefined
    if (pending) await this.queueRound().catch(() => undefined)
    this.stopped = true
    await this.stopLive()
    await this.rounds.catch(() => undefined)
    await this.mirror.close()
  }

  /** The key check, then live replication; once it passed, later calls resolve at once. */
  private connect(): Promise<void> {
    this.checked ??= this.checkKey().then(
      () => this.startLive(),
      (error: unknown) => {
        // Out of reach: try again at the next call. Another key: stays refused.
        if (!(error instanceof SiftError && error.code === 'WRONG_KEY')) this.checked = undefined
        throw error
      },
    )
    return this.checked
  }

  private async checkKey(): Promise<void> {
    const onServer = await this.remote.get(KEY_CHECK_ID).catch((error: { status?: number }) => {
      if (error?.status === 404) return undefined
      throw error
    })
    if (onServer === undefined) {
      await this.remote.put(await this.documents.keyCheck())
      return
    }
    if (!(await this.documents.opensKeyCheck(onServer as SyncDocument)))
      throw new SiftError(
        'WRONG_KEY',
        "sync: the server's memory was sealed with another passphrase than this memory's; nothing was sent. Open this memory with the passphrase its other devices use.",
      )
  }

  private startLive(): void {
    if (this.stopped || this.live) return
    this.live = this.PouchDB.sync(this.mirror, this.remote, { live: true, retry: true })
      .on('change', (info) => {
        if (info.direction === 'pull') this.changed()
        else {
          this.livePushes++
          // After the round that wrote what was pushed: it says whether that replaced anything.
          this.rounds.then(() => this.compactServer()).catch(() => undefined)
        }
      })
      // Retried by the replication itself (`retry`), with a growing pause; `synced` reports a server out of reach.
      .on('error', () => undefined)
  }

  private async stopLive(): Promise<void> {
    const live = this.live
    if (!live) return
    this.live = undefined
    const ended = new Promise<void>((done) => live.on('complete', () => done()))
    live.cancel()
    await ended
  }

  /**
   * Asks the server to compact the database once what a forget replaced has reached it, so that the old bodies leave
   * its storage (docs/sync-design.md, "Forget everywhere"). CouchDB lets a database's admins do it, as a per-user
   * database's owner is; a server that refuses leaves them to its own automatic compaction.
   */
  private compactServer(): Promise<void> {
    this.compaction ??= this.compactWhileDue().finally(() => {
      this.compaction = undefined
    })
    return this.compaction
  }

  /** Compacts until no push landed during the last compaction that may have brought a body it passed. */
  private async compactWhileDue(): Promise<void> {
    while (this.serverCompactionDue && !this.stopped) {
      this.serverCompactionDue = false
      const pushesBefore = this.livePushes
      try {
        await this.remote.compact()
      } catch {
        this.serverCompactionDue = true
        return
      }
      if (this.livePushes !== pushesBefore) this.serverCompactionDue = true
    }
  }

  private queueRound(): Promise<void> {
    const round = this.rounds.then(async () => {
      if (!this.stopped && (await this.replica.round())) this.serverCompactionDue = true
    })
    // A failed round is repeated whole by the next one; `synced` reports it.
    this.rounds = round.catch(() => undefined)
    return round
  }
}

/**
 * The server's database with an `info` whose failures nobody fails to handle. pouchdb-replication 9.0.0 updates its
 * progress with `src.info().then(…)` and no rejection handler: a server that goes away in the middle of a pull then
 * leaves an unhandled rejection (in Node, the end of the process). Every promise `info` gives, and each one derived from
 * it, gets a handler that ignores the failure, besides its callers' own: those that await it still see it.
 */
function withObservedInfo(remote: PouchDatabase): PouchDatabase {
  const info = remote.info.bind(remote)
  remote.info = (...args: unknown[]) => {
    const result = (info as (...args: unknown[]) => Promise<unknown>)(...args)
    // Called with a callback (the HTTP adapter's compaction polls so), the promise is PouchDB's to handle.
    if (typeof args.at(-1) === 'function') return result
    return ObservedPromise.resolve(result)
  }
  return remote
}

/** A promise whose `then` without a rejection handler gets one that ignores the failure (`withObservedInfo`). */
class ObservedPromise<T> extends Promise<T> {
  // biome-ignore lint/suspicious/noThenProperty: a Promise subclass, thenable by design; only a then with no rejection handler changes
  override then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    const next = super.then(onFulfilled, onRejected)
    if (!onRejected) next.catch(() => undefined)
    return next
  }
}

/** PouchDB with the HTTP adapter, replication and the host's adapter, loaded only when a memory turns sync on. */
function pouchWith(adapter: MirrorAdapter): Promise<PouchConstructor> {
  // PouchDB is one constructor per realm, and a plugin added twice throws: each is added once, for every memory.
  loadedPouch ??= Promise.all([
    import('pouchdb-core'),
    import('pouchdb-adapter-http'),
    import('pouchdb-replication'),
  ]).then(([core, http, replication]) =>
    (core.default as PouchConstructor).plugin(http.default).plugin(replication.default),
  )
  return loadedPouch.then((PouchDB) => {
    if (!addedAdapters.has(adapter.name)) {
      PouchDB.plugin(adapter.plugin)
      addedAdapters.add(adapter.name)
    }
    return PouchDB
  })
}

let loadedPouch: Promise<PouchConstructor> | undefined
const addedAdapters = new Set<string>()
