import { grownArray } from './grown-array'
import { quantizeQuery } from './quantize-vector'
import { jsDotKernel, queryLimit, ROW_ALIGN, simdDotKernel, type DotKernel } from './simd-scan'
import { TopK } from './top-k'
import { quantizeBlockRows, type VectorBlock } from './vector-block'

/** A scored row of a search. */
export interface VectorHit {
  sid: number
  score: number
}

/** Every in-scope row's similarity to one query, unordered (the order of the index's rows). */
export interface DenseScores {
  count: number
  sids: Float64Array
  /**
   * The dot product (cosine for normalised vectors): from the int8 codes, and for the `RESCORED_ROWS` most similar
   * rows re-computed from codes plus residuals against the float query, exact to about 10⁻⁵.
   */
  raw: Float64Array
  /** `raw` lowered by the row's penalty (see `VectorIndex.scan`). */
  score: Float64Array
  /** Position in these arrays of a sid, or -1 when it has no vector in scope. */
  positionOf(sid: number): number
}

export interface VectorIndexOptions {
  /**
   * Use the WebAssembly SIMD kernel where the runtime validates it (default true). False forces the plain-JS
   * kernel, which gives the same integers about 20 times slower (100K × 512 rows in Node 20: 2.2 ms vs 42 ms per
   * query); tests use it to check the two agree.
   */
  simd?: boolean
}

/**
 * Rows re-scored exactly (codes + residuals, float query) after the int8 scan, best int8 scores first. The int8
 * score is off by about 10⁻³, so the exact top-50 lies far inside the int8 top-512; the re-scoring costs about
 * 512 × dim × 2 multiply-adds per query (a whole scan of 512 rows of 512 dimensions, all re-scored, takes about
 * 0.6 ms in Node). Ranks below stay int8-approximate.
 */
export const RESCORED_ROWS = 512

/** WebAssembly memory grows in pages of this many bytes. */
const PAGE = 65536

/**
 * All sentence vectors as int8 rows (`quantizeRows`) in one contiguous memory, `stride` bytes apart (dim rounded up
 * to the SIMD width), so a query is a single sequential scan of a quarter of the float32 bytes, done by the
 * WebAssembly SIMD kernel; the best rows are then re-scored with each row's int8 residual (kept outside that memory,
 * read for a few hundred rows per query). Rows are unordered: removal moves the last row into the hole.
 * Memory layout: rows from byte 0 (capacity × stride), then the int16 query, then one int32 dot per row.
 */
export class VectorIndex {
  readonly stride: number
  private readonly memory: WebAssembly.Memory | { buffer: ArrayBuffer }
  private readonly kernel: DotKernel
  private codes: Int8Array
  private scales: Float32Array
  /** `capacity × dim` residual codes (zero for rows stored without them) and their scales. */
  private residuals: Int8Array
  private residualScales: Float32Array
  private sids: Float64Array
  private conversations: Int32Array
  /** Per row, the penalty `scan` was last given for its sentence (NaN until asked): computed once per sentence, not per query. */
  private penalties: Float64Array
  private capacity: number
  private rows = 0
  private readonly rowOf = new Map<number, number>()
  private readonly conversationKeys = new Map<string, number>()

  constructor(readonly dim: number, capacity = 1024, options: VectorIndexOptions = {}) {
    this.stride = Math.ceil(dim / ROW_ALIGN) * ROW_ALIGN
    this.capacity = capacity
    const bytes = this.bytesFor(capacity)
    const wasm = typeof WebAssembly !== 'undefined'
    this.memory = wasm ? new WebAssembly.Memory({ initial: Math.ceil(bytes / PAGE) }) : { buffer: new ArrayBuffer(bytes) }
    this.kernel = (options.simd !== false && this.memory instanceof WebAssembly.Memory ? simdDotKernel(this.memory) : undefined) ?? jsDotKernel(this.memory)
    this.codes = new Int8Array(this.memory.buffer, 0, capacity * this.stride)
    this.scales = new Float32Array(capacity)
    this.residuals = new Int8Array(capacity * dim)
    this.residualScales = new Float32Array(capacity)
    this.sids = new Float64Array(capacity)
    this.conversations = new Int32Array(capacity)
    this.penalties = new Float64Array(capacity)
  }

  get size(): number {
    return this.rows
  }

  has(sid: number): boolean {
    return this.rowOf.has(sid)
  }

  /** Adds stored blocks; `conversationOf` tells each sid's conversation (rows whose sentence is unknown are skipped). */
  addBlocks(blocks: readonly VectorBlock[], conversationOf: (sid: number) => string | undefined): void {
    let total = this.rows
    for (const block of blocks) total += block.sids.length
    this.ensureCapacity(total)
    for (const block of blocks) this.addCodes(block.sids, block, conversationOf)
  }

