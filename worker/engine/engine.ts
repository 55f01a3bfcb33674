import { seededRandom } from '../util/seeded-random'
import { SiftError } from '../../src/errors'
import type { BuildContextOptions, Context, ForgetSelector, IndexProgress, MemoryOptions, MemoryStats, MessageInput, Sentence } from '../../src/types'
import { assembleContext } from '../context/assemble-context'
import { toContextRequest } from '../input/context-request'
import { Embedder } from '../embed/embedder'
import { DEFAULT_MODEL, modelFingerprint, resolveEmbedding } from '../embed/embedding-presets'
import type { EmbeddingCache, EngineHost } from '../hosts/engine-host'
import { toForgetSelector } from '../input/forget-selector'
import type { LexicalIndex } from '../index/lexical/lexical-index'
import { LEXICAL_SNAPSHOT_FORMAT, restoreLexicalIndex, snapshotIsStale } from '../index/lexical/lexical-snapshot'
import { toNewMessages } from '../input/message-input'
import type { RankingQuery } from '../rank/rank-candidates'
import { countAtMost, SentenceCatalog } from '../index/sentence-catalog'
import { SiftStore, type CoarseListsRecord, type IndexedDBSource, type StoreSnapshot } from '../store/store'
import { runSliced } from './run-sliced'
import { VectorIndex } from '../index/vector/vector-index'
import { WriteQueue } from './write-queue'

/**
 * Sentences taken from the backlog per round, embedded (in length-sorted batches, see `Embedder`) and stored in
 * one transaction. A larger chunk pads less and writes less often, but its vectors become searchable later and a
 * request waits longer for the model (about 1 s per 128 sentences on WASM).
 */
const BACKLOG_CHUNK = 128
/**
 * A backlog smaller than one model batch waits this long for more sentences first: while a batch runs, the
 * worker cannot take new `add`s, so a chat adding turns one by one would otherwise feed the model batches of one
 * or two sentences, which run at a third of the speed per sentence.
 */
const GATHER_MS = 40
const GATHER_BELOW = 32

/** Residuals (half the stored vector bytes) are read this long after open unless a request or `indexed()` comes first. */
const RESIDUAL_DELAY_MS = 1500

/** Quiet time after the last write before a stale lexical snapshot is saved, so a bulk import saves it once. */
const SNAPSHOT_DELAY_MS = 1000

/** Engine options as they cross to a host: everything in MemoryOptions except the callback, which the host passes separately. */
export type EngineOptions = Omit<MemoryOptions, 'onProgress'>

/**
 * The whole memory behind the `Memory` interface: store, embedding backlog, indexes and context building.
 * Runs in a Web Worker in browsers and in-process in Node; `EngineHost` carries the differences.
 */
export class Engine {
  private readonly writes = new WriteQueue()
  private vectors: VectorIndex | undefined
  private embeddedThrough: number
  private draining: Promise<void> | undefined
  /** Settles when the stored residuals are in the vector index (or failed to load: rows then rank by their codes); undefined until their read starts. */
  private residualsLoaded: Promise<void> | undefined
  private residualTimer: ReturnType<typeof setTimeout> | undefined
  private drainRequested = false
  /** Coarse lists read at open and not restored yet (`restoreSavedCoarseLists`); dense ranking scans every row until then. */
  private savedCoarseLists: CoarseListsRecord | undefined
  /** Coarse-list training running in the background (`trainCoarseListsInBackground`), if any. */
  private training: Promise<void> | undefined
  /** Rows filed under the coarse lists since they were last saved. */
  private coarseUnsaved = 0
  private closed = false
  private snapshotTimer: ReturnType<typeof setTimeout> | undefined

  private constructor(
    private readonly store: SiftStore,
    private readonly embedder: Embedder,
    private readonly catalog: SentenceCatalog,
    private lexical: LexicalIndex,
    private readonly model: string,
    private readonly cache: EmbeddingCache | undefined,
    private readonly onProgress: ((progress: IndexProgress) => void) | undefined,
    embeddedThrough: number,
    /** The stored lexical snapshot covers every sentence below this sid (0: there is none). */
    private snapshotCoveredBelow: number,
  ) {
    this.embeddedThrough = embeddedThrough
  }

