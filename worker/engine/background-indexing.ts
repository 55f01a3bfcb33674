import type { SiftError } from '../../src/errors'
import type { BackgroundFailure, IndexProgress, Sentence } from '../../src/types'
import type { Embedder } from '../embed/embedder'
import type { LexicalIndex } from '../index/lexical/lexical-index'
import { LEXICAL_SNAPSHOT_FORMAT, snapshotIsStale } from '../index/lexical/lexical-snapshot'
import { countAbove, type SentenceCatalog } from '../index/sentence-catalog'
import { VectorIndex, type SerializedCoarseLists } from '../index/vector/vector-index'
import type { ForgetResult } from '../store/store'
import type { EngineStore } from './open-parts'
import type { VectorBlock } from '../store/vector-block'
import { backgroundError, toBackgroundFailure, type BackgroundTask } from './background-failure'
import { CoarseListsUpkeep } from './coarse-lists-upkeep'
import type { WriteQueue } from './write-queue'

/**
 * Sentences taken from the backlog per round, embedded (in length-sorted batches, see `Embedder`) and stored in
 * one transaction. A larger chunk pads less and writes less often, but its vectors become searchable later and a
 * request waits longer for the model.
 */
const BACKLOG_CHUNK = 128
/**
 * A backlog smaller than one model batch waits this long for more sentences first: while a batch runs, the
 * worker cannot take new `add`s, so a chat adding turns one by one would otherwise feed the model batches of one
 * or two sentences, which cost far more per sentence (BENCHMARKS.md).
 */
const GATHER_MS = 40
const GATHER_BELOW = 32

/** Residuals (half the stored vector bytes) are read this long after open unless a request or `indexed()` comes first. */
const RESIDUAL_DELAY_MS = 1500

/** Quiet time after the last write before a stale saved copy is written again, so a bulk import saves it once. */
const SAVE_DELAY_MS = 1000

/**
 * A backlog that failed (the model did not load, a vector write was refused: full storage) is tried again on its own
 * after this long, then after twice as long each time it fails again, up to `RETRY_MAX_MS`: the failure may pass
 * (space freed, the model's files served again) without the app calling `add` or `indexed()`, and retrying sooner
 * would only repeat a failure that has not passed.
 */
const RETRY_FIRST_MS = 5_000
const RETRY_MAX_MS = 5 * 60_000

export interface BackgroundIndexingOptions {
  store: EngineStore
  embedder: Embedder
  /** The sentences stored; the backlog is every one above `embeddedThrough`. */
  catalog: SentenceCatalog
  /** The lexical index kept by the engine, saved from here when its snapshot is stale. */
  lexical: LexicalIndex
  /** The engine's write queue: every write here goes through it, in order with `add` and `forget`. */
  writes: WriteQueue
  /** Every sentence up to this sid has its vector stored. */
  embeddedThrough: number
  /** The saved lexical snapshot covers every sentence below this sid (0: there is none). */
  lexicalSavedBelow: number
  /** The stored vectors (without residuals) the vector index starts from. */
  vectorBlocks: readonly VectorBlock[]
  /** The coarse lists as last saved, put in use with the residuals. */
  savedCoarseLists?: SerializedCoarseLists
  /** Called after each embedded chunk, and with `failure` set when a background task fails. */
  onProgress?: (progress: IndexProgress) => void
}

/**
 * The work an engine does between and after its calls: draining the embedding backlog into the vector index,
 * reading the residuals after open, keeping the coarse lists (`CoarseListsUpkeep`), and rewriting the saved copies of
 * the indexes once enough is missing from them. It owns the vector index. A failure is recorded (`lastFailure`) and
 * reported to `onProgress` when it happens; what failed is tried again later.
 */
