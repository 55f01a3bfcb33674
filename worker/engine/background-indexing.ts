import type { BackgroundFailure, IndexProgress } from '../../src/types'
import type { Embedder } from '../embed/embedder'
import type { LexicalIndex } from '../index/lexical/lexical-index'
import type { SentenceCatalog } from '../index/sentence-catalog'
import { VectorIndex, type SerializedCoarseLists } from '../index/vector/vector-index'
import type { VectorBlock } from '../store/vector-block'
import { FailureRecord } from './background-failure'
import { BacklogDrain, type StoredVectors } from './backlog-drain'
import { CoarseListsUpkeep } from './coarse-lists-upkeep'
import type { EngineStore } from './open-parts'
import { ResidualLoad } from './residual-load'
import { StaleCopySaves } from './stale-copy-saves'
import type { WriteQueue } from './write-queue'

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
 * The work an engine does between and after its calls, each part a state machine of its own: draining the embedding
 * backlog into the vector index (`BacklogDrain`), reading the residuals after open (`ResidualLoad`), keeping the
 * coarse lists (`CoarseListsUpkeep`), and rewriting the saved copies of the indexes once enough is missing from them
 * (`StaleCopySaves`). It owns the vector index. A failure is recorded (`FailureRecord`) and reported to `onProgress`
 * when it happens; what failed is tried again later.
 */
export class BackgroundIndexing {
  private readonly store: EngineStore
  private readonly embedder: Embedder
  private readonly catalog: SentenceCatalog
  private readonly writes: WriteQueue
  private readonly onProgress: BackgroundIndexingOptions['onProgress']
  private vectorIndex: VectorIndex | undefined
  private coarseLists: CoarseListsUpkeep | undefined
  private stopped = false
  private readonly failures = new FailureRecord((done, failure) => this.report(done, failure))
  private readonly backlog: BacklogDrain
  private readonly residuals: ResidualLoad
  private readonly saves: StaleCopySaves
  private readonly conversationOf = (sid: number): string | undefined => this.catalog.get(sid)?.conversationId

  constructor(options: BackgroundIndexingOptions) {
    const { store, embedder, catalog, lexical, writes, vectorBlocks } = options
    this.store = store
    this.embedder = embedder
    this.catalog = catalog
    this.writes = writes
    this.onProgress = options.onProgress
    const { failures } = this
    const stopped = () => this.stopped
    this.backlog = new BacklogDrain({
      catalog,
      embedder,
      store,
      writes,
      embeddedThrough: options.embeddedThrough,
      failures,
      stopped,
      vectorsStored: (kept, dim) => this.indexVectors(kept, dim),
      chunkStored: (done) => this.chunkStored(done),
    })
    this.residuals = new ResidualLoad({
      store,
      vectors: () => this.vectorIndex,
      restoreSavedLists: () => this.restoreSavedLists(),
      failures,
      stopped,
    })
    this.saves = new StaleCopySaves({
      store,
      catalog,
      lexical,
      writes,
      lexicalSavedBelow: options.lexicalSavedBelow,
      coarseLists: () => this.coarseLists,
      failures,
      stopped,
    })
    const [first] = vectorBlocks
    if (first) this.createVectorIndex(first.dim, options.savedCoarseLists).addBlocks(vectorBlocks, this.conversationOf)
  }

  /** The dense index, once any vector exists. */
  get vectors(): VectorIndex | undefined {
    return this.vectorIndex
  }

  /** Every sentence up to this sid has its vector stored and indexed. */
  get embeddedThrough(): number {
    return this.backlog.embeddedThrough
  }

  /** Sentences still waiting for a vector. */
  get pending(): number {
    return this.backlog.pending
  }

  /** The latest failure of a background task, if any failed. */
  get lastFailure(): BackgroundFailure | undefined {
    return this.failures.last
  }

  /** Starts after open: trains the coarse lists if none were saved, arms the residual read, drains the backlog. */
  start(): void {
    this.coarseLists?.trainWhenDue()
    this.residuals.arm()
    this.backlog.inBackground()
    this.saves.schedule()
  }

