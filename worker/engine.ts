import { SiftError } from '../src/errors'
import type { BuildContextOptions, Context, ForgetSelector, IndexProgress, MemoryOptions, MemoryStats, MessageInput } from '../src/types'
import { assembleContext } from './assemble-context'
import { toContextRequest } from './context-request'
import { Embedder } from './embedder'
import { DEFAULT_MODEL, modelFingerprint, resolveEmbedding } from './embedding-presets'
import type { EmbeddingCache, EngineHost } from './engine-host'
import { toForgetSelector } from './forget-selector'
import { LexicalIndex } from './lexical-index'
import { toNewMessages } from './message-input'
import type { RankingQuery } from './rank-candidates'
import { SentenceCatalog } from './sentence-catalog'
import { SiftStore } from './store'
import { VectorIndex } from './vector-index'
import { WriteQueue } from './write-queue'

/** Sentences embedded per model call while draining the backlog: larger batches run faster per sentence but delay progress events and pad more. */
const BACKLOG_BATCH = 32

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
  private drainRequested = false
  private closed = false

  private constructor(
    private readonly store: SiftStore,
    private readonly embedder: Embedder,
    private readonly catalog: SentenceCatalog,
    private readonly lexical: LexicalIndex,
    private readonly model: string,
    private readonly cache: EmbeddingCache | undefined,
    private readonly onProgress: ((progress: IndexProgress) => void) | undefined,
    embeddedThrough: number,
  ) {
    this.embeddedThrough = embeddedThrough
  }

  static async open(options: MemoryOptions, host: EngineHost): Promise<Engine> {
    const { name = 'sift', model = DEFAULT_MODEL, device = 'auto', onProgress } = options
    if (typeof name !== 'string' || name === '') throw new SiftError('INVALID_INPUT', `name must be a non-empty string (the IndexedDB database name), got ${String(name)}.`)
    if (!['auto', 'webgpu', 'wasm'].includes(device)) throw new SiftError('INVALID_INPUT', `device must be 'auto', 'webgpu' or 'wasm', got ${String(device)}.`)
    const embedding = resolveEmbedding(model, options.embedding)
    const fingerprint = modelFingerprint(model, embedding)
    const cache = await host.openEmbeddingCache?.(fingerprint)
    const embedder = new Embedder({
      model,
      embedding,
      localModelPath: options.localModelPath ?? host.localModelPath,
      allowRemoteModels: !!options.allowRemoteModels,
      wasmPaths: host.wasmPaths,
      backends: await host.backends(device),
      cache,
    })
    const store = await SiftStore.open(name, host.indexedDB, fingerprint)
    const snapshot = await store.snapshot()
    const catalog = new SentenceCatalog()
    catalog.add(snapshot.messages, snapshot.sentences.sort((a, b) => a.sid - b.sid))
    const lexical = new LexicalIndex()
    lexical.add(snapshot.sentences)
    const engine = new Engine(store, embedder, catalog, lexical, model, cache, onProgress, snapshot.state.embeddedThrough)
    const [first] = snapshot.blocks
    if (first) engine.vectorIndex(first.dim).addBlocks(snapshot.blocks, (sid) => catalog.get(sid)?.conversationId)
    engine.drainInBackground()
    return engine
  }

  /** Stores the messages (one transaction, before any embedding) and resolves with their ids; embedding follows in the background. */
  async add(input: MessageInput | MessageInput[]): Promise<string[]> {
    this.assertOpen()
    const batch = toNewMessages(input, Date.now(), () => crypto.randomUUID())
    if (batch.length === 0) return []
    const { messages } = await this.writes.run(async () => {
      this.assertOpen()
      const stored = await this.store.addMessages(batch)
      this.catalog.add(stored.messages, stored.sentences)
      this.lexical.add(stored.sentences)
      return stored
    })
    this.drainInBackground()
    return messages.map((m) => m.id)
  }

  /** Resolves when every stored sentence has a vector; rejects with the embedding error if the backlog cannot drain. */
  async indexed(): Promise<void> {
    this.assertOpen()
    await this.drain()
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
    return assembleContext(parsed, queries, { catalog: this.catalog, vectors: this.vectors, lexical: this.lexical }, {
      backend: this.embedder.backend,
      embeddedThrough: this.embeddedThrough,
      startedAt,
      queryMs,
    })
  }

  /** Removes the selected messages from the store (one transaction) and from every index; resolves with how many were removed. */
  async forget(selector: ForgetSelector): Promise<number> {
    this.assertOpen()
    const parsed = toForgetSelector(selector)
    return this.writes.run(async () => {
      this.assertOpen()
      const { messageIds, sids } = await this.store.forget(parsed)
      this.catalog.remove(messageIds)
      this.lexical.remove(sids)
      this.vectors?.remove(sids)
      return messageIds.length
    })
  }

  async stats(): Promise<MemoryStats> {
    this.assertOpen()
    return { messages: this.catalog.messageCount, sentences: this.catalog.sentenceCount, pending: this.pending(), backend: this.embedder.backend, model: this.model }
  }

  /** Stops the backlog after the batch in flight, persists the embedding cache and closes the database. Later calls reject with `CLOSED`. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.draining?.catch(() => undefined)
    await this.writes.settled()
    await this.cache?.flush()
    await this.embedder.dispose()
    this.store.close()
  }

  private pending(): number {
    const { sids } = this.catalog.scope()
    let count = 0
    for (let i = sids.length - 1; i >= 0 && sids[i] > this.embeddedThrough; i--) count++
    return count
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

  private async drainBacklog(): Promise<void> {
    let done = 0
    while (!this.closed) {
      const batch = await this.store.pendingSentences(BACKLOG_BATCH)
      if (batch.length === 0) return
      const vectors = await this.embedder.embed(batch.map((s) => s.text), 'document')
      const dim = this.embedder.dim!
      await this.writes.run(async () => {
        if (this.closed) return
        const through = batch[batch.length - 1].sid
        const kept = await this.store.appendVectors(batch.map((s) => s.sid), vectors, dim, through)
        this.vectorIndex(dim).add(kept.sids, kept.vectors, (sid) => this.catalog.get(sid)?.conversationId)
        this.embeddedThrough = Math.max(this.embeddedThrough, through)
      })
      done += batch.length
      const pending = this.pending()
      this.onProgress?.({ done, total: done + pending, pending, backend: this.embedder.backend })
    }
  }

  private vectorIndex(dim: number): VectorIndex {
    this.vectors ??= new VectorIndex(dim)
    return this.vectors
  }

  private assertOpen(): void {
    if (this.closed) throw new SiftError('CLOSED', 'This memory is closed; create a new one with createMemory().')
  }
}