export class BackgroundIndexing {
  /**
   * The options it keeps: not the open-time data (the stored blocks, half the vector bytes), which it reads once, nor
   * the starting watermarks, which live on in fields of their own.
   */
  private readonly options: Omit<
    BackgroundIndexingOptions,
    'vectorBlocks' | 'savedCoarseLists' | 'embeddedThrough' | 'lexicalSavedBelow'
  >
  private vectorIndex: VectorIndex | undefined
  private coarseLists: CoarseListsUpkeep | undefined
  private embeddedThroughSid: number
  private lexicalSavedBelow: number
  private draining: Promise<void> | undefined
  /** Set by every `drain`, so sentences added while a chunk is embedded are taken by the same drain. */
  private drainRequested = false
  /** Settles when the stored residuals are in the vector index, or failed to load; undefined until their read starts. */
  private residualsLoaded: Promise<void> | undefined
  /** The residual read a request asked for, which starts a turn after it (`requestAnswered`). */
  private residualsRequested: Promise<void> | undefined
  private residualTimer: ReturnType<typeof setTimeout> | undefined
  private saveTimer: ReturnType<typeof setTimeout> | undefined
  private retryTimer: ReturnType<typeof setTimeout> | undefined
  private retryDelayMs = RETRY_FIRST_MS
  private stopped = false
  private failure: BackgroundFailure | undefined
  private readonly conversationOf = (sid: number): string | undefined => this.options.catalog.get(sid)?.conversationId

  constructor({
    vectorBlocks,
    savedCoarseLists,
    embeddedThrough,
    lexicalSavedBelow,
    ...options
  }: BackgroundIndexingOptions) {
    this.options = options
    this.embeddedThroughSid = embeddedThrough
    this.lexicalSavedBelow = lexicalSavedBelow
    const [first] = vectorBlocks
    if (first) this.createVectorIndex(first.dim, savedCoarseLists).addBlocks(vectorBlocks, this.conversationOf)
  }

  /** The dense index, once any vector exists. */
  get vectors(): VectorIndex | undefined {
    return this.vectorIndex
  }

  /** Every sentence up to this sid has its vector stored and indexed. */
  get embeddedThrough(): number {
    return this.embeddedThroughSid
  }

  /** Sentences still waiting for a vector. */
  get pending(): number {
    const { sids } = this.options.catalog.scope()
    return countAbove(sids, this.embeddedThroughSid)
  }

  /** The latest failure of a background task, if any failed. */
  get lastFailure(): BackgroundFailure | undefined {
    return this.failure
  }

  /** Starts after open: trains the coarse lists if none were saved, arms the residual read, drains the backlog. */
  start(): void {
    this.coarseLists?.trainWhenDue()
    // Not at once: the first request after open would share the thread with deserialising half the vector bytes.
    this.residualTimer = setTimeout(() => this.loadResiduals(), RESIDUAL_DELAY_MS)
    letProcessExit(this.residualTimer)
    this.drainInBackground()
    this.scheduleSaves()
  }

  /** After `add` stored messages: embeds their sentences, and saves the lexical snapshot if it has gone stale. */
  messagesAdded(): void {
    this.drainInBackground()
    this.scheduleSaves()
  }

  /**
   * After a request was answered: the residuals and saved coarse lists it did without are put in use right after
   * it, a turn later, so that the answer is sent first.
   */
  requestAnswered(): void {
    if (this.residualsLoaded) return
    this.residualsRequested ??= new Promise((resolve) => setTimeout(resolve, 0)).then(() => {
      if (!this.stopped) return this.loadResiduals()
    })
  }

  /**
   * After the store forgot messages (inside the write queue): drops their vectors. The store deleted the saved
   * copies with them (they hold the forgotten words and vectors), so both are rewritten once writes are quiet.
   * Call `restoreSavedLists` before the store's forget, so the saved lists are re-centred like the others.
   */
  forgotten({ messageIds, sids }: ForgetResult): void {
    this.vectorIndex?.remove(sids)
    if (messageIds.length === 0) return
    this.lexicalSavedBelow = 0
    this.coarseLists?.forgotten()
    this.scheduleSaves()
  }

  /** Puts the coarse lists read at open in use now rather than with the residuals (once; later calls only train when due). */
  restoreSavedLists(): void {
    this.coarseLists?.restoreSaved()
  }

  /**
   * Resolves when every stored sentence has a vector and the vector index is complete (residuals loaded, coarse lists
   * trained when due); rejects with the backlog's failure if it cannot drain.
   */
  async indexed(): Promise<void> {
    await this.loadResiduals()
    await this.drain()
    await this.coarseLists?.settled()
  }

  /**
   * Resolves when the work in flight or asked to start at once (residual read, drain, training, queued writes) has
   * ended, however it ended. Work armed for later (`RESIDUAL_DELAY_MS`, `SAVE_DELAY_MS`) is not waited for.
   */
  async settled(): Promise<void> {
    await this.abandonedWorkEnded()
    await this.options.writes.settled()
  }

