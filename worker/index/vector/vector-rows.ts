import { grownArray } from '../../util/grown-array'
import { Interner } from '../../util/interner'
import { dotKernels, growKernelMemory, kernelMemory, type KernelMemory } from './kernel-memory'
import type { QuantizedVectors } from './quantize-vector'
import { ROW_ALIGN, type DotKernels } from './simd-scan'

/** Sentence vectors in the int8 codec, one row per sid (a stored vector block is one). */
export interface SentenceVectors extends QuantizedVectors {
  sids: ArrayLike<number>
}

/** Byte offsets of the regions of a `VectorRows` memory at one capacity. */
export interface RowsLayout {
  /** The residual codes (capacity × stride), right after the codes (capacity × stride, at 0). */
  residualsAt: number
  /** The int16 query the kernels read (stride values). */
  queryAt: number
  /** One int32 dot per row. */
  dotsAt: number
  /** A list of row numbers for the gather kernel (one int32 per row). */
  listAt: number
  /** Room to re-score `rescoreRoom` rows: their row numbers, then their dots with the codes, then with the residuals. */
  rescoreAt: number
  rescoreCodeDotsAt: number
  rescoreResidualDotsAt: number
  end: number
}

/** Where a removal left its hole: `row` now holds what was in `movedFrom`, the former last row (or nothing when `row` was the last). */
export interface RowRemoval {
  row: number
  movedFrom: number
}

/** One row's data held aside while `permute` moves rows along a cycle. */
interface RowCopy {
  codes: Int8Array
  residuals: Int8Array
  scale: number
  residualScale: number
  sid: number
  conversation: number
  penalty: number
}

export interface VectorRowsOptions {
  /** Use the WebAssembly SIMD kernels where the runtime validates them (false: the plain-JS ones, same integers). */
  simd?: boolean
  /** Rows the re-scoring scratch region holds. */
  rescoreRoom: number
}

/**
 * The vector index's rows: each sentence vector as int8 codes plus an int8 residual (`quantize-vector.ts`) in one
 * WebAssembly memory, `stride` bytes apart (dim rounded up to the SIMD width), so a query is a single sequential scan
 * of a quarter of the float32 bytes; beside them, by row, the scales, sids, conversation numbers and the penalty
 * memo. Rows are unordered: removal moves the last row into the hole, and `permute` reorders them.
 *
 * The columns (`scales`, `sids`, …) are valid for rows below `count` and are replaced when the capacity grows: read
 * them afresh after an add. Only this class writes them.
 */
export class VectorRows {
  /** Bytes from one row's codes to the next: `dim` rounded up to the SIMD width. */
  readonly stride: number
  /** The codes, residuals and scratch regions (`layout`). */
  readonly memory: KernelMemory
  /** The dot kernels over `memory`. */
  readonly kernels: DotKernels
  /** Rows the re-scoring scratch region holds. */
  readonly rescoreRoom: number
  /** Scales of the codes: value ≈ code × scale. */
  scales: Float32Array
  /** Scales of the residual codes (0 for rows stored without them). */
  residualScales: Float32Array
  /** The sid of each row. */
  sids: Float64Array
  /** Conversation numbers (`conversationNumber`). */
  conversations: Int32Array
  private codes: Int8Array
  /** Residual codes, row r at `r × stride` (zero for rows stored without them). */
  private residuals: Int8Array
  /** Per row, the penalty last asked for its sentence (NaN until asked): computed once per sentence, not per query. */
  private penalties: Float64Array
  private capacity: number
  private rows = 0
  private readonly rowOfSid = new Map<number, number>()
  /** A conversation's id is let go with its last row (`rowsIn`), so a forgotten conversation leaves no trace here. */
  private readonly conversationNumbers = new Interner()
  private readonly rowsIn: number[] = []

  constructor(
    readonly dim: number,
    capacity: number,
    options: VectorRowsOptions,
  ) {
    this.stride = Math.ceil(dim / ROW_ALIGN) * ROW_ALIGN
    this.rescoreRoom = options.rescoreRoom
    this.capacity = capacity
    this.memory = kernelMemory(this.layout(capacity).end)
    this.kernels = dotKernels(this.memory, options.simd !== false)
    this.codes = new Int8Array(this.memory.buffer, 0, capacity * this.stride)
    this.residuals = new Int8Array(this.memory.buffer, capacity * this.stride, capacity * this.stride)
    this.scales = new Float32Array(capacity)
    this.residualScales = new Float32Array(capacity)
    this.sids = new Float64Array(capacity)
    this.conversations = new Int32Array(capacity)
    this.penalties = new Float64Array(capacity)
  }

  /** Rows held. */
  get count(): number {
    return this.rows
  }