  /**
   * Gives rows their residual layer, loaded after the codes (sids without a row, e.g. forgotten meanwhile, are
   * skipped). Until then a row is re-scored from its codes alone.
   */
  setResiduals(sids: ArrayLike<number>, residuals: Int8Array, residualScales: Float32Array): void {
    const { dim } = this
    for (let i = 0; i < sids.length; i++) {
      const row = this.rowOf.get(sids[i])
      if (row === undefined) continue
      this.residuals.set(residuals.subarray(i * dim, (i + 1) * dim), row * dim)
      this.residualScales[row] = residualScales[i]
    }
  }

  /** Adds float vectors (`sids.length × dim`), quantised by the store's own `quantizeBlockRows`. */
  add(sids: readonly number[], vectors: Float32Array, conversationOf: (sid: number) => string | undefined): void {
    this.addCodes(sids, quantizeBlockRows(vectors, sids.length, this.dim), conversationOf)
  }

  remove(sids: Iterable<number>): void {
    const { stride } = this
    for (const sid of sids) {
      const row = this.rowOf.get(sid)
      if (row === undefined) continue
      this.rowOf.delete(sid)
      const last = --this.rows
      if (row !== last) {
        this.codes.copyWithin(row * stride, last * stride, (last + 1) * stride)
        this.scales[row] = this.scales[last]
        this.residuals.copyWithin(row * this.dim, last * this.dim, (last + 1) * this.dim)
        this.residualScales[row] = this.residualScales[last]
        this.sids[row] = this.sids[last]
        this.conversations[row] = this.conversations[last]
        this.penalties[row] = this.penalties[last]
        this.rowOf.set(this.sids[row], row)
      }
    }
  }

  /**
   * Scores every row in scope against `query`: one integer SIMD scan (int8 rows × int16 query), then
   * `score = raw > 0 ? max(0, raw − penalty) : raw`, the rule of `penaliseShortSentences` (a penalty makes a sentence
   * less similar, never more dissimilar than an unrelated one). `penaltyOf` must depend on the sentence only.
   * The `RESCORED_ROWS` best by raw similarity are then re-scored exactly (`rescoreBest`).
   */
  scan(query: Float32Array, filter?: { conversationId?: string }, penaltyOf?: (sid: number) => number): DenseScores {
    const { rows, stride, sids, conversations, scales, penalties } = this
    let only = -1
    if (filter?.conversationId !== undefined) only = this.conversationKeys.get(filter.conversationId) ?? -2
    const queryAt = this.capacity * stride
    const dotsAt = queryAt + stride * 2
    const q = new Int16Array(this.memory.buffer, queryAt, stride)
    const queryScale = quantizeQuery(query.subarray(0, this.dim), queryLimit(stride), q)
    if (only !== -2 && rows > 0) this.kernel(0, rows, stride, queryAt, dotsAt)
    const dots = new Int32Array(this.memory.buffer, dotsAt, rows)
    const count = only === -2 ? 0 : only === -1 ? rows : countEqual(conversations, rows, only)
    const out = { sids: new Float64Array(count), raw: new Float64Array(count), score: new Float64Array(count) }
    const positions = new Int32Array(only === -2 ? 0 : rows)
    const rowAt = new Int32Array(count)
    for (let row = 0, i = 0; row < rows && only !== -2; row++) {
      if (only >= 0 && conversations[row] !== only) {
        positions[row] = -1
        continue
      }
      const sid = sids[row]
      let penalty = 0
      if (penaltyOf) {
        penalty = penalties[row]
        if (Number.isNaN(penalty)) penalties[row] = penalty = penaltyOf(sid)
      }
      const raw = dots[row] * scales[row] * queryScale
      out.sids[i] = sid
      out.raw[i] = raw
      out.score[i] = raw > 0 ? Math.max(0, raw - penalty) : raw
      rowAt[i] = row
      positions[row] = i++
    }
    this.rescoreBest(query, count, rowAt, out, penaltyOf !== undefined)
    const { rowOf } = this
    return { count, ...out, positionOf: (sid) => positions[rowOf.get(sid) ?? -1] ?? -1 }
  }

  /** The k rows with the highest dot product with `query` (cosine for normalised vectors), best first; optionally only one conversation's. */
  search(query: Float32Array, k: number, filter?: { conversationId?: string }): VectorHit[] {
    const { count, sids, raw } = this.scan(query, filter)
    const top = new TopK(Math.min(k, count))
    for (let i = 0; i < count; i++) if (raw[i] >= top.threshold) top.offer(raw[i], sids[i])
    return top.sorted()
  }