  /**
   * After `abandon`: resolves when the work it left in flight has ended (residual read, the chunk being embedded, a
   * training slice), without waiting for the write queue, so a write in the queue (`clear`) may wait for it. An
   * abandoned drain or training queues no write.
   */
  async abandonedWorkEnded(): Promise<void> {
    await this.residualsRequested
    await this.residualsLoaded
    await this.draining?.catch(() => undefined)
    await this.coarseLists?.settled()
  }

  /**
   * Stops the backlog after the chunk in flight, waits for the work in flight, then saves whatever saved copy is stale
   * (unless the database is no longer this engine's: `SiftStore.superseded`).
   */
  async stop(): Promise<void> {
    this.abandon()
    await this.settled()
    if (this.options.store.superseded) return
    if (this.lexicalSaveIsDue) await this.attempt('save-lexical-snapshot', this.saveLexicalSnapshot())
    if (this.coarseLists?.saveIsDue) await this.attempt('save-coarse-lists', this.coarseLists.save())
  }

  /** Starts no more work, now: what is in flight ends on its own (its writes refused once the store is superseded). */
  abandon(): void {
    this.stopped = true
    clearTimeout(this.saveTimer)
    clearTimeout(this.residualTimer)
    clearTimeout(this.retryTimer)
  }

  private drainInBackground(): void {
    // A failure is recorded as it happens (`failed`) and kept by the rejected promise for indexed() to report; the
    // next add or indexed() tries again, and so does a retry armed here if neither comes.
    clearTimeout(this.retryTimer)
    this.drain().catch(() => undefined)
  }

  private retryLater(): void {
    if (this.stopped) return
    clearTimeout(this.retryTimer)
    this.retryTimer = setTimeout(() => this.drainInBackground(), this.retryDelayMs)
    letProcessExit(this.retryTimer)
    this.retryDelayMs = Math.min(2 * this.retryDelayMs, RETRY_MAX_MS)
  }

  private drain(): Promise<void> {
    this.drainRequested = true
    this.draining ??= this.drainWhileRequested()
    return this.draining
  }

  /** One drain, however many callers wait on it: so its success resets the retry delay and its failure arms one retry. */
  private async drainWhileRequested(): Promise<void> {
    try {
      while (this.drainRequested && !this.stopped) {
        this.drainRequested = false
        await this.drainBacklog()
      }
      this.retryDelayMs = RETRY_FIRST_MS
    } catch (error) {
      this.retryLater()
      throw error
    } finally {
      this.draining = undefined
    }
  }

  /** Sentences added while a chunk is being embedded gather into the next chunk, so a busy chat gets bigger batches. */
  private async drainBacklog(): Promise<void> {
    const { embedder, store, writes } = this.options
    let done = 0
    while (!this.stopped) {
      let batch = this.backlogChunk()
      if (batch.length === 0) return
      if (batch.length < GATHER_BELOW) {
        await new Promise((resolve) => setTimeout(resolve, GATHER_MS))
        batch = this.backlogChunk()
        // Forgotten while it gathered.
        if (batch.length === 0) return
      }
      let vectors: Float32Array
      try {
        vectors = await embedder.embed(
          batch.map((s) => s.text),
          'document',
        )
      } catch (error) {
        throw this.failed('embed', error, done)
      }
      const dim = embedder.dim!
      if (this.stopped) return
      try {
        await writes.run(async () => {
          if (this.stopped) return
          const through = batch[batch.length - 1].sid
          const kept = await store.appendVectors(
            batch.map((s) => s.sid),
            vectors,
            dim,
            through,
          )
          const index = this.vectorIndex ?? this.createVectorIndex(dim)
          index.add(kept.sids, kept.vectors, this.conversationOf)
          this.embeddedThroughSid = Math.max(this.embeddedThroughSid, through)
          this.coarseLists?.rowsAdded(kept.sids.length)
          // Sentences forgotten while they were embedded: their forget could not drop from the cache what was not in it yet.
          const keptSids = new Set(kept.sids)
          await embedder.forgetCached(
            batch.filter((s) => !keptSids.has(s.sid)).map((s) => s.text),
            'document',
          )
        })
      } catch (error) {
        throw this.failed('store-vectors', error, done)
      }
      this.coarseLists?.trainWhenDue()
      done += batch.length
      this.report(done)
      if (this.pending === 0) this.scheduleSaves()
    }
  }

