import { SiftError } from '../../src/errors'
import { requestEmbeddingError } from './model-failure'
import type { BuildContextOptions, Context, ForgetSelector, MemoryOptions, MemoryStats, MessageInput, OpenRepairs } from '../../src/types'
import { assembleContext } from '../context/assemble-context'
import type { Embedder } from '../embed/embedder'
import type { EmbeddingCache } from '../embed/embedding-cache'
import type { EngineHost } from '../hosts/engine-host'
import type { LexicalIndex } from '../index/lexical/lexical-index'
import type { SentenceCatalog } from '../index/sentence-catalog'
import { toContextRequest } from '../input/context-request'
import { toForgetSelector } from '../input/forget-selector'
import { toInputLimits, type InputLimits } from '../input/input-limits'
import { toValidMessages } from '../input/message-input'
import type { RankingQuery } from '../rank/rank-candidates'
import type { EngineStore } from './open-parts'
import { BackgroundIndexing } from './background-indexing'
import { openParts } from './open-parts'
import { WriteQueue } from './write-queue'

/** What an engine is made of; `Engine.open` reads and builds them. */
interface EngineParts {
  store: EngineStore
  embedder: Embedder
  /** The host's embedding cache, persisted by `indexed()` and `close()`. */
  cache: EmbeddingCache | undefined
  catalog: SentenceCatalog
  lexical: LexicalIndex
  /** The model id, as `stats().model` reports it. */
  model: string
  /** `MemoryOptions.strictRanking`: reject `hybrid`/`dense` requests the model cannot embed rather than rank them lexically. */
  strictRanking: boolean
  /** What open worked around in the database, for `stats().repairedAtOpen`. */
  repairedAtOpen: OpenRepairs | undefined
  /** The host's report of the origin's storage, for `stats().storage`. */
  storage: EngineHost['storage']
  /** The size limits `add` and `buildContext` enforce (`MemoryOptions.maxMessageChars`, `maxRequestChars`). */
  limits: InputLimits
  /** Runs the writes of `add`, `forget` and the background work one at a time. */
  writes: WriteQueue
  /** Drains the backlog into the vector index, loads the residuals, keeps the coarse lists and the saved copies. */
  background: BackgroundIndexing
}

/**
 * The whole memory behind the `Memory` interface: stores and forgets messages, answers requests from the indexes,
 * and leaves the embedding and upkeep of the indexes to `BackgroundIndexing`. Runs in a Web Worker in browsers and
 * in-process in Node; `EngineHost` carries the differences.
 */
export class Engine {
  /** The engine's background work: its vector index, its progress and its failures, for diagnostics and tests. */
  readonly background: BackgroundIndexing
  private readonly store: EngineStore
  private readonly embedder: Embedder
  private readonly cache: EmbeddingCache | undefined
  private readonly catalog: SentenceCatalog
  private readonly lexical: LexicalIndex
  private readonly model: string
  private readonly strictRanking: boolean
  private readonly repairedAtOpen: OpenRepairs | undefined
  private readonly storage: EngineHost['storage']
  private readonly writes: WriteQueue
  private readonly limits: InputLimits
  private closed = false

  // Field by field, not the parts object: what open passes also holds the open-time vector blocks, which must not
  // stay reachable from the engine.
  private constructor(parts: EngineParts) {
    this.store = parts.store
    this.embedder = parts.embedder
    this.cache = parts.cache
    this.catalog = parts.catalog
    this.lexical = parts.lexical
    this.model = parts.model
    this.strictRanking = parts.strictRanking
    this.repairedAtOpen = parts.repairedAtOpen
    this.storage = parts.storage
    this.writes = parts.writes
    this.limits = parts.limits
    this.background = parts.background
    // Another tab upgraded or deleted the database: nothing more is written, and every call says why.
    parts.store.onSuperseded = () => this.background.abandon()
  }

  /** Opens the memory `options` names through `host`, and starts its background work. */
  static async open(options: MemoryOptions, host: EngineHost): Promise<Engine> {
    const limits = toInputLimits(options)
    const parts = await openParts(options, host)
    try {
      const writes = new WriteQueue()
      const background = new BackgroundIndexing({ ...parts, writes, onProgress: options.onProgress })
      const engine = new Engine({ ...parts, writes, background, limits })
      background.start()
      return engine
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
    const { messages } = await this.writes.run(async () => {
      this.assertOpen()
      const stored = await this.store.addMessages(batch)
      this.catalog.add(stored.messages)
      this.lexical.add(stored.sentences)
      return stored
    })
    this.background.messagesAdded()
    return messages.map((m) => m.id)
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
    let queries: RankingQuery[] = parsed.queries.map((text) => ({ text }))
    let degraded: string | undefined
    if (parsed.strategy === 'dense' || parsed.strategy === 'hybrid') {
      try {
        const vectors = await this.embedder.embed(parsed.queries, 'query')
        const dim = this.embedder.dim!
        queries = parsed.queries.map((text, i) => ({ text, vector: vectors.subarray(i * dim, (i + 1) * dim) }))
      } catch (error) {
        // A chat must not lose its context because the model failed: the words still rank it.
        const failure = requestEmbeddingError(error)
        if (this.strictRanking) throw failure
        degraded = failure.message
      }
    }
    const queryMs = performance.now() - startedAt
    this.assertOpen()
    const { background } = this
    const context = assembleContext(parsed, queries, { catalog: this.catalog, vectors: background.vectors, lexical: this.lexical }, {
      backend: this.embedder.backend,
      embeddedThrough: background.embeddedThrough,
      startedAt,
      queryMs,
      degraded,
    })
    background.requestAnswered()
    return context
  }

  /** Removes the selected messages from the store (one transaction) and from every index; resolves with how many were removed. */
  async forget(selector: ForgetSelector): Promise<number> {
    this.assertOpen()
    const parsed = toForgetSelector(selector)
    return this.writes.run(async () => {
      this.assertOpen()
      // Lists still waiting to be restored are restored first, then re-centred like any others.
      this.background.restoreSavedLists()
      const forgotten = await this.store.forget(parsed)
      this.catalog.remove(forgotten.messageIds)
      this.lexical.remove(forgotten.sids)
      this.background.forgotten(forgotten)
      return forgotten.messageIds.length
    })
  }

  async stats(): Promise<MemoryStats> {
    this.assertOpen()
    const { messageCount: messages, sentenceCount: sentences } = this.catalog
    const { background } = this
    const stats: MemoryStats = {
      messages,
      sentences,
      pending: background.pending,
      backend: this.embedder.backend,
      backendReason: this.embedder.backendReason,
      model: this.model,
      denseIndex: background.vectors?.denseIndex ?? { kind: 'exact' },
    }
    const { lastFailure } = background
    const { repairedAtOpen } = this
    const storage = await this.storage?.()
    return { ...stats, ...(lastFailure && { lastFailure }), ...(repairedAtOpen && { repairedAtOpen }), ...(storage && { storage }) }
  }

  /** Stops the backlog after the batch in flight, saves stale index copies, persists the embedding cache and closes the database. Later calls reject with `CLOSED`. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.background.stop()
    await this.cache?.flush()
    await this.embedder.dispose()
    this.store.close()
  }

  private assertOpen(): void {
    if (this.closed) throw new SiftError('CLOSED', 'This memory is closed; create a new one with createMemory().')
    if (this.store.superseded) throw this.store.superseded
  }
}
