import { CoarseLists, MAX_LISTS } from './coarse-lists'
import { grownArray } from '../../util/grown-array'
import { largestPositions } from './largest-positions'
import { quantizeQuery } from './quantize-vector'
import { jsDotKernel, jsGatherKernel, queryLimit, ROW_ALIGN, simdDotKernels, type DotKernels } from './simd-scan'
import { TopK } from './top-k'
import { distinctRows, trainCentroids } from './train-centroids'
import { quantizeBlockRows, type VectorBlock } from '../../store/vector-block'

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
   * rows re-computed from codes plus residuals (`exactDots`), exact to about 10⁻⁵.
   */
  raw: Float64Array
  /** `raw` lowered by the row's penalty (see `VectorIndex.scan`). */
  score: Float64Array
  /** Position in these arrays of a sid, or -1 when it has no vector in scope. */
  positionOf(sid: number): number
}

/** The best rows of a probe (`VectorIndex.probe`), best first by score, then raw similarity, then older sid. */
export interface ProbedScores {
  count: number
  sids: Float64Array
  raw: Float64Array
  score: Float64Array
}

/** The coarse lists as stored: centroids, and the list of each sid filed when it was taken. */
export interface CoarseListsSnapshot {
  dim: number
  /** Share of the rows a probe scans (calibrated at training). */
  probeShare: number
  /** Rows when the lists were trained: they are trained again at `RETRAIN_GROWTH` times this. */
  trainedRows: number
  centroids: Float32Array
  sids: Float64Array
  lists: Int32Array
}

