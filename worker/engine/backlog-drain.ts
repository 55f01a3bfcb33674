import type { Sentence } from '../../src/types'
import type { Embedder } from '../embed/embedder'
import { countAbove, type SentenceCatalog } from '../index/sentence-catalog'
import { keptRows } from '../store/block-records'
import type { FailureRecord } from './background-failure'
import { backgroundTimer } from './background-timer'
import { BACKLOG_CHUNK, GATHER_BELOW, GATHER_MS, RETRY_FIRST_MS, RETRY_MAX_MS } from './background-tuning'
import type { EngineStore } from './open-parts'
import type { WriteQueue } from './write-queue'

/** The vectors of a chunk the store kept: those of its sentences not forgotten while they were embedded. */
export type StoredVectors = Awaited<ReturnType<EngineStore['appendVectors']>>

export interface BacklogDrainOptions {
  /** The sentences stored; the backlog is every one above `embeddedThrough`. */
  catalog: SentenceCatalog
  embedder: Embedder
  store: EngineStore
  /** The engine's write queue: every chunk is stored through it, in order with `add` and `forget`. */
  writes: WriteQueue
  /** Every sentence up to this sid has its vector stored. */
  embeddedThrough: number
  /** Where a failed embedding or vector write is recorded and reported. */
  failures: FailureRecord
  /** True once the engine stops: the drain ends after the chunk in flight and no retry is armed. */
  stopped: () => boolean
  /** In the write queue, right after the store kept a chunk's vectors: puts them in the vector index. */
  vectorsStored: (kept: StoredVectors, dim: number) => void
  /** After each chunk stored and indexed, with the sentences this drain has stored so far. */
  chunkStored: (done: number) => void
}

/**
 * The embedding backlog: drained chunk by chunk (`BACKLOG_CHUNK`) into the store and the vector index, one drain at
 * a time however many ask. A drain that fails is tried again on its own after `RETRY_FIRST_MS`, twice as long after
 * each further failure up to `RETRY_MAX_MS`, and after the first delay again once a drain succeeds.
 */
export class BacklogDrain {
  /** The options it keeps: not the starting watermark, which lives on in a field of its own. */
  private readonly options: Omit<BacklogDrainOptions, 'embeddedThrough'>
  private embeddedThroughSid: number
  private draining: Promise<void> | undefined
  /** Set by every `drain`, so sentences added while a chunk is embedded are taken by the same drain. */
  private drainRequested = false
  private retryTimer: ReturnType<typeof setTimeout> | undefined
  private retryDelayMs = RETRY_FIRST_MS

  constructor({ embeddedThrough, ...options }: BacklogDrainOptions) {
    this.options = options
    this.embeddedThroughSid = embeddedThrough
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

  /**
   * Drains without anyone waiting for the result. A failure is recorded as it happens and kept by the rejected
   * promise for `drain`'s callers to report; the next call tries again, and so does a retry armed here if none comes.
   */
  inBackground(): void {
    clearTimeout(this.retryTimer)
    this.drain().catch(() => undefined)
  }

  /** Resolves when the backlog is empty; rejects with the failure that stopped it. */
  drain(): Promise<void> {
    this.drainRequested = true
    this.draining ??= this.drainWhileRequested()
    return this.draining
  }

  /** Resolves when the drain in flight, if any, has ended, however it ended. */
  async settled(): Promise<void> {
    await this.draining?.catch(() => undefined)
  }

  /** Disarms the retry: call it when the engine stops. */
  cancelRetry(): void {
    clearTimeout(this.retryTimer)
  }

  private retryLater(): void {
    if (this.options.stopped()) return
    clearTimeout(this.retryTimer)
    this.retryTimer = backgroundTimer(() => this.inBackground(), this.retryDelayMs)
    this.retryDelayMs = Math.min(2 * this.retryDelayMs, RETRY_MAX_MS)
  }

  /** One drain, however many callers wait on it: so its success resets the retry delay and its failure arms one retry. */
  private async drainWhileRequested(): Promise<void> {
    try {
      while (this.drainRequested && !this.options.stopped()) {
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
    const { embedder, store, writes, failures, stopped } = this.options
    let done = 0
    while (!stopped()) {
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
        throw failures.failed('embed', error, done)
      }
      const dim = embedder.dim!
      if (stopped()) return
      try {
        await writes.run(async () => {
          if (stopped()) return
          const through = batch[batch.length - 1].sid
          // A sentence removed from its message while it was embedded is no longer in the catalog, though its message
          // still is: the store cannot tell (a sealed record's spans are sealed), so its row is left out here.
          const current = keptRows(
            batch.map((s) => s.sid),
            vectors,
            dim,
            batch.map((s) => this.options.catalog.get(s.sid) !== undefined),
          )
          const kept = await store.appendVectors(current.sids, current.vectors, dim, through)
          this.options.vectorsStored(kept, dim)
          this.embeddedThroughSid = Math.max(this.embeddedThroughSid, through)
          // Sentences forgotten while they were embedded: their forget could not drop from the cache what was not in it yet.
          const keptSids = new Set(kept.sids)
          await embedder.forgetCached(
            batch.filter((s) => !keptSids.has(s.sid)).map((s) => s.text),
            'document',
          )
        })
      } catch (error) {
        throw failures.failed('store-vectors', error, done)
      }
      done += batch.length
      this.options.chunkStored(done)
    }
  }

  private backlogChunk(): Sentence[] {
    const { catalog } = this.options
    return catalog.sidsAbove(this.embeddedThroughSid, BACKLOG_CHUNK).map((sid) => catalog.get(sid)!)
  }
}
