import { quantizeQuery, quantizeRows } from './quantize-vector'
import { jsDotKernel, queryLimit, ROW_ALIGN, simdDotKernel, type DotKernel } from './simd-scan'
import { TopK } from './top-k'
import type { VectorBlock } from './vector-block'

/** A scored row of a search. */
export interface VectorHit {
  sid: number
  score: number
}

/** Every in-scope row's similarity to one query, unordered (the order of the index's rows). */
export interface DenseScores {
  count: number
  sids: Float64Array
  /** The dot product (cosine for normalised vectors), from the int8 codes. */
  raw: Float64Array
  /** `raw` lowered by the row's penalty (see `VectorIndex.scan`). */
  score: Float64Array
  /** Position in these arrays of a sid, or -1 when it has no vector in scope. */
  positionOf(sid: number): number
}

export interface VectorIndexOptions {
  /**
   * Use the WebAssembly SIMD kernel where the runtime validates it (default true). False forces the plain-JS
   * kernel, which gives the same integers about three times slower; tests use it to check the two agree.
   */
  simd?: boolean
}

/** WebAssembly memory grows in pages of this many bytes. */
const PAGE = 65536

/**
 * All sentence vectors as int8 rows (`quantizeRows`) in one contiguous memory, `stride` bytes apart (dim rounded up
 * to the SIMD width), so a query is a single sequential scan of a quarter of the float32 bytes, done by the
 * WebAssembly SIMD kernel. Rows are unordered: removal moves the last row into the hole.
 * Memory layout: rows from byte 0 (capacity × stride), then the int16 query, then one int32 dot per row.
 */
export class VectorIndex {
  readonly stride: number
  private readonly memory: WebAssembly.Memory | { buffer: ArrayBuffer }
  private readonly kernel: DotKernel
  private codes: Int8Array
  private scales: Float32Array
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
    for (const block of blocks) this.addCodes(block.sids, block.codes, block.scales, conversationOf)
  }

  /** Adds float vectors (`sids.length × dim`), quantised exactly as the store quantises them. */
  add(sids: readonly number[], vectors: Float32Array, conversationOf: (sid: number) => string | undefined): void {
    const codes = new Int8Array(sids.length * this.dim)
    const scales = new Float32Array(sids.length)
    quantizeRows(vectors, sids.length, this.dim, codes, this.dim, scales)
    this.addCodes(sids, codes, scales, conversationOf)
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
      positions[row] = i++
    }
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

  private addCodes(sids: ArrayLike<number>, codes: Int8Array, scales: Float32Array, conversationOf: (sid: number) => string | undefined): void {
    const { dim, stride } = this
    for (let i = 0; i < sids.length; i++) {
      const sid = sids[i]
      const conversationId = conversationOf(sid)
      if (conversationId === undefined || this.rowOf.has(sid)) continue
      this.ensureCapacity(this.rows + 1)
      const row = this.rows++
      this.codes.set(codes.subarray(i * dim, (i + 1) * dim), row * stride)
      this.scales[row] = scales[i]
      this.sids[row] = sid
      this.conversations[row] = this.conversationKey(conversationId)
      this.penalties[row] = NaN
      this.rowOf.set(sid, row)
    }
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
    this.scales = grown(this.scales, capacity)
    this.sids = grown(this.sids, capacity)
    this.conversations = grown(this.conversations, capacity)
    this.penalties = grown(this.penalties, capacity)
    this.capacity = capacity
  }
}

function grown<T extends Float32Array | Float64Array | Int32Array>(array: T, capacity: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(capacity)
  bigger.set(array)
  return bigger
}

function countEqual(values: Int32Array, length: number, value: number): number {
  let count = 0
  for (let i = 0; i < length; i++) if (values[i] === value) count++
  return count
}