/** One row's data held aside while `relaidOut` moves rows along a cycle. */
interface RowCopy {
  codes: Int8Array
  residuals: Int8Array
  scale: number
  residualScale: number
  sid: number
  conversation: number
  penalty: number
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
 * Rows re-scored exactly (codes + residuals, `exactDots`) after the int8 scan, best int8 scores first. The int8
 * score is off by about 10⁻³, so the exact top-50 lies far inside the int8 top-512; the re-scoring is two gather
 * passes over those rows. Ranks below stay int8-approximate.
 */
export const RESCORED_ROWS = 512

/** WebAssembly memory grows in pages of this many bytes. */
const PAGE = 65536

/**
 * From this many rows on, the index trains coarse lists (`trainCoarseLists`) and `probe` scans only the lists nearest
 * a query. Below it an exact scan costs about a millisecond or less, and a few thousand rows make poor clusters.
 */
export const COARSE_MIN_ROWS = 20_000
/** The lists are trained again once the rows have doubled since the last training. */
const RETRAIN_GROWTH = 2
/**
 * Training: about `LISTS_PER_ROOT × √rows` lists, `SAMPLE_PER_LIST` sample rows per list, `TRAIN_ITERATIONS` Lloyd
 * iterations. On 100K synthetic vectors 2√n lists, 32 samples and 10 iterations found the exact top-50 (recall 0.999)
 * in 1.5% of the rows, where 16 samples and 4 iterations needed 6% for 0.994 (bench/probe-recall.ts, one-off sweep).
 */
const LISTS_PER_ROOT = 2
const SAMPLE_PER_LIST = 32
const TRAIN_ITERATIONS = 10
/** Rows filed between two yields of `trainCoarseLists`. */
const FILE_ROWS_PER_SLICE = 256
/**
 * How many rows a probe scans is calibrated on the data when the lists are trained: `CALIBRATION_QUERIES` random rows
 * serve as queries, and the probe takes the smallest of `PROBE_SHARES` (share of all rows) whose top-50 holds
 * `CALIBRATION_RECALL` of each one's exact top-50 (itself excluded): the 0.99 the product promises, measured on
 * rows, which are harder queries than requests (on 100K synthetic vectors rows found 0.991 at 1/64 where requests
 * found 0.9986; above 0.99 the curve is flat, so a higher target swung between 1/32 and 1/16 from one training to
 * the next). The mean is swayed by a few rows in sparse neighbourhoods, hence 300 of them: 40 gave 1/64 in one run
 * and 1/32 in the next on the same data, 100 anything from 1/91 to 1/16 on 100K synthetic vectors; 300 make a
 * training at 100K rows cost about 9 s of background CPU instead of 6 (Node, bench/probe-recall.ts). Real sentence
 * vectors cluster less than synthetic ones and need a larger share; a fixed share would be too slow for one or miss
 * for the other.
 */
const CALIBRATION_QUERIES = 300
const CALIBRATION_RECALL = 0.99
const CALIBRATION_K = 50
// Steps of √2, so a history that just misses one share pays 1.4× its scan rather than 2×.
const PROBE_SHARES = Array.from({ length: 11 }, (_, k) => 2 ** (-7 + k / 2))
/** A probe's ranking: its best rows by int8 similarity, of which the best `PROBED_RESCORED` are re-scored exactly. */
export const PROBED_KEPT = 256
export const PROBED_RESCORED = 96
/** Rows `exactDots` can re-score at once. */
const RESCORE_ROOM = Math.max(RESCORED_ROWS, PROBED_RESCORED)

/**
 * All sentence vectors as int8 rows (`quantizeRows`) in one contiguous memory, `stride` bytes apart (dim rounded up
 * to the SIMD width), so a query is a single sequential scan of a quarter of the float32 bytes, done by the
 * WebAssembly SIMD kernel; the best rows are then re-scored with each row's int8 residual, read for those rows only
 * by the gather kernel. Rows are unordered: removal moves the last row into the hole.
 * Memory layout (`layout`): the codes (capacity × stride), the residuals (capacity × stride), the int16 query, one
 * int32 dot per row, a list of row numbers for the gather kernel, and room to re-score `RESCORE_ROOM` rows.
 */
export class VectorIndex {
  readonly stride: number
  private readonly memory: WebAssembly.Memory | { buffer: ArrayBuffer }
  private readonly kernels: DotKernels
  private codes: Int8Array
  private scales: Float32Array
  /** Residual codes, row r at `r × stride` (zero for rows stored without them), and their scales. */
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
  /** The lists `probe` uses, once trained (or restored); and lists being trained, which rows join as they come. */
  private coarse: CoarseLists | undefined
  private pendingCoarse: CoarseLists | undefined
  /** Rows when the lists in use were trained, and the share of rows a probe of them scans. */
  private coarseTrainedRows = 0
  private probeShare = 1
  /** Rows were removed while lists were being trained: their sample may hold them, so they are re-centred at the end. */
  private pendingTainted = false

  constructor(readonly dim: number, capacity = 1024, options: VectorIndexOptions = {}) {
    this.stride = Math.ceil(dim / ROW_ALIGN) * ROW_ALIGN
    this.capacity = capacity
    const bytes = this.bytesFor(capacity)
    const wasm = typeof WebAssembly !== 'undefined'
    this.memory = wasm ? new WebAssembly.Memory({ initial: Math.ceil(bytes / PAGE) }) : { buffer: new ArrayBuffer(bytes) }
    this.kernels = (options.simd !== false && this.memory instanceof WebAssembly.Memory ? simdDotKernels(this.memory) : undefined) ?? {
      dots: jsDotKernel(this.memory),
      gather: jsGatherKernel(this.memory),
    }
    this.codes = new Int8Array(this.memory.buffer, 0, capacity * this.stride)
    this.residuals = new Int8Array(this.memory.buffer, capacity * this.stride, capacity * this.stride)
    this.scales = new Float32Array(capacity)
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
    const { dim, stride } = this
    for (let i = 0; i < sids.length; i++) {
      const row = this.rowOf.get(sids[i])
      if (row === undefined) continue
      this.residuals.set(residuals.subarray(i * dim, (i + 1) * dim), row * stride)
      this.residualScales[row] = residualScales[i]
    }
  }

