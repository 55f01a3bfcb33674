import type { WordNeighboursLoad } from '../embed/word-neighbours'
import { SiftError } from '../../src/errors'
import type { EngineOptions } from '../../src/protocol'
import { modelFilesMissingAtOpen, modelUnavailable, requestEmbeddingError } from './model-failure'
import type {
  BuildContextOptions,
  Context,
  EncryptedSiftExport,
  KeyChange,
  ExportOptions,
  FindForgettableOptions,
  ForgetSelector,
  ForgetRequest,
  ForgettableMatch,
  ImportOptions,
  ImportResult,
  MemoryOptions,
  MemoryStats,
  MessageInput,
  MessagePage,
  MessagesOptions,
  OpenRepairs,
  SiftExport,
} from '../../src/types'
import type { Embedder } from '../embed/embedder'
import type { EmbeddingCache } from '../embed/embedding-cache'
import type { LocalHistory } from '../sync/replica'
import { syncedHistory } from './synced-history'
import type { EngineHost } from '../hosts/engine-host'
import type { LexicalIndex } from '../index/lexical/lexical-index'
import type { SentenceCatalog } from '../index/sentence-catalog'
import { toContextRequest } from '../input/context-request'
import { toForgetSelector } from '../input/forget-selector'
import { toNextAtRestKey } from '../input/key-option'
import { toForgetRequest, toForgettableRequest } from '../input/forgettable-request'
import { toMessagesRequest } from '../input/messages-request'
import { toInputLimits, type InputLimits } from '../input/input-limits'
import { assertIdsFree } from '../input/import-data'
import { toValidMessages, type ValidMessage } from '../input/message-input'
import { toTuning, type Tuning } from '../input/tuning-option'
import type { EngineParts, EngineStore, OpenedParts } from './open-parts'
import { BackgroundIndexing } from './background-indexing'
import { exportMessages, readImport } from './export-import'
import { forgettableMatches } from './find-forgettable'
import { runForget } from './forget-cascade'
import { type EmbeddedTopic, embedTopic } from './forgettable-topic'
import { memoryStats } from './memory-stats'
import { messagePage } from './message-pages'
import { openParts } from './open-parts'
import { requestContext } from './request-context'
import { Pins } from './pins'
import { Summaries } from './summaries'
import { WriteQueue } from './write-queue'
import type { AtRestKey } from '../crypto/at-rest-key'

/**
 * The whole memory behind the `Memory` interface: stores and forgets messages, answers requests from the indexes,
 * and leaves the embedding and upkeep of the indexes to `BackgroundIndexing`. Runs in a Web Worker in browsers and
 * in-process in Node; `EngineHost` carries the differences.
 */
export class Engine {
  // The parts `clear` replaces (the store and what was read from it) are set by `adopt`.
  private store!: EngineStore
  private embedder!: Embedder
  private cache: EmbeddingCache | undefined
  private catalog!: SentenceCatalog
  private lexical!: LexicalIndex
  private wordNeighbours!: WordNeighboursLoad
  private tokenCounters!: OpenedParts['tokenCounters']
  private repairedAtOpen: OpenRepairs | undefined
  /** The memory's passphrase or key (`changeKey` replaces it), which `clear` creates the new database with. */
  private atRestKey: AtRestKey | undefined
  /** The engine's background work: its vector index, its progress and its failures (read by diagnostics and tests). */
  background!: BackgroundIndexing
  /** The pinned messages (`Memory.pin`, `unpin`, `pins`), which every context of their conversation holds first. */
  pins!: Pins
  /** The conversation summaries (`Memory.setSummary`, `summary`, `clearSummary`). */
  summaries!: Summaries
  private readonly model: string
  private readonly strictRanking: boolean
  private readonly storage: EngineHost['storage']
  private readonly writes: WriteQueue
  private readonly limits: InputLimits
  private readonly tuning: Tuning
  private readonly onProgress: MemoryOptions['onProgress']
  private readonly reopen: (atRestKey: AtRestKey | undefined) => Promise<OpenedParts>
  /** The `clear` in progress: a second call while it runs shares it. */
  private clearing: Promise<number> | undefined
  private closed = false