  /**
   * Replaces raw and score of the `RESCORED_ROWS` entries of highest raw similarity by their value from codes plus
   * residuals against the float query, summed in float64 (the int8 pass rounds the query to int16 and ignores the
   * residual). Chosen by raw, not penalised, similarity so the set does not depend on penalties: a search and a
   * penalised scan agree on every raw value. A penalty only lowers a score, so the penalised top-50 lies in this set
   * unless hundreds of penalised sentences outrank it in raw similarity (and then its int8 score is still within ~10⁻³).
   */
  private rescoreBest(query: Float32Array, count: number, rowAt: Int32Array, out: { raw: Float64Array; score: Float64Array }, penalised: boolean): void {
    const { dim, stride, codes, scales, residuals, residualScales, penalties } = this
    const best = new TopK(Math.min(RESCORED_ROWS, count))
    for (let i = 0; i < count; i++) if (out.raw[i] >= best.threshold) best.offer(out.raw[i], i)
    for (const { sid: i } of best.sorted()) {
      const row = rowAt[i]
      let first = 0
      let second = 0
      for (let d = 0, c = row * stride, r = row * dim; d < dim; d++) {
        first += codes[c + d] * query[d]
        second += residuals[r + d] * query[d]
      }
      const raw = first * scales[row] + second * residualScales[row]
      const penalty = penalised ? penalties[row] : 0
      out.raw[i] = raw
      out.score[i] = raw > 0 ? Math.max(0, raw - penalty) : raw
    }
  }

  private addCodes(sids: ArrayLike<number>, layers: Pick<VectorBlock, 'codes' | 'scales' | 'residuals' | 'residualScales'>, conversationOf: (sid: number) => string | undefined): void {
    const { dim, stride } = this
    const { codes, scales, residuals, residualScales } = layers
    const count = sids.length
    const keys = new Int32Array(count)
    let all = true
    for (let i = 0; i < count; i++) {
      const conversationId = conversationOf(sids[i])
      keys[i] = conversationId === undefined || this.rowOf.has(sids[i]) ? -1 : this.conversationKey(conversationId)
      if (keys[i] < 0) all = false
    }
    const start = this.rows
    this.ensureCapacity(start + count)
    // A block whose rows all load goes in with one copy per layer, not a view per row.
    const bulk = all && stride === dim
    if (bulk) this.codes.set(codes.subarray(0, count * dim), start * stride)
    if (all && residuals) this.residuals.set(residuals.subarray(0, count * dim), start * dim)
    for (let i = 0; i < count; i++) {
      if (keys[i] < 0) continue
      const row = this.rows++
      if (!bulk) this.codes.set(codes.subarray(i * dim, (i + 1) * dim), row * stride)
      if (!all && residuals) this.residuals.set(residuals.subarray(i * dim, (i + 1) * dim), row * dim)
      this.scales[row] = scales[i]
      this.residualScales[row] = residualScales?.[i] ?? 0
      this.sids[row] = sids[i]
      this.conversations[row] = keys[i]
      this.penalties[row] = NaN
      this.rowOf.set(sids[i], row)
    }
    if (!residuals) this.residuals.fill(0, start * dim, this.rows * dim)
  }

  private conversationKey(conversationId: string): number {
    let key = this.conversationKeys.get(conversationId)
    if (key === undefined) {
      key = this.conversationKeys.size
      this.conversationKeys.set(conversationId, key)
    }
    return key
  }

  /** Bytes of memory for `capacity` rows: the rows, the query, the dots. */
  private bytesFor(capacity: number): number {
    return capacity * (this.stride + 4) + this.stride * 2
  }

  private ensureCapacity(rows: number): void {
    if (rows <= this.capacity) return
    const capacity = Math.max(rows, this.capacity * 2)
    const bytes = this.bytesFor(capacity)
    if (this.memory instanceof WebAssembly.Memory) {
      const missing = bytes - this.memory.buffer.byteLength
      if (missing > 0) this.memory.grow(Math.ceil(missing / PAGE))
    } else {
      const buffer = new ArrayBuffer(bytes)
      new Int8Array(buffer).set(new Int8Array(this.memory.buffer, 0, this.rows * this.stride))
      // Replaced in place: the JS kernel holds this object.
      this.memory.buffer = buffer
    }
    this.codes = new Int8Array(this.memory.buffer, 0, capacity * this.stride)
    this.scales = grownArray(this.scales, capacity)
    this.residuals = grownArray(this.residuals, capacity * this.dim)
    this.residualScales = grownArray(this.residualScales, capacity)
    this.sids = grownArray(this.sids, capacity)
    this.conversations = grownArray(this.conversations, capacity)
    this.penalties = grownArray(this.penalties, capacity)
    this.capacity = capacity
  }
}

function countEqual(values: Int32Array, length: number, value: number): number {
  let count = 0
  for (let i = 0; i < length; i++) if (values[i] === value) count++
  return count
}