  static async open(options: MemoryOptions, host: EngineHost): Promise<Engine> {
    const { name = 'sift', model = DEFAULT_MODEL, device = 'auto', onProgress } = options
    if (typeof name !== 'string' || name === '') throw new SiftError('INVALID_INPUT', `name must be a non-empty string (the IndexedDB database name), got ${String(name)}.`)
    if (!['auto', 'webgpu', 'wasm'].includes(device)) throw new SiftError('INVALID_INPUT', `device must be 'auto', 'webgpu' or 'wasm', got ${String(device)}.`)
    const embedding = resolveEmbedding(model, options.embedding)
    const fingerprint = modelFingerprint(model, embedding)
    // The store is read while the backend is chosen (a WebGPU adapter request can take hundreds of ms) and the model loads.
    // The catalog and the lexical index are rebuilt as soon as the texts are read, while the vectors are still read.
    let texts: { catalog: SentenceCatalog; lexical: ReturnType<typeof restoreLexicalIndex> } | undefined
    const reading = readStore(name, host.indexedDB, fingerprint, (messages, lexicalSnapshot) => {
      const catalog = new SentenceCatalog()
      catalog.add(messages)
      texts = { catalog, lexical: restoreLexicalIndex(lexicalSnapshot, catalog) }
    })
    reading.catch(() => undefined)
    let cache: EmbeddingCache | undefined
    let choice: Awaited<ReturnType<EngineHost['backends']>>
    try {
      cache = await host.openEmbeddingCache?.(fingerprint)
      choice = await host.backends(device)
    } catch (error) {
      reading.then(({ store }) => store.close(), () => undefined)
      throw error
    }
    const embedder = new Embedder({
      model,
      embedding,
      localModelPath: options.localModelPath ?? host.localModelPath,
      allowRemoteModels: !!options.allowRemoteModels,
      wasmPaths: host.wasmPaths,
      wasmThreads: host.wasmThreads,
      backends: choice.backends,
      backendReason: choice.reason,
      cache,
      startModel: host.startModel,
    })
    // The model loads while the store is read, so the first request does not wait for it after open.
    embedder.preload()
    try {
      const { store, snapshot } = await reading
      const { catalog, lexical } = texts!
      const engine = new Engine(store, embedder, catalog, lexical.index, model, cache, onProgress, snapshot.state.embeddedThrough, lexical.coveredBelow)
      const [first] = snapshot.blocks
      if (first) engine.vectorIndex(first.dim).addBlocks(snapshot.blocks, (sid) => catalog.get(sid)?.conversationId)
      // Restored with the residuals, after the first request: re-filing and re-laying out 100K rows takes ~100 ms.
      if (engine.vectors && snapshot.coarseLists) engine.savedCoarseLists = snapshot.coarseLists
      else engine.trainCoarseListsInBackground()
      // Not at once: the first request after open would share the thread with deserialising half the vector bytes.
      engine.residualTimer = setTimeout(() => engine.loadResiduals(), RESIDUAL_DELAY_MS)
      ;(engine.residualTimer as { unref?: () => void }).unref?.()
      engine.drainInBackground()
      engine.scheduleSnapshots()
      return engine
    } catch (error) {
      await embedder.dispose()
      throw error
    }
  }

  /** Stores the messages (one transaction, before any embedding) and resolves with their ids; embedding follows in the background. */
  async add(input: MessageInput | MessageInput[]): Promise<string[]> {
    this.assertOpen()
    const batch = toNewMessages(input, Date.now(), () => crypto.randomUUID())
    if (batch.length === 0) return []
    const { messages } = await this.writes.run(async () => {
      this.assertOpen()
      const stored = await this.store.addMessages(batch)
      this.catalog.add(stored.messages)
      this.lexical.add(stored.sentences)
      return stored
    })
    this.drainInBackground()
    this.scheduleSnapshots()
    return messages.map((m) => m.id)
  }

  /**
   * Resolves when every stored sentence has a vector and the vector index is complete (residuals loaded, coarse lists
   * trained when due); rejects with the embedding error if the backlog cannot drain.
   */
  async indexed(): Promise<void> {
    this.assertOpen()
    await this.loadResiduals()
    await this.drain()
    await this.training
    await this.cache?.flush()
  }

  async buildContext(request: string, options?: BuildContextOptions): Promise<Context> {
    this.assertOpen()
    const startedAt = performance.now()
    const parsed = toContextRequest(request, options)
    let queries: RankingQuery[] = parsed.queries.map((text) => ({ text }))
    if (parsed.strategy === 'dense' || parsed.strategy === 'hybrid') {
      const vectors = await this.embedder.embed(parsed.queries, 'query')
      const dim = this.embedder.dim!
      queries = parsed.queries.map((text, i) => ({ text, vector: vectors.subarray(i * dim, (i + 1) * dim) }))
    }
    const queryMs = performance.now() - startedAt
    this.assertOpen()
    const context = assembleContext(parsed, queries, { catalog: this.catalog, vectors: this.vectors, lexical: this.lexical }, {
      backend: this.embedder.backend,
      embeddedThrough: this.embeddedThrough,
      startedAt,
      queryMs,
    })
    if (!this.residualsLoaded) setTimeout(() => this.closed || this.loadResiduals(), 0)
    return context
  }