  private constructor(parts: EngineParts) {
    this.model = parts.model
    this.strictRanking = parts.strictRanking
    this.storage = parts.storage
    this.writes = parts.writes
    this.limits = parts.limits
    this.tuning = parts.tuning
    this.onProgress = parts.onProgress
    this.reopen = parts.reopen
    this.adopt(parts)
  }

  /** Opens the memory `options` names through `host`, and starts its background work. */
  static async open(options: MemoryOptions & Pick<EngineOptions, 'tuning'>, host: EngineHost): Promise<Engine> {
    const limits = toInputLimits(options)
    const tuning = toTuning(options.tuning)
    const { requireModelFiles = true } = options
    if (typeof requireModelFiles !== 'boolean')
      throw new SiftError('INVALID_INPUT', `requireModelFiles must be a boolean, got ${String(requireModelFiles)}.`)
    const parts = await openParts(options, host)
    try {
      // Checked while the store was read (the embedder's preload starts it), so this rarely waits.
      if (requireModelFiles) {
        await parts.embedder.filesServed().catch((error: unknown) => {
          throw modelFilesMissingAtOpen(error)
        })
      }
      return new Engine({
        ...parts,
        writes: new WriteQueue(),
        limits,
        tuning,
        onProgress: options.onProgress,
        reopen: (atRestKey) => openParts({ ...options, passphrase: undefined, key: undefined, ...atRestKey }, host),
      })
    } catch (error) {
      await parts.embedder.dispose()
      parts.store.close()
      throw error
    }
  }

  /** Stores the messages (one transaction, before any embedding) and resolves with their ids; embedding follows in the background. */
  async add(input: MessageInput | MessageInput[]): Promise<string[]> {
    this.assertOpen()
    const batch = toValidMessages(input, Date.now(), () => crypto.randomUUID(), this.limits.maxMessageChars)
    if (batch.length === 0) return []
    const { messages } = await this.storeMessages(batch)
    return messages.map((m) => m.id)
  }

  /** The stored messages (all, or one conversation's) as a `SiftExport`, encrypted with `passphrase` if given. */
  async export(options?: ExportOptions): Promise<SiftExport | EncryptedSiftExport> {
    this.assertOpen()
    return exportMessages(this.store, this.summaries, options)
  }

  /** Checks all of `data` (decrypting it first if need be), then stores its messages in one transaction, ids and timestamps kept. */
  async import(data: unknown, options?: ImportOptions): Promise<ImportResult> {
    this.assertOpen()
    const batch = await readImport(data, options, this.limits.maxMessageChars)
    if (batch.messages.length === 0) return { messages: 0, sentences: 0 }
    const stored = await this.storeMessages(batch.messages, async () =>
      assertIdsFree(batch, await this.store.storedIds(batch.messages.map((m) => m.id))),
    )
    await this.pins.imported(batch.pins)
    await this.summaries.imported(batch.summaries)
    return { messages: stored.messages.length, sentences: stored.sentences.length }
  }

  /**
   * Resolves when every stored sentence has a vector and the vector index is complete (residuals loaded, coarse lists
   * trained when due); rejects with the embedding error if the backlog cannot drain.
   */
  async indexed(): Promise<void> {
    this.assertOpen()
    await this.background.indexed()
    await this.cache?.flush()
  }

  async buildContext(request: string, options?: BuildContextOptions): Promise<Context> {
    this.assertOpen()
    const startedAt = performance.now()
    const parsed = toContextRequest(request, options, this.limits.maxRequestChars)
    const { embedder, lexical, catalog, background, wordNeighbours, tokenCounters, pins, summaries } = this
    const parts = { embedder, lexical, catalog, background, wordNeighbours, tokenCounters, pins, summaries }
    const { tuning, strictRanking } = this
    const context = await requestContext(
      parsed,
      startedAt,
      { ...parts, tuning, strictRanking },
      {
        assertOpen: () => this.assertOpen(),
        clearedAway: (used) => this.clearedAway(used),
      },
    )
    return context ?? this.buildContext(request, options)
  }