  /** After `add` stored messages: embeds their sentences, and saves the lexical snapshot if it has gone stale. */
  messagesAdded(): void {
    this.backlog.inBackground()
    this.saves.schedule()
  }

  /**
   * After a request was answered: the residuals and saved coarse lists it did without are put in use right after
   * it, a turn later, so that the answer is sent first.
   */
  requestAnswered(): void {
    this.residuals.requestAnswered()
  }

  /**
   * After a forget's write deleted the saved lexical snapshot (it holds the forgotten words): nothing is saved of the
   * index any more, so it is written again once writes are quiet (worker/engine/forget-cascade.ts).
   */
  lexicalSnapshotDeleted(): void {
    this.saves.lexicalForgotten()
    this.saves.schedule()
  }

  /**
   * After a forget's write deleted the saved coarse lists (their centroids are means over the forgotten vectors too):
   * the lists in use are re-centred, and saved again once writes are quiet. Call `restoreSavedLists` before the
   * forget's write, so the saved lists are re-centred like the others.
   */
  coarseListsDeleted(): void {
    this.coarseLists?.forgotten()
    this.saves.schedule()
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
    await this.residuals.load()
    await this.backlog.drain()
    await this.coarseLists?.settled()
  }

  /**
   * Resolves when the work in flight or asked to start at once (residual read, drain, training, queued writes) has
   * ended, however it ended. Work armed for later (`RESIDUAL_DELAY_MS`, `SAVE_DELAY_MS`) is not waited for.
   */
  async settled(): Promise<void> {
    await this.abandonedWorkEnded()
    await this.writes.settled()
  }

  /**
   * After `abandon`: resolves when the work it left in flight has ended (residual read, the chunk being embedded, a
   * training slice), without waiting for the write queue, so a write in the queue (`clear`) may wait for it. An
   * abandoned drain or training queues no write.
   */
  async abandonedWorkEnded(): Promise<void> {
    await this.residuals.settled()
    await this.backlog.settled()
    await this.coarseLists?.settled()
  }

  /**
   * Stops the backlog after the chunk in flight, waits for the work in flight, then saves whatever saved copy is stale
   * (unless the database is no longer this engine's: `SiftStore.superseded`).
   */
  async stop(): Promise<void> {
    this.abandon()
    await this.settled()
    if (this.store.superseded) return
    await this.saves.saveDueNow()
  }

  /** Starts no more work, now: what is in flight ends on its own (its writes refused once the store is superseded). */
  abandon(): void {
    this.stopped = true
    this.saves.cancel()
    this.residuals.cancel()
    this.backlog.cancelRetry()
  }

  /** In the write queue, once the store kept a chunk's vectors: the first ones create the vector index. */
  private indexVectors(kept: StoredVectors, dim: number): void {
    const index = this.vectorIndex ?? this.createVectorIndex(dim)
    index.add(kept.sids, kept.vectors, this.conversationOf)
    this.coarseLists?.rowsAdded(kept.sids.length)
  }

  /** After a chunk was stored: training may be due, progress is reported, and an empty backlog lets saves follow. */
  private chunkStored(done: number): void {
    this.coarseLists?.trainWhenDue()
    this.report(done)
    if (this.backlog.pending === 0) this.saves.schedule()
  }

  private createVectorIndex(dim: number, savedCoarseLists?: SerializedCoarseLists): VectorIndex {
    const vectors = new VectorIndex(dim)
    this.vectorIndex = vectors
    const { store, writes } = this
    this.coarseLists = new CoarseListsUpkeep({
      vectors,
      store,
      writes,
      saved: savedCoarseLists,
      stopped: () => this.stopped,
      onFailure: (task, error) => this.failures.failed(task, error),
    })
    return vectors
  }

  private report(done: number, failure?: BackgroundFailure): void {
    const { pending } = this
    const progress: IndexProgress = { done, total: done + pending, pending, backend: this.embedder.backend }
    this.onProgress?.(failure ? { ...progress, failure } : progress)
  }
}