  /** Removes the selected messages from the store (one transaction) and from every index; resolves with how many were removed. */
  async forget(selector: ForgetSelector): Promise<number> {
    this.assertOpen()
    const parsed = toForgetSelector(selector)
    return this.writes.run(async () => {
      this.assertOpen()
      // Lists still waiting to be restored are restored first, then re-centred below like any others.
      this.restoreSavedCoarseLists()
      const { messageIds, sids } = await this.store.forget(parsed)
      this.catalog.remove(messageIds)
      this.lexical.remove(sids)
      this.vectors?.remove(sids)
      if (messageIds.length > 0) {
        this.snapshotCoveredBelow = 0
        // The store dropped the saved lists with the messages; these no longer hold anything of the forgotten vectors.
        this.vectors?.recentreCoarseLists()
        this.coarseUnsaved = this.vectors?.size ?? 0
        this.scheduleSnapshots()
      }
      return messageIds.length
    })
  }

  async stats(): Promise<MemoryStats> {
    this.assertOpen()
    const { messageCount: messages, sentenceCount: sentences } = this.catalog
    return {
      messages,
      sentences,
      pending: this.pending(),
      backend: this.embedder.backend,
      backendReason: this.embedder.backendReason,
      model: this.model,
      denseIndex: this.vectors?.denseIndex ?? { kind: 'exact' },
    }
  }

  /** Stops the backlog after the batch in flight, saves a stale lexical snapshot, persists the embedding cache and closes the database. Later calls reject with `CLOSED`. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    clearTimeout(this.snapshotTimer)
    clearTimeout(this.residualTimer)
    await this.residualsLoaded
    await this.draining?.catch(() => undefined)
    await this.training
    await this.writes.settled()
    if (snapshotIsStale(this.catalog, this.snapshotCoveredBelow)) await this.saveLexicalSnapshot().catch(() => undefined)
    if (this.coarseListsAreStale()) await this.saveCoarseLists().catch(() => undefined)
    await this.cache?.flush()
    await this.embedder.dispose()
    this.store.close()
  }

  private pending(): number {
    const { sids } = this.catalog.scope()
    return sids.length - countAtMost(sids, this.embeddedThrough)
  }

  private drainInBackground(): void {
    // A failure is kept by the rejected promise for indexed() to report; the next add or indexed() retries.
    this.drain().catch(() => undefined)
  }

  private drain(): Promise<void> {
    this.drainRequested = true
    this.draining ??= this.drainWhileRequested()
    return this.draining
  }

  private async drainWhileRequested(): Promise<void> {
    try {
      while (this.drainRequested && !this.closed) {
        this.drainRequested = false
        await this.drainBacklog()
      }
    } finally {
      this.draining = undefined
    }
  }

  /** Sentences added while a chunk is being embedded gather into the next chunk, so a busy chat gets bigger batches. */
  private async drainBacklog(): Promise<void> {
    let done = 0
    while (!this.closed) {
      let batch = this.backlogChunk()
      if (batch.length === 0) return
      if (batch.length < GATHER_BELOW) {
        await new Promise((resolve) => setTimeout(resolve, GATHER_MS))
        batch = this.backlogChunk()
      }
      const vectors = await this.embedder.embed(batch.map((s) => s.text), 'document')
      const dim = this.embedder.dim!
      await this.writes.run(async () => {
        if (this.closed) return
        const through = batch[batch.length - 1].sid
        const kept = await this.store.appendVectors(batch.map((s) => s.sid), vectors, dim, through)
        this.vectorIndex(dim).add(kept.sids, kept.vectors, (sid) => this.catalog.get(sid)?.conversationId)
        this.embeddedThrough = Math.max(this.embeddedThrough, through)
        this.coarseUnsaved += kept.sids.length
      })
      this.trainCoarseListsInBackground()
      done += batch.length
      const pending = this.pending()
      this.onProgress?.({ done, total: done + pending, pending, backend: this.embedder.backend })
      if (pending === 0) this.scheduleSnapshots()
    }
  }

  private backlogChunk(): Sentence[] {
    return this.catalog.sidsAbove(this.embeddedThrough, BACKLOG_CHUNK).map((sid) => this.catalog.get(sid)!)
  }