  /** The row holding `sid`, if any. */
  rowOf(sid: number): number | undefined {
    return this.rowOfSid.get(sid)
  }

  /** The number rows of this conversation carry in `conversations`; undefined when no row ever had it. */
  conversationNumber(conversationId: string): number | undefined {
    return this.conversationNumbers.numberOf(conversationId)
  }

  /**
   * Appends the rows of `vectors` whose sentence is known (`conversationOf` gives its conversation) and not held
   * yet. Returns the first new row: the new rows are it up to `count`.
   */
  add(sids: ArrayLike<number>, vectors: QuantizedVectors, conversationOf: (sid: number) => string | undefined): number {
    const { dim, stride } = this
    const { codes, scales, residuals, residualScales } = vectors
    const count = sids.length
    const numbers = new Int32Array(count)
    let all = true
    for (let i = 0; i < count; i++) {
      const conversationId = conversationOf(sids[i])
      numbers[i] =
        conversationId === undefined || this.rowOfSid.has(sids[i])
          ? -1
          : this.conversationNumbers.intern(conversationId)
      if (numbers[i] < 0) all = false
    }
    const start = this.rows
    this.reserve(start + count)
    // A block whose rows all load goes in with one copy per layer, not a view per row.
    const bulk = all && stride === dim
    if (bulk) this.codes.set(codes.subarray(0, count * dim), start * stride)
    if (bulk && residuals) this.residuals.set(residuals.subarray(0, count * dim), start * stride)
    for (let i = 0; i < count; i++) {
      if (numbers[i] < 0) continue
      const row = this.rows++
      if (!bulk) this.codes.set(codes.subarray(i * dim, (i + 1) * dim), row * stride)
      if (!bulk && residuals) this.residuals.set(residuals.subarray(i * dim, (i + 1) * dim), row * stride)
      this.scales[row] = scales[i]
      this.residualScales[row] = residualScales?.[i] ?? 0
      this.sids[row] = sids[i]
      this.conversations[row] = numbers[i]
      this.rowsIn[numbers[i]] = (this.rowsIn[numbers[i]] ?? 0) + 1
      this.penalties[row] = NaN
      this.rowOfSid.set(sids[i], row)
    }
    if (!residuals) this.residuals.fill(0, start * stride, this.rows * stride)
    return start
  }

  /**
   * Removes the row of `sid`, moving the last row into its place and zeroing the last row's bytes (the removed
   * vector must not stay in memory); undefined when `sid` has no row.
   */
  remove(sid: number): RowRemoval | undefined {
    const row = this.rowOfSid.get(sid)
    if (row === undefined) return undefined
    this.rowOfSid.delete(sid)
    const conversation = this.conversations[row]
    if (--this.rowsIn[conversation] === 0) this.conversationNumbers.forget(conversation)
    const last = --this.rows
    if (row !== last) {
      this.moveRow(last, row)
      this.rowOfSid.set(this.sids[row], row)
    }
    const { stride } = this
    this.codes.fill(0, last * stride, (last + 1) * stride)
    this.residuals.fill(0, last * stride, (last + 1) * stride)
    this.scales[last] = 0
    this.residualScales[last] = 0
    return { row, movedFrom: last }
  }

  /**
   * Gives rows their residual layer, loaded after the codes (sids without a row, e.g. forgotten meanwhile, are
   * skipped). Until then a row is re-scored from its codes alone.
   */
  setResiduals(sids: ArrayLike<number>, residuals: Int8Array, residualScales: Float32Array): void {
    const { dim, stride } = this
    for (let i = 0; i < sids.length; i++) {
      const row = this.rowOfSid.get(sids[i])
      if (row === undefined) continue
      this.residuals.set(residuals.subarray(i * dim, (i + 1) * dim), row * stride)
      this.residualScales[row] = residualScales[i]
    }
  }

  /** The row's vector as stored (codes plus residuals), into `out`. */
  rowVector(row: number, out: Float32Array): Float32Array {
    const { dim, stride, codes, residuals } = this
    const scale = this.scales[row]
    const residualScale = this.residualScales[row]
    for (let d = 0; d < dim; d++) out[d] = codes[row * stride + d] * scale + residuals[row * stride + d] * residualScale
    return out
  }

  /** The penalty of the row's sentence: asked of `penaltyOf` the first time only, so it must depend on the sentence alone. */
  memoizedPenalty(row: number, penaltyOf: (sid: number) => number): number {
    let penalty = this.penalties[row]
    if (Number.isNaN(penalty)) this.penalties[row] = penalty = penaltyOf(this.sids[row])
    return penalty
  }