  /**
   * Resolves once the embedding model has loaded (at once if it has), starting a load if none is under way: from then
   * on `hybrid` and `dense` rank by meaning. Rejects with `MODEL_UNAVAILABLE` when the load fails; the next call (or
   * embedding) tries again.
   */
  async ready(): Promise<void> {
    this.assertOpen()
    const { embedder } = this
    try {
      await embedder.whenLoaded()
    } catch (error) {
      if (await this.clearedAway(embedder)) return this.ready()
      if (error instanceof SiftError && error.code === 'MODEL_UNAVAILABLE') throw error
      throw modelUnavailable(error, 'could not load', '')
    }
  }

  /**
   * Removes the selected messages or sentences, and everything derived from them, from the store (one transaction)
   * and from memory (`FORGET_CASCADE`, worker/engine/forget-cascade.ts); resolves with how many were removed.
   */
  async forget(selector: ForgetSelector): Promise<number> {
    this.assertOpen()
    const parsed = toForgetSelector(selector)
    return this.writes.run(async () => {
      this.assertOpen()
      const { store, catalog, lexical, background, embedder, pins, summaries } = this
      const forgotten = await runForget(parsed, { store, catalog, lexical, background, embedder, pins, summaries })
      return 'sentences' in parsed ? forgotten.sids.length : forgotten.messageIds.length
    })
  }

  /**
   * The stored messages a "forget that I …" request refers to, best first (`forgettableMatches`). Ranked and read in the
   * write queue, so no forget or clear falls between the ranking and the contents.
   */
  async findForgettable(text: string, options?: FindForgettableOptions): Promise<ForgettableMatch[]> {
    this.assertOpen()
    const request = toForgettableRequest(text, options, this.limits.maxRequestChars)
    if (request.topic.trim() === '') return []
    let topic: EmbeddedTopic | undefined
    const { embedder } = this
    try {
      topic = await embedTopic(embedder, request.topic, this.strictRanking)
    } catch (error) {
      if (await this.clearedAway(embedder)) return this.findForgettable(text, options)
      // As for a context: the words still find what to forget.
      if (this.strictRanking) throw requestEmbeddingError(error)
    }
    return this.writes.run(async () => {
      this.assertOpen()
      const sources = { catalog: this.catalog, vectors: this.background.vectors, lexical: this.lexical }
      return forgettableMatches(request, topic, sources, this.store, embedder.languages, this.tuning)
    })
  }

  /** Whether `text` asks to forget or retract something (`toForgetRequest`): text alone, so outside the write queue. */
  async findForgetRequest(text: string): Promise<ForgetRequest | undefined> {
    this.assertOpen()
    return toForgetRequest(text, this.limits.maxRequestChars)
  }

  /** A page of messages in `seq` order and its forget revision, read in the write queue: it never straddles a write. */
  async messages(options?: MessagesOptions): Promise<MessagePage> {
    this.assertOpen()
    const request = toMessagesRequest(options)
    return this.writes.run(async () => {
      this.assertOpen()
      return messagePage(request, this.catalog, this.store)
    })
  }

  /**
   * Deletes the database and empties the embedding cache, then opens the store and the model again, empty, with the
   * same options; resolves with how many messages were removed. The engine stays the same object, so calls from the
   * app (and from other tabs) go on without reconnecting: those made after it wait at the API's `ClearBarrier`.
   */
  async clear(): Promise<number> {
    this.assertOpen()
    this.clearing ??= this.deleteAndReopen().finally(() => (this.clearing = undefined))
    return this.clearing
  }

  /**
   * Re-encrypts every stored record with a key from `next` in one transaction (`SiftStore.changeKey`), in the write
   * queue so that no other write falls between reading the records and writing them back.
   */
  async changeKey(next: KeyChange): Promise<void> {
    this.assertOpen()
    const atRestKey = toNextAtRestKey(next)
    await this.writes.run(async () => {
      this.assertOpen()
      await this.store.changeKey(atRestKey)
      this.atRestKey = atRestKey
    })
  }