  /**
   * Saves the lexical snapshot and the coarse lists once writes have been quiet for a while, each if enough sentences
   * are missing from its saved copy.
   */
  private scheduleSnapshots(): void {
    clearTimeout(this.snapshotTimer)
    if (this.closed || (!snapshotIsStale(this.catalog, this.snapshotCoveredBelow) && !this.coarseListsAreStale())) return
    this.snapshotTimer = setTimeout(() => {
      if (this.closed) return
      // A failed save leaves the old copy in place (or none); open then indexes what it misses.
      if (snapshotIsStale(this.catalog, this.snapshotCoveredBelow)) this.writes.run(() => this.saveLexicalSnapshot()).catch(() => undefined)
      if (this.coarseListsAreStale()) this.writes.run(() => this.saveCoarseLists()).catch(() => undefined)
    }, SNAPSHOT_DELAY_MS)
    // In Node, a pending save must not keep the process alive.
    ;(this.snapshotTimer as { unref?: () => void }).unref?.()
  }

  /**
   * Run inside the write queue (or after it settled), so no forget can fall between serialising and storing.
   * `toSnapshot` compacts the index first, so no forgotten word is ever written to disk.
   */
  private async saveLexicalSnapshot(): Promise<void> {
    const nextSid = (this.catalog.scope().sids.at(-1) ?? 0) + 1
    await this.store.saveLexicalSnapshot({ format: LEXICAL_SNAPSHOT_FORMAT, nextSid, index: this.lexical.toSnapshot() })
    this.snapshotCoveredBelow = nextSid
  }

  /**
   * Trains the vector index's coarse lists when it asks for them (`VectorIndex.wantsCoarseLists`: from 20,000 rows,
   * and again each time the rows double), in slices between requests, then saves them. Dense ranking uses the exact
   * scan until they are ready.
   */
  private trainCoarseListsInBackground(): void {
    const { vectors } = this
    if (this.training || this.closed || this.savedCoarseLists || !vectors?.wantsCoarseLists()) return
    this.training = (async () => {
      try {
        // Seeded by the row count: the same history trains the same lists, so runs and benchmarks repeat.
        const finished = await runSliced(vectors.trainCoarseLists(seededRandom(vectors.size)), () => this.closed)
        if (finished && !this.closed) {
          this.coarseUnsaved = vectors.size
          await this.writes.run(() => this.saveCoarseLists())
        }
      } catch {
        // Lists are an accelerator: without them dense ranking scans every row. The next growth tries again.
      } finally {
        this.training = undefined
      }
    })()
  }

  private coarseListsAreStale(): boolean {
    const { vectors } = this
    if (!vectors?.hasCoarseLists) return false
    return this.coarseUnsaved > 0 && this.coarseUnsaved >= Math.max(500, 0.02 * vectors.size)
  }

  private async saveCoarseLists(): Promise<void> {
    const snapshot = this.vectors?.coarseSnapshot()
    if (!snapshot) return
    await this.store.saveCoarseLists(snapshot)
    this.coarseUnsaved = 0
  }

  /**
   * Reads the residuals (`SiftStore.residuals`) once: after the first request following open, after
   * `RESIDUAL_DELAY_MS`, or when `indexed()` asks, whichever comes first. Until they arrive the best rows are
   * re-scored from codes alone (recall of the exact top-50 0.9886 instead of 1.000 at 100K). The coarse lists read at
   * open are put in use at the same moment, so neither delays open or the first request.
   */
  private loadResiduals(): Promise<void> {
    clearTimeout(this.residualTimer)
    this.restoreSavedCoarseLists()
    this.residualsLoaded ??= this.store
      .residuals()
      .then((records) => {
        if (this.closed) return
        for (const record of records) this.vectors?.setResiduals(record.sids, record.residuals, record.residualScales)
      })
      .catch(() => undefined)
    return this.residualsLoaded
  }

  /** Puts the coarse lists read at open in use (once; then trains if the rows have doubled since they were trained). */
  private restoreSavedCoarseLists(): void {
    const saved = this.savedCoarseLists
    this.savedCoarseLists = undefined
    if (this.closed) return
    if (saved && this.vectors) {
      this.vectors.restoreCoarseLists(saved)
      this.coarseUnsaved = Math.max(0, this.vectors.size - saved.sids.length)
    }
    this.trainCoarseListsInBackground()
  }

  private vectorIndex(dim: number): VectorIndex {
    this.vectors ??= new VectorIndex(dim)
    return this.vectors
  }

  private assertOpen(): void {
    if (this.closed) throw new SiftError('CLOSED', 'This memory is closed; create a new one with createMemory().')
  }
}

/** Opens the store and reads what open needs; closes it again if the read fails. */
async function readStore(name: string, source: IndexedDBSource, fingerprint: string, onTexts: Parameters<SiftStore['snapshot']>[0]): Promise<{ store: SiftStore; snapshot: StoreSnapshot }> {
  const store = await SiftStore.open(name, source, fingerprint)
  try {
    return { store, snapshot: await store.snapshot(onTexts) }
  } catch (error) {
    store.close()
    throw error
  }
}