  private backlogChunk(): Sentence[] {
    const { catalog } = this.options
    return catalog.sidsAbove(this.embeddedThroughSid, BACKLOG_CHUNK).map((sid) => catalog.get(sid)!)
  }

  /** Writes the stale saved copies of the indexes once writes have been quiet for `SAVE_DELAY_MS`. */
  private scheduleSaves(): void {
    clearTimeout(this.saveTimer)
    const { coarseLists } = this
    if (this.stopped || (!this.lexicalSaveIsDue && !coarseLists?.saveIsDue)) return
    this.saveTimer = setTimeout(() => {
      if (this.stopped) return
      // A failed save leaves the old copy in place (or none); open then indexes what it misses.
      const { writes } = this.options
      if (this.lexicalSaveIsDue)
        this.attempt(
          'save-lexical-snapshot',
          writes.run(() => this.saveLexicalSnapshot()),
        )
      if (coarseLists?.saveIsDue)
        this.attempt(
          'save-coarse-lists',
          writes.run(() => coarseLists.save()),
        )
    }, SAVE_DELAY_MS)
    letProcessExit(this.saveTimer)
  }

  private get lexicalSaveIsDue(): boolean {
    return snapshotIsStale(this.options.catalog, this.lexicalSavedBelow)
  }

  /**
   * Run inside the write queue (or after it settled), so no forget can fall between serialising and storing.
   * `toSnapshot` compacts the index first, so no forgotten word is ever written to disk.
   */
  private async saveLexicalSnapshot(): Promise<void> {
    const { catalog, lexical, store } = this.options
    const nextSid = (catalog.scope().sids.at(-1) ?? 0) + 1
    await store.saveLexicalSnapshot({ format: LEXICAL_SNAPSHOT_FORMAT, nextSid, index: lexical.serialize() })
    this.lexicalSavedBelow = nextSid
  }

  /**
   * Reads the residuals (`SiftStore.residuals`) once: after the first request following open, after
   * `RESIDUAL_DELAY_MS`, or when `indexed()` asks, whichever comes first. Until they arrive the best rows are
   * re-scored from their int8 codes alone, which misses a little of the exact top. The coarse lists read at open are
   * put in use at the same moment, so neither delays open or the first request.
   */
  private loadResiduals(): Promise<void> {
    clearTimeout(this.residualTimer)
    this.restoreSavedLists()
    this.residualsLoaded ??= this.attempt('load-residuals', this.readResiduals())
    return this.residualsLoaded
  }

  private async readResiduals(): Promise<void> {
    const records = await this.options.store.residuals()
    if (this.stopped) return
    for (const record of records) this.vectorIndex?.setResiduals(record.sids, record.residuals, record.residualScales)
  }

  private createVectorIndex(dim: number, savedCoarseLists?: SerializedCoarseLists): VectorIndex {
    const vectors = new VectorIndex(dim)
    this.vectorIndex = vectors
    const { store, writes } = this.options
    this.coarseLists = new CoarseListsUpkeep({
      vectors,
      store,
      writes,
      saved: savedCoarseLists,
      stopped: () => this.stopped,
      onFailure: (task, error) => this.failed(task, error),
    })
    return vectors
  }

  /** `work`, with a failure recorded rather than thrown: for tasks nobody awaits for their result. */
  private async attempt(task: BackgroundTask, work: Promise<void>): Promise<void> {
    try {
      await work
    } catch (error) {
      this.failed(task, error)
    }
  }

  /** Records `error` as the latest failure, reports it to `onProgress`, and returns it as the `SiftError` it was recorded as. */
  private failed(task: BackgroundTask, error: unknown, done = 0): SiftError {
    const recorded = backgroundError(task, error)
    this.failure = toBackgroundFailure(task, recorded, Date.now())
    this.report(done, this.failure)
    return recorded
  }

  private report(done: number, failure?: BackgroundFailure): void {
    const { pending } = this
    const progress: IndexProgress = { done, total: done + pending, pending, backend: this.options.embedder.backend }
    this.options.onProgress?.(failure ? { ...progress, failure } : progress)
  }
}

/** In Node, a timer for background work must not keep the process alive. */
function letProcessExit(timer: ReturnType<typeof setTimeout>): void {
  ;(timer as { unref?: () => void }).unref?.()
}