  /** What sync reads and writes of this memory (`syncedHistory`). */
  syncedHistory(): LocalHistory {
    return syncedHistory({
      inWriteQueue: (work) => this.writes.run(work),
      store: () => this.store,
      storeMessages: (batch) => this.storeMessages(batch),
      forget: (selector) => this.forget(selector),
      pins: () => this.pins,
      summaries: () => this.summaries,
    })
  }

  async stats(): Promise<MemoryStats> {
    this.assertOpen()
    const { catalog, background, embedder, model, wordNeighbours, repairedAtOpen, storage } = this
    return memoryStats({ catalog, background, embedder, model, wordNeighbours, repairedAtOpen, storage })
  }

  /** Stops the backlog after the batch in flight, saves stale index copies, persists the embedding cache and closes the database. Later calls reject with `CLOSED`. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    // A clear under way replaces the parts closed below: let it finish (or find the memory closed) first.
    await this.clearing?.catch(() => undefined)
    await this.background.stop()
    await this.cache?.flush()
    await this.embedder.dispose()
    this.store.close()
  }

  /**
   * Stores a validated batch (one transaction) and hands it to the indexes, in the write queue; `check` runs there
   * first, so what it reads of the store cannot change before the batch is written.
   */
  private async storeMessages(
    batch: readonly ValidMessage[],
    check?: () => Promise<void>,
  ): ReturnType<EngineStore['addMessages']> {
    const stored = await this.writes.run(async () => {
      this.assertOpen()
      await check?.()
      const stored = await this.store.addMessages(batch)
      this.catalog.add(stored.messages)
      this.lexical.add(stored.sentences)
      return stored
    })
    this.background.messagesAdded()
    return stored
  }

  /** Takes the parts `open` read (or `clear` read again), and starts their background work. */
  private adopt(parts: OpenedParts): void {
    // Field by field, not the parts object: it also holds the open-time vector blocks, which must not stay reachable.
    this.store = parts.store
    this.embedder = parts.embedder
    this.cache = parts.cache
    this.catalog = parts.catalog
    this.lexical = parts.lexical
    this.repairedAtOpen = parts.repairedAtOpen
    this.atRestKey = parts.atRestKey
    this.wordNeighbours = parts.wordNeighbours
    this.tokenCounters = parts.tokenCounters
    const lent = { ...parts, writes: this.writes, assertOpen: () => this.assertOpen() }
    this.pins = new Pins(lent)
    this.summaries = new Summaries({ ...lent, maxChars: this.limits.maxMessageChars })
    this.background = new BackgroundIndexing({ ...parts, writes: this.writes, onProgress: this.onProgress })
    // Another tab upgraded or deleted the database: nothing more is written, and every call says why.
    parts.store.onSuperseded = () => this.background.abandon()
    this.background.start()
  }

  /**
   * Queued at once, so that the writes made before the clear are cleared with the rest. The background work stops at
   * once too, and the clear waits for what it left in flight (outside the queue), so that neither the model nor the
   * database is taken away from work still using it.
   */
  private deleteAndReopen(): Promise<number> {
    const { background, embedder } = this
    background.abandon()
    return this.writes.run(async () => {
      this.assertOpen()
      await background.abandonedWorkEnded()
      try {
        await embedder.dispose()
        const removed = await this.store.deleteDatabase()
        await this.cache?.clear()
        this.adopt(await this.reopen(this.atRestKey))
        return removed
      } catch (error) {
        // Half cleared: the memory cannot tell what it holds, so it closes rather than answer from stale indexes.
        this.closed = true
        this.store.close()
        throw error
      }
    })
  }

  /**
   * Whether a `clear` took away `embedder`, the model a request began embedding with (a clear under way, or done since):
   * its embedding failing is then no model failure. Resolves once that clear is done, so that the request can be
   * answered from the emptied memory, as every call made before a clear is.
   */
  private async clearedAway(embedder: Embedder): Promise<boolean> {
    if (this.clearing === undefined && this.embedder === embedder) return false
    await this.clearing?.catch(() => undefined)
    return true
  }

  private assertOpen(): void {
    if (this.closed) throw new SiftError('CLOSED', 'This memory is closed; create a new one with createMemory().')
    if (this.store.superseded) throw this.store.superseded
  }
}