  /**
   * Reorders the rows so that row i holds what row `source[i]` held (`source` a permutation of the rows): in place,
   * by cycles, with one spare row.
   */
  permute(source: Int32Array): void {
    const { rows, stride } = this
    const spare: RowCopy = {
      codes: new Int8Array(stride),
      residuals: new Int8Array(stride),
      scale: 0,
      residualScale: 0,
      sid: 0,
      conversation: 0,
      penalty: 0,
    }
    const moved = new Uint8Array(rows)
    for (let start = 0; start < rows; start++) {
      if (moved[start]) continue
      moved[start] = 1
      if (source[start] === start) continue
      this.saveRow(start, spare)
      let to = start
      for (let from = source[to]; from !== start; from = source[to]) {
        this.moveRow(from, to)
        moved[from] = 1
        to = from
      }
      this.restoreRow(spare, to)
    }
    for (let row = 0; row < rows; row++) this.rowOfSid.set(this.sids[row], row)
  }

  /** Byte offsets of the memory's regions at `capacity` rows (by default the present one). */
  layout(capacity = this.capacity): RowsLayout {
    const { stride, rescoreRoom } = this
    const residualsAt = capacity * stride
    const queryAt = residualsAt + capacity * stride
    const dotsAt = queryAt + stride * 2
    const listAt = dotsAt + capacity * 4
    const rescoreAt = listAt + capacity * 4
    const rescoreCodeDotsAt = rescoreAt + rescoreRoom * 4
    const rescoreResidualDotsAt = rescoreCodeDotsAt + rescoreRoom * 4
    return {
      residualsAt,
      queryAt,
      dotsAt,
      listAt,
      rescoreAt,
      rescoreCodeDotsAt,
      rescoreResidualDotsAt,
      end: rescoreResidualDotsAt + rescoreRoom * 4,
    }
  }

  /** Makes room for `rows` rows, at least doubling the capacity when it grows. */
  reserve(rows: number): void {
    if (rows <= this.capacity) return
    const capacity = Math.max(rows, this.capacity * 2)
    const used = this.rows * this.stride
    const from = this.layout().residualsAt
    const to = this.layout(capacity).residualsAt
    const region = capacity * this.stride
    // Bytes at or past this offset were never written.
    const written = growKernelMemory(this.memory, this.layout(capacity).end)
    // The residuals start after the codes, which now take more room: move them up (an overlapping copy).
    new Int8Array(this.memory.buffer).copyWithin(to, from, from + used)
    this.codes = new Int8Array(this.memory.buffer, 0, region)
    this.residuals = new Int8Array(this.memory.buffer, to, region)
    // Rows not yet written must read as zeros (a row's padding past dim is never written): clear what the old layout
    // left past the used rows (old residuals, scratch), and no more: the rest is zeros already, and clearing it too
    // measurably slowed a large load (BENCHMARKS.md).
    this.codes.fill(0, used, Math.max(used, Math.min(region, written)))
    this.residuals.fill(0, used, Math.max(used, Math.min(region, written - to)))
    this.scales = grownArray(this.scales, capacity)
    this.residualScales = grownArray(this.residualScales, capacity)
    this.sids = grownArray(this.sids, capacity)
    this.conversations = grownArray(this.conversations, capacity)
    this.penalties = grownArray(this.penalties, capacity)
    this.capacity = capacity
  }

  private moveRow(from: number, to: number): void {
    const { stride } = this
    this.codes.copyWithin(to * stride, from * stride, (from + 1) * stride)
    this.residuals.copyWithin(to * stride, from * stride, (from + 1) * stride)
    this.scales[to] = this.scales[from]
    this.residualScales[to] = this.residualScales[from]
    this.sids[to] = this.sids[from]
    this.conversations[to] = this.conversations[from]
    this.penalties[to] = this.penalties[from]
  }

  private saveRow(row: number, spare: RowCopy): void {
    const { stride } = this
    spare.codes.set(this.codes.subarray(row * stride, (row + 1) * stride))
    spare.residuals.set(this.residuals.subarray(row * stride, (row + 1) * stride))
    spare.scale = this.scales[row]
    spare.residualScale = this.residualScales[row]
    spare.sid = this.sids[row]
    spare.conversation = this.conversations[row]
    spare.penalty = this.penalties[row]
  }

  private restoreRow(spare: RowCopy, row: number): void {
    const { stride } = this
    this.codes.set(spare.codes, row * stride)
    this.residuals.set(spare.residuals, row * stride)
    this.scales[row] = spare.scale
    this.residualScales[row] = spare.residualScale
    this.sids[row] = spare.sid
    this.conversations[row] = spare.conversation
    this.penalties[row] = spare.penalty
  }
}