  /** Adds float vectors (`sids.length × dim`), quantised by the store's own `quantizeBlockRows`. */
  add(sids: readonly number[], vectors: Float32Array, conversationOf: (sid: number) => string | undefined): void {
    this.addCodes(sids, quantizeBlockRows(vectors, sids.length, this.dim), conversationOf)
  }

  remove(sids: Iterable<number>): void {
    for (const sid of sids) {
      const row = this.rowOf.get(sid)
      if (row === undefined) continue
      this.rowOf.delete(sid)
      if (this.pendingCoarse) this.pendingTainted = true
      const last = --this.rows
      for (const lists of this.allCoarse()) {
        lists.unfile(row)
        if (row !== last) lists.move(last, row)
      }
      if (row !== last) {
        this.moveRow(last, row)
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
    const { queryAt, dotsAt } = this.layout()
    const q = new Int16Array(this.memory.buffer, queryAt, stride)
    const queryScale = quantizeQuery(query.subarray(0, this.dim), queryLimit(stride), q)
    if (only !== -2 && rows > 0) this.kernels.dots(0, rows, stride, queryAt, dotsAt)
    const dots = new Int32Array(this.memory.buffer, dotsAt, rows)
    const count = only === -2 ? 0 : only === -1 ? rows : countEqual(conversations, rows, only)
    // Unfiltered, entry i is row i: the sids are a view of the index's own (valid until the index changes, which no
    // request does while it ranks) and no position maps are needed — three fewer 100K-entry arrays per request.
    const whole = only === -1
    const out = { sids: whole ? sids.subarray(0, rows) : new Float64Array(count), raw: new Float64Array(count), score: new Float64Array(count) }
    const positions = whole ? undefined : new Int32Array(only === -2 ? 0 : rows)
    const rowAt = whole ? undefined : new Int32Array(count)
    for (let row = 0, i = 0; row < rows && only !== -2; row++) {
      if (!whole && conversations[row] !== only) {
        positions![row] = -1
        continue
      }
      let penalty = 0
      if (penaltyOf) {
        penalty = penalties[row]
        if (Number.isNaN(penalty)) penalties[row] = penalty = penaltyOf(sids[row])
      }
      const raw = dots[row] * scales[row] * queryScale
      out.raw[i] = raw
      out.score[i] = raw > 0 ? Math.max(0, raw - penalty) : raw
      if (!whole) {
        out.sids[i] = sids[row]
        rowAt![i] = row
        positions![row] = i
      }
      i++
    }
    this.rescoreBest(queryScale, count, rowAt, out, penaltyOf !== undefined)
    const { rowOf } = this
    const positionOf = whole ? (sid: number) => rowOf.get(sid) ?? -1 : (sid: number) => positions![rowOf.get(sid) ?? -1] ?? -1
    return { count, ...out, positionOf }
  }

  /** The k rows with the highest dot product with `query` (cosine for normalised vectors), best first; optionally only one conversation's. */
  search(query: Float32Array, k: number, filter?: { conversationId?: string }): VectorHit[] {
    const { count, sids, raw } = this.scan(query, filter)
    const top = new TopK(Math.min(k, count))
    for (let i = 0; i < count; i++) if (raw[i] >= top.threshold) top.offer(raw[i], sids[i])
    return top.sorted()
  }

  /**
   * The best rows for `query` from the coarse lists nearest it (an IVF probe): their rows scored by the gather kernel,
   * the `PROBED_KEPT` best kept and the `PROBED_RESCORED` best of those re-scored exactly, then ranked by score
   * (raw lowered by the row's penalty, as in `scan`). Approximate: a row filed under a list the probe did not reach is
   * missed. Undefined when there are no trained lists, or while some row is not filed yet.
   * The lists are taken nearest first until they hold the calibrated share of all rows.
   */
  probe(query: Float32Array, penaltyOf?: (sid: number) => number): ProbedScores | undefined {
    const { coarse, rows } = this
    if (!coarse || coarse.filed !== rows || rows === 0 || this.probeShare >= 1) return undefined
    return this.probeLists(coarse, this.probeShare, query, penaltyOf)
  }

  private probeLists(coarse: CoarseLists, share: number, query: Float32Array, penaltyOf?: (sid: number) => number): ProbedScores {
    const { rows, stride, sids, scales, penalties } = this
    const { queryAt, dotsAt, listAt } = this.layout()
    const wanted = Math.ceil(rows * share)
    const picked = new Int32Array(this.memory.buffer, listAt, rows)
    let count = 0
    for (const list of coarse.nearestLists(query, wanted)) {
      picked.set(coarse.rows(list), count)
      count += coarse.size(list)
    }
    const q = new Int16Array(this.memory.buffer, queryAt, stride)
    const queryScale = quantizeQuery(query.subarray(0, this.dim), queryLimit(stride), q)
    this.kernels.gather(0, listAt, count, stride, queryAt, dotsAt)
    const dots = new Int32Array(this.memory.buffer, dotsAt, count)
    const approx = new Float64Array(count)
    for (let i = 0; i < count; i++) approx[i] = dots[i] * scales[picked[i]] * queryScale
    // Kept: the best PROBED_KEPT by int8 similarity; of those the best PROBED_RESCORED get exact similarities.
    const kept = largestPositions(approx, count, PROBED_KEPT, picked)
    const keptApprox = new Float64Array(kept.length)
    const keptRows = new Int32Array(kept.length)
    for (let i = 0; i < kept.length; i++) {
      keptApprox[i] = approx[kept[i]]
      keptRows[i] = picked[kept[i]]
    }
    const rescoredAt = largestPositions(keptApprox, kept.length, PROBED_RESCORED, keptRows)
    const raw = keptApprox
    const exact = this.exactDots(Array.from(rescoredAt, (at) => keptRows[at]), queryScale)
    for (let i = 0; i < exact.length; i++) raw[rescoredAt[i]] = exact[i]
    const score = new Float64Array(kept.length)
    const keptSids = new Float64Array(kept.length)
    for (let i = 0; i < kept.length; i++) {
      const row = keptRows[i]
      let penalty = 0
      if (penaltyOf) {
        penalty = penalties[row]
        if (Number.isNaN(penalty)) penalties[row] = penalty = penaltyOf(sids[row])
      }
      keptSids[i] = sids[row]
      score[i] = raw[i] > 0 ? Math.max(0, raw[i] - penalty) : raw[i]
    }
    const order: number[] = []
    for (let i = 0; i < kept.length; i++) order.push(i)
    order.sort((a, b) => score[b] - score[a] || raw[b] - raw[a] || keptSids[a] - keptSids[b])
    const out: ProbedScores = { count: kept.length, sids: new Float64Array(kept.length), raw: new Float64Array(kept.length), score: new Float64Array(kept.length) }
    for (let i = 0; i < order.length; i++) {
      const at = order[i]
      out.sids[i] = keptSids[at]
      out.raw[i] = raw[at]
      out.score[i] = score[at]
    }
    return out
  }

  /** Whether coarse lists are in use (trained or restored), whether or not `probe` uses them. */
  get hasCoarseLists(): boolean {
    return this.coarse !== undefined
  }

  /** What `dense` ranking uses (`MemoryStats.denseIndex`). */
  get denseIndex(): { kind: 'exact' } | { kind: 'coarse-lists'; lists: number; probeShare: number; trainedRows: number } {
    const { coarse } = this
    return coarse && this.probeShare < 1 ? { kind: 'coarse-lists', lists: coarse.count, probeShare: this.probeShare, trainedRows: this.coarseTrainedRows } : { kind: 'exact' }
  }

  /** Whether coarse lists should be trained now: enough rows, and none yet or the rows have doubled since. */
  wantsCoarseLists(): boolean {
    return !this.pendingCoarse && this.rows >= COARSE_MIN_ROWS && (!this.coarse || this.rows >= RETRAIN_GROWTH * this.coarseTrainedRows)
  }

  /**
   * Trains coarse lists on a random sample of the rows (`trainCentroids`), files every row under its nearest list,
   * then puts the new lists in use. A generator yielding every few milliseconds: rows added or removed meanwhile are
   * filed or dropped as they come, so the lists are complete whenever it finishes. About 2√rows lists.
   */
  *trainCoarseLists(random: () => number): Generator<void, void> {
    if (this.pendingCoarse) throw new Error('VectorIndex: coarse lists are already being trained')
    const { dim } = this
    const rows = this.rows
    const count = Math.min(MAX_LISTS, 2 ** Math.round(Math.log2(LISTS_PER_ROOT * Math.sqrt(rows))))
    const sampleRows = distinctRows(rows, Math.min(rows, SAMPLE_PER_LIST * count), random)
    yield
    const sample = new Float32Array(sampleRows.length * dim)
    for (let i = 0; i < sampleRows.length; i++) {
      this.rowVector(sampleRows[i], sample.subarray(i * dim, (i + 1) * dim))
      if (i % FILE_ROWS_PER_SLICE === FILE_ROWS_PER_SLICE - 1) yield
    }
    // Removals while this yielded may have moved sampled rows: harmless, a sample only needs to be random rows.
    const centroids = yield* trainCentroids(sample, sampleRows.length, dim, count, TRAIN_ITERATIONS, random)
    let lists = new CoarseLists(centroids, dim)
    this.pendingCoarse = lists
    this.pendingTainted = false
    try {
      const vector = new Float32Array(dim)
      // Removals move rows while this yields, possibly below the cursor: passes repeat until every row is filed.
      while (lists.filed < this.rows) {
        for (let row = 0; row < this.rows; row++) {
          if (lists.listOfRow(row) >= 0) continue
          lists.file(row, lists.nearest(this.rowVector(row, vector)))
          if (row % FILE_ROWS_PER_SLICE === FILE_ROWS_PER_SLICE - 1) yield
        }
      }
      // The sample was drawn before rows were removed (forgotten): centroids must not keep anything of them.
      if (this.pendingTainted) lists = this.pendingCoarse = this.recentred(lists)
      const share = yield* this.calibrateProbeShare(lists, rows, random)
      // Rows added or removed while calibrating were filed or dropped by add and remove: the lists are still whole.
      this.coarse = this.relaidOut(lists)
      this.probeShare = share
      this.coarseTrainedRows = rows
    } finally {
      this.pendingCoarse = undefined
    }
  }

  /**
   * The smallest share of `PROBE_SHARES` whose probes find `CALIBRATION_RECALL` of random rows' exact top-k; 1 when
   * none does (the lists are then kept for the next training, but `probe` declines: scanning more than a quarter of
   * the rows by index is no faster than the sequential exact scan).
   */
  private *calibrateProbeShare(lists: CoarseLists, trainedRows: number, random: () => number): Generator<void, number> {
    const vector = new Float32Array(this.dim)
    const found = new Float64Array(PROBE_SHARES.length)
    let wanted = 0
    // Each query's exact top-k and its probes at every share are taken in one step, so rows added or removed while
    // this yields cannot count as misses.
    // Drawn among the rows there were when training started, like the training sample, so that rows arriving during
    // training (a bulk import goes on meanwhile) do not change which rows are drawn: in Chromium, lists trained at
    // 80,384 rows calibrated 1/64 in four runs and 1/32 in one while the draw was among the rows at the end.
    for (const row of distinctRows(trainedRows, Math.min(CALIBRATION_QUERIES, trainedRows), random)) {
      if (lists.filed !== this.rows) return 1
      if (row >= this.rows) continue
      const query = this.rowVector(row, vector)
      const sid = this.sids[row]
      const truth = this.search(query, CALIBRATION_K + 1).map((h) => h.sid).filter((s) => s !== sid).slice(0, CALIBRATION_K)
      PROBE_SHARES.forEach((share, i) => {
        const probed = this.probeLists(lists, share, query)
        const top = new Set(Array.from(probed.sids.subarray(0, CALIBRATION_K + 1)))
        found[i] += truth.filter((s) => top.has(s)).length
      })
      wanted += truth.length
      yield
    }
    const share = PROBE_SHARES.findIndex((_, i) => wanted === 0 || found[i] / wanted >= CALIBRATION_RECALL)
    return share < 0 ? 1 : PROBE_SHARES[share]
  }

  /**
   * Recomputes each centroid of the lists in use as the mean direction of the rows now filed under it (an empty list
   * gets a zero centroid), keeping every row in its list: after a forget, no centroid keeps a trace of the removed
   * vectors. About 175 ms at 100K rows (Node). Lists being trained are re-centred when their training ends.
   */
  recentreCoarseLists(): void {
    if (this.coarse) this.coarse = this.recentred(this.coarse)
    if (this.pendingCoarse) this.pendingTainted = true
  }

  /**
   * Reorders the rows so that each list's rows lie together, lists in order, and returns the lists for the new row
   * numbers. A probe then reads its lists' codes nearly sequentially instead of row by row across the whole memory:
   * 0.28 → 0.20 ms p50, 0.46 → 0.25 ms p95 per probe at 100K rows (Node, one-off measurement). An in-place
   * permutation by cycles (one spare row); restoring stored lists on 100K rows, this included, takes 55–59 ms
   * (Node). Rows added later go after the last list's.
   */
  private relaidOut(lists: CoarseLists): CoarseLists {
    const { rows, stride } = this
    const source = new Int32Array(rows)
    let at = 0
    for (let list = 0; list < lists.count; list++) for (const row of lists.rows(list)) source[at++] = row
    if (at !== rows) return lists
    const spare = { codes: new Int8Array(stride), residuals: new Int8Array(stride), scale: 0, residualScale: 0, sid: 0, conversation: 0, penalty: 0 }
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
    const relaid = new CoarseLists(lists.centroids, this.dim)
    for (let row = 0; row < rows; row++) {
      this.rowOf.set(this.sids[row], row)
      relaid.file(row, lists.listOfRow(source[row]))
    }
    return relaid
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

  private recentred(lists: CoarseLists): CoarseLists {
    const { dim } = this
    const sums = new Float32Array(lists.count * dim)
    const vector = new Float32Array(dim)
    for (let row = 0; row < this.rows; row++) {
      const list = lists.listOfRow(row)
      if (list < 0) continue
      this.rowVector(row, vector)
      for (let d = 0, at = list * dim; d < dim; d++) sums[at + d] += vector[d]
    }
    for (let list = 0; list < lists.count; list++) {
      let norm = 0
      for (let d = 0; d < dim; d++) norm += sums[list * dim + d] ** 2
      norm = Math.sqrt(norm)
      if (norm > 0) for (let d = 0; d < dim; d++) sums[list * dim + d] /= norm
    }
    const centred = new CoarseLists(sums, dim)
    for (let row = 0; row < this.rows; row++) {
      const list = lists.listOfRow(row)
      if (list >= 0) centred.file(row, list)
    }
    return centred
  }

  /** The lists in use, to store; undefined when there are none. */
  coarseSnapshot(): CoarseListsSnapshot | undefined {
    const { coarse } = this
    if (!coarse) return undefined
    const sids = new Float64Array(this.rows)
    const lists = new Int32Array(this.rows)
    for (let row = 0; row < this.rows; row++) {
      sids[row] = this.sids[row]
      lists[row] = coarse.listOfRow(row)
    }
    return { dim: this.dim, probeShare: this.probeShare, trainedRows: this.coarseTrainedRows, centroids: coarse.centroids, sids, lists }
  }

  /**
   * Puts stored lists in use: each row goes under its stored list, a row the snapshot does not know under its
   * nearest. Ignored when the dimension differs. Call after the rows are in.
   */
  restoreCoarseLists(snapshot: CoarseListsSnapshot): void {
    if (snapshot.dim !== this.dim || snapshot.centroids.length % this.dim !== 0) return
    const lists = new CoarseLists(snapshot.centroids, this.dim)
    const { sids } = snapshot
    for (let i = 0; i < sids.length; i++) {
      const row = this.rowOf.get(sids[i])
      const list = snapshot.lists[i]
      if (row !== undefined && list >= 0 && list < lists.count) lists.file(row, list)
    }
    const vector = new Float32Array(this.dim)
    for (let row = 0; row < this.rows; row++) if (lists.listOfRow(row) < 0) lists.file(row, lists.nearest(this.rowVector(row, vector)))
    this.coarse = this.relaidOut(lists)
    this.probeShare = snapshot.probeShare
    this.coarseTrainedRows = snapshot.trainedRows
  }

  /**
   * Replaces raw and score of the `RESCORED_ROWS` entries of highest raw similarity by their value from codes plus
   * residuals (`exactDots`; the first pass ignores the residual). Chosen by raw, not penalised, similarity so the set does not depend on penalties: a search and a
   * penalised scan agree on every raw value. A penalty only lowers a score, so the penalised top-50 lies in this set
   * unless hundreds of penalised sentences outrank it in raw similarity (and then its int8 score is still within ~10⁻³).
   */
  private rescoreBest(queryScale: number, count: number, rowAt: Int32Array | undefined, out: { raw: Float64Array; score: Float64Array }, penalised: boolean): void {
    const { penalties } = this
    const best = new TopK(Math.min(RESCORED_ROWS, count))
    for (let i = 0; i < count; i++) if (out.raw[i] >= best.threshold) best.offer(out.raw[i], i)
    const entries = best.sorted().map((e) => e.sid)
    const rowOfEntry = (i: number) => (rowAt ? rowAt[i] : i)
    const exact = this.exactDots(entries.map(rowOfEntry), queryScale)
    for (let e = 0; e < entries.length; e++) {
      const i = entries[e]
      const row = rowOfEntry(i)
      const raw = exact[e]
      const penalty = penalised ? penalties[row] : 0
      out.raw[i] = raw
      out.score[i] = raw > 0 ? Math.max(0, raw - penalty) : raw
    }
  }

  /**
   * The dot products of `rows` with the query last quantised into the query slot (its scale `queryScale`), from codes
   * plus residuals: two gather passes over at most `RESCORE_ROOM` rows. The query's int16 rounding moves a unit
   * vector's product by about 10⁻⁶, the residual's own rounding by about 10⁻⁵.
   */
  private exactDots(rows: readonly number[], queryScale: number): Float64Array {
    const { stride } = this
    const { residualsAt, queryAt, rescoreAt } = this.layout()
    const count = Math.min(rows.length, RESCORE_ROOM)
    const list = new Int32Array(this.memory.buffer, rescoreAt, count)
    for (let i = 0; i < count; i++) list[i] = rows[i]
    const codesOut = rescoreAt + RESCORE_ROOM * 4
    const residualsOut = codesOut + RESCORE_ROOM * 4
    this.kernels.gather(0, rescoreAt, count, stride, queryAt, codesOut)
    this.kernels.gather(residualsAt, rescoreAt, count, stride, queryAt, residualsOut)
    const first = new Int32Array(this.memory.buffer, codesOut, count)
    const second = new Int32Array(this.memory.buffer, residualsOut, count)
    const out = new Float64Array(count)
    for (let i = 0; i < count; i++) out[i] = (first[i] * this.scales[rows[i]] + second[i] * this.residualScales[rows[i]]) * queryScale
    return out
  }

  /** Byte offsets of the memory's regions at the present capacity. */
  private layout(capacity = this.capacity): { residualsAt: number; queryAt: number; dotsAt: number; listAt: number; rescoreAt: number; end: number } {
    const { stride } = this
    const residualsAt = capacity * stride
    const queryAt = residualsAt + capacity * stride
    const dotsAt = queryAt + stride * 2
    const listAt = dotsAt + capacity * 4
    const rescoreAt = listAt + capacity * 4
    return { residualsAt, queryAt, dotsAt, listAt, rescoreAt, end: rescoreAt + RESCORE_ROOM * 12 }
  }

  /** The row's vector as stored (codes plus residuals), into `out`. */
  private rowVector(row: number, out: Float32Array): Float32Array {
    const { dim, stride, codes, residuals } = this
    const scale = this.scales[row]
    const residualScale = this.residualScales[row]
    for (let d = 0; d < dim; d++) out[d] = codes[row * stride + d] * scale + residuals[row * stride + d] * residualScale
    return out
  }

  private allCoarse(): CoarseLists[] {
    const lists: CoarseLists[] = []
    if (this.coarse) lists.push(this.coarse)
    if (this.pendingCoarse) lists.push(this.pendingCoarse)
    return lists
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
    if (bulk && residuals) this.residuals.set(residuals.subarray(0, count * dim), start * stride)
    for (let i = 0; i < count; i++) {
      if (keys[i] < 0) continue
      const row = this.rows++
      if (!bulk) this.codes.set(codes.subarray(i * dim, (i + 1) * dim), row * stride)
      if (!bulk && residuals) this.residuals.set(residuals.subarray(i * dim, (i + 1) * dim), row * stride)
      this.scales[row] = scales[i]
      this.residualScales[row] = residualScales?.[i] ?? 0
      this.sids[row] = sids[i]
      this.conversations[row] = keys[i]
      this.penalties[row] = NaN
      this.rowOf.set(sids[i], row)
    }
    if (!residuals) this.residuals.fill(0, start * stride, this.rows * stride)
    const coarse = this.allCoarse()
    if (coarse.length > 0) {
      const vector = new Float32Array(dim)
      for (let row = start; row < this.rows; row++) {
        this.rowVector(row, vector)
        for (const lists of coarse) lists.file(row, lists.nearest(vector))
      }
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

  /** Bytes of memory for `capacity` rows (`layout`). */
  private bytesFor(capacity: number): number {
    return this.layout(capacity).end
  }

  private ensureCapacity(rows: number): void {
    if (rows <= this.capacity) return
    const capacity = Math.max(rows, this.capacity * 2)
    const bytes = this.bytesFor(capacity)
    const used = this.rows * this.stride
    const from = this.layout().residualsAt
    const to = this.layout(capacity).residualsAt
    const region = capacity * this.stride
    // Bytes at or past this offset were never written: grown WebAssembly memory, like a new ArrayBuffer, is zeros.
    let written = 0
    if (this.memory instanceof WebAssembly.Memory) {
      written = this.memory.buffer.byteLength
      const missing = bytes - written
      if (missing > 0) this.memory.grow(Math.ceil(missing / PAGE))
      // The residuals start after the codes, which now take more room: move them up (an overlapping copy).
      new Int8Array(this.memory.buffer).copyWithin(to, from, from + used)
    } else {
      const buffer = new ArrayBuffer(bytes)
      new Int8Array(buffer).set(new Int8Array(this.memory.buffer, 0, used))
      new Int8Array(buffer).set(new Int8Array(this.memory.buffer, from, used), to)
      // Replaced in place: the JS kernel holds this object.
      this.memory.buffer = buffer
    }
    this.codes = new Int8Array(this.memory.buffer, 0, region)
    this.residuals = new Int8Array(this.memory.buffer, to, region)
    // Rows not yet written must read as zeros (a row's padding past dim is never written): clear what the old layout
    // left past the used rows (old residuals, scratch), and no more (clearing the whole grown region too made a load
    // of 100K rows take 82 instead of 72 ms in Node).
    this.codes.fill(0, used, Math.max(used, Math.min(region, written)))
    this.residuals.fill(0, used, Math.max(used, Math.min(region, written - to)))
    this.scales = grownArray(this.scales, capacity)
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
