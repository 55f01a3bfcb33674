import type { MemoryStats } from '../../../src/types'
import type { ScoredSid } from '../scored-sid'
import { CoarseListLifecycle, type SerializedCoarseLists } from './coarse-list-lifecycle'
import { quantizeVectors, type QuantizedVectors } from './quantize-vector'
import { VectorRows, type SentenceVectors } from './vector-rows'
import { RESCORE_ROOM, scanRows, searchRows, type DenseScores, type ProbedScores } from './vector-scoring'

export { COARSE_MIN_ROWS } from './coarse-list-tuning'
export type { SerializedCoarseLists } from './coarse-list-lifecycle'
export type { DenseScores, ProbedScores } from './vector-scoring'

/** How a `VectorIndex` computes its dot products. */
export interface VectorIndexOptions {
  /**
   * Use the WebAssembly SIMD kernel where the runtime validates it (default true). False forces the plain-JS
   * kernel, which gives the same integers many times slower (BENCHMARKS.md); tests use it to check the two agree.
   */
  simd?: boolean
}

/**
 * All sentence vectors as int8 rows (`VectorRows`) in one contiguous memory, so a query is a single sequential scan
 * done by the WebAssembly SIMD kernel; the best rows are then re-scored with each row's int8 residual, read for those
 * rows only by the gather kernel (`scanRows`). From `COARSE_MIN_ROWS` rows on, coarse lists (`CoarseListLifecycle`)
 * let a probe scan only the rows nearest a query.
 */
export class VectorIndex {
  private readonly rows: VectorRows
  private readonly coarseLists: CoarseListLifecycle

  /** `capacity`: rows to make room for at first; the room doubles whenever rows outgrow it. */
  constructor(
    readonly dim: number,
    capacity = 1024,
    options: VectorIndexOptions = {},
  ) {
    this.rows = new VectorRows(dim, capacity, { simd: options.simd, rescoreRoom: RESCORE_ROOM })
    this.coarseLists = new CoarseListLifecycle(this.rows)
  }

  /** Rows held (sentences with a vector). */
  get size(): number {
    return this.rows.count
  }

  /** Whether `sid` has a row. */
  has(sid: number): boolean {
    return this.rows.rowOf(sid) !== undefined
  }

  /** The vector of `sid`'s row as stored (codes plus residuals, so close to unit length); undefined when it has none. */
  vectorOf(sid: number): Float32Array | undefined {
    const row = this.rows.rowOf(sid)
    return row === undefined ? undefined : this.rows.rowVector(row, new Float32Array(this.dim))
  }

  /**
   * Adds stored blocks of rows (any record that holds `SentenceVectors`, such as the store's vector blocks);
   * `conversationOf` tells each sid's conversation (rows whose sentence is unknown are skipped).
   */
  addBlocks<Block extends SentenceVectors>(
    blocks: readonly Block[],
    conversationOf: (sid: number) => string | undefined,
  ): void {
    let total = this.rows.count
    for (const block of blocks) total += block.sids.length
    this.rows.reserve(total)
    for (const block of blocks) this.addQuantized(block.sids, block, conversationOf)
  }

  /** Adds float vectors (`sids.length × dim`), quantised as the store quantises them (`quantizeVectors`). */
  add(sids: readonly number[], vectors: Float32Array, conversationOf: (sid: number) => string | undefined): void {
    this.addQuantized(sids, quantizeVectors(vectors, sids.length, this.dim), conversationOf)
  }

  /** Drops the rows of `sids` (sids without one are skipped); the coarse lists drop them too. */
  remove(sids: Iterable<number>): void {
    for (const sid of sids) {
      const removal = this.rows.remove(sid)
      if (removal) this.coarseLists.rowRemoved(removal)
    }
  }

  /**
   * Gives rows their residual layer, loaded after the codes (sids without a row, e.g. forgotten meanwhile, are
   * skipped). Until then a row is re-scored from its codes alone.
   */
  setResiduals(sids: ArrayLike<number>, residuals: Int8Array, residualScales: Float32Array): void {
    this.rows.setResiduals(sids, residuals, residualScales)
  }

  /**
   * Scores every row in scope against `query` (`scanRows`): raw similarity, and the score lowered by the sentence's
   * penalty. `penaltyOf` must depend on the sentence only: it is asked once per sentence.
   */
  scan(query: Float32Array, filter?: { conversationId?: string }, penaltyOf?: (sid: number) => number): DenseScores {
    return scanRows(this.rows, query, filter, penaltyOf)
  }

  /** The k rows with the highest dot product with `query` (cosine for normalised vectors), best first; optionally only one conversation's. */
  search(query: Float32Array, k: number, filter?: { conversationId?: string }): ScoredSid[] {
    return searchRows(this.rows, query, k, filter)
  }

  /**
   * The best rows for `query` from the coarse lists nearest it (`probeRows`), taken until they hold the calibrated
   * share of all rows. Approximate: a row filed under a list the probe did not reach is missed. Undefined when there
   * are no trained lists, or while some row is not filed yet.
   */
  probe(query: Float32Array, penaltyOf?: (sid: number) => number): ProbedScores | undefined {
    return this.coarseLists.probe(query, penaltyOf)
  }

  /** Whether coarse lists are in use (trained or restored), whether or not `probe` uses them. */
  get hasCoarseLists(): boolean {
    return this.coarseLists.inUse
  }

  /** What `dense` ranking uses (`MemoryStats.denseIndex`). */
  get denseIndex(): MemoryStats['denseIndex'] {
    return this.coarseLists.denseIndex
  }

  /** Whether coarse lists should be trained now: enough rows, and none yet or the rows have doubled since. */
  wantsCoarseLists(): boolean {
    return this.coarseLists.wanted
  }

  /**
   * Trains coarse lists on a random sample of the rows, files every row under its nearest list, then puts the new
   * lists in use (`CoarseListLifecycle.train`). A generator yielding every few milliseconds; rows added or removed
   * meanwhile are filed or dropped as they come. Throws when lists are being trained already (`wantsCoarseLists` is
   * false then).
   */
  trainCoarseLists(random: () => number): Generator<void, void> {
    return this.coarseLists.train(random)
  }

  /**
   * Makes each centroid of the lists in use the mean direction of the rows now filed under it, keeping every row in
   * its list: after a forget, no centroid keeps a trace of the removed vectors.
   */
  recentreCoarseLists(): void {
    this.coarseLists.recentre()
  }

  /** The lists in use, to store; undefined when there are none. */
  serializeCoarseLists(): SerializedCoarseLists | undefined {
    return this.coarseLists.serialize()
  }

  /**
   * Puts stored lists in use: each row goes under its stored list, a row they do not know under its nearest.
   * Ignored when the dimension differs. Call after the rows are in.
   */
  restoreCoarseLists(serialized: SerializedCoarseLists): void {
    this.coarseLists.restore(serialized)
  }

  private addQuantized(
    sids: ArrayLike<number>,
    vectors: QuantizedVectors,
    conversationOf: (sid: number) => string | undefined,
  ): void {
    this.coarseLists.rowsAdded(this.rows.add(sids, vectors, conversationOf))
  }
}
