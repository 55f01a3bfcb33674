import type { ScoredSid } from '../scored-sid'
import type { CoarseLists } from './coarse-lists'
import { largestPositions } from './largest-positions'
import { quantizeQuery } from './quantize-vector'
import { queryLimit } from './simd-scan'
import { TopK } from './top-k'
import type { VectorRows } from './vector-rows'
import { VECTOR_TUNING } from './vector-tuning'

/** Rows scored against one query: entry i is the row of `sids[i]`. */
export interface ScoredRows {
  count: number
  sids: Float64Array
  /**
   * The dot product (cosine for normalised vectors): from the int8 codes, and for the most similar rows re-computed
   * from codes plus residuals (`exactDots`), exact to about 10⁻⁵.
   */
  raw: Float64Array
  /** `raw` lowered by the row's penalty (`penalizedScore`). */
  score: Float64Array
}

/** Every in-scope row's similarity to one query (`scanRows`), unordered (the order of the index's rows). */
export interface DenseScores extends ScoredRows {
  /** Position in these arrays of a sid, or -1 when it has no vector in scope. */
  positionOf(sid: number): number
}

/** The best rows of a probe (`probeRows`), best first by score, then raw similarity, then older sid. */
export type ProbedScores = ScoredRows

/**
 * A similarity lowered by its sentence's penalty (the short-sentence penalty, `penaltyOf` of a scan), floored at 0:
 * the penalty makes a short sentence less similar, never more dissimilar than an unrelated one (similarities ≤ 0
 * stay as they are).
 */
export function penalizedScore(similarity: number, penalty: number): number {
  return similarity > 0 ? Math.max(0, similarity - penalty) : similarity
}

const { rescoredRows, probedKept, probedRescored } = VECTOR_TUNING
/** Rows `exactDots` can re-score at once: the room `VectorRows` must keep for it. */
export const RESCORE_ROOM = Math.max(rescoredRows, probedRescored)

/**
 * Scores every row in scope against `query`: one integer SIMD scan (int8 rows × int16 query), then each row's score
 * is its similarity lowered by its penalty (`penalizedScore`, the rule of `penalizeShortSentences`). `penaltyOf`
 * must depend on the sentence only. The `rescoredRows` best by raw similarity are then re-scored exactly
 * (`rescoreBest`).
 */
export function scanRows(
  rows: VectorRows,
  query: Float32Array,
  filter?: { conversationId?: string },
  penaltyOf?: (sid: number) => number,
): DenseScores {
  const { count: rowCount, sids, conversations, scales } = rows
  let only = -1
  if (filter?.conversationId !== undefined) only = rows.conversationNumber(filter.conversationId) ?? -2
  const { queryAt, dotsAt } = rows.layout()
  const queryScale = loadQuery(rows, query)
  if (only !== -2 && rowCount > 0) rows.kernels.dots(0, rowCount, rows.stride, queryAt, dotsAt)
  const dots = new Int32Array(rows.memory.buffer, dotsAt, rowCount)
  const count = only === -2 ? 0 : only === -1 ? rowCount : countEqual(conversations, rowCount, only)
  // Unfiltered, entry i is row i: the sids are a view of the index's own (valid until the index changes, which no
  // request does while it ranks) and no position maps are needed — three fewer 100K-entry arrays per request.
  const whole = only === -1
  const out = {
    sids: whole ? sids.subarray(0, rowCount) : new Float64Array(count),
    raw: new Float64Array(count),
    score: new Float64Array(count),
  }
  const positions = whole ? undefined : new Int32Array(only === -2 ? 0 : rowCount)
  const rowAt = whole ? undefined : new Int32Array(count)
  for (let row = 0, i = 0; row < rowCount && only !== -2; row++) {
    if (!whole && conversations[row] !== only) {
      positions![row] = -1
      continue
    }
    const penalty = penaltyOf ? rows.memoizedPenalty(row, penaltyOf) : 0
    const raw = dots[row] * scales[row] * queryScale
    out.raw[i] = raw
    out.score[i] = penalizedScore(raw, penalty)
    if (!whole) {
      out.sids[i] = sids[row]
      rowAt![i] = row
      positions![row] = i
    }
    i++
  }
  rescoreBest(rows, queryScale, count, rowAt, out, penaltyOf)
  const positionOf = whole
    ? (sid: number) => rows.rowOf(sid) ?? -1
    : (sid: number) => positions![rows.rowOf(sid) ?? -1] ?? -1
  return { count, ...out, positionOf }
}

/** The k rows with the highest dot product with `query` (cosine for normalised vectors), best first; optionally only one conversation's. */
export function searchRows(
  rows: VectorRows,
  query: Float32Array,
  k: number,
  filter?: { conversationId?: string },
): ScoredSid[] {
  return bestRaw(scanRows(rows, query, filter), k)
}

/** The k rows of a scan with the highest raw similarity, best first: `searchRows` of the scan's query. */
export function bestRaw({ count, sids, raw }: DenseScores, k: number): ScoredSid[] {
  const top = new TopK(Math.min(k, count))
  for (let i = 0; i < count; i++) if (raw[i] >= top.threshold) top.offer(raw[i], sids[i])
  return top.sorted().map(({ key, score }) => ({ sid: key, score }))
}

/**
 * The best rows for `query` from the coarse lists nearest it (an IVF probe), taken nearest first until they hold
 * `share` of all rows: their rows scored by the gather kernel, the `probedKept` best kept and the `probedRescored`
 * best of those re-scored exactly, then ranked by score (raw lowered by the row's penalty, as in `scanRows`).
 * Approximate: a row filed under a list the probe did not reach is missed. Every row must be filed.
 */
export function probeRows(
  rows: VectorRows,
  lists: CoarseLists,
  share: number,
  query: Float32Array,
  penaltyOf?: (sid: number) => number,
): ProbedScores {
  const { count: rowCount, sids, scales } = rows
  const { queryAt, dotsAt, listAt } = rows.layout()
  const wanted = Math.ceil(rowCount * share)
  const picked = new Int32Array(rows.memory.buffer, listAt, rowCount)
  let count = 0
  for (const list of lists.nearestLists(query, wanted)) {
    picked.set(lists.rows(list), count)
    count += lists.size(list)
  }
  const queryScale = loadQuery(rows, query)
  rows.kernels.gather(0, listAt, count, rows.stride, queryAt, dotsAt)
  const dots = new Int32Array(rows.memory.buffer, dotsAt, count)
  const approx = new Float64Array(count)
  for (let i = 0; i < count; i++) approx[i] = dots[i] * scales[picked[i]] * queryScale
  // Kept: the best probedKept by int8 similarity; of those the best probedRescored get exact similarities.
  const kept = largestPositions(approx, count, probedKept, picked)
  const keptApprox = new Float64Array(kept.length)
  const keptRows = new Int32Array(kept.length)
  for (let i = 0; i < kept.length; i++) {
    keptApprox[i] = approx[kept[i]]
    keptRows[i] = picked[kept[i]]
  }
  const rescoredAt = largestPositions(keptApprox, kept.length, probedRescored, keptRows)
  const raw = keptApprox
  const exact = exactDots(
    rows,
    Array.from(rescoredAt, (at) => keptRows[at]),
    queryScale,
  )
  for (let i = 0; i < exact.length; i++) raw[rescoredAt[i]] = exact[i]
  const score = new Float64Array(kept.length)
  const keptSids = new Float64Array(kept.length)
  for (let i = 0; i < kept.length; i++) {
    const row = keptRows[i]
    const penalty = penaltyOf ? rows.memoizedPenalty(row, penaltyOf) : 0
    keptSids[i] = sids[row]
    score[i] = penalizedScore(raw[i], penalty)
  }
  const order: number[] = []
  for (let i = 0; i < kept.length; i++) order.push(i)
  order.sort((a, b) => score[b] - score[a] || raw[b] - raw[a] || keptSids[a] - keptSids[b])
  const out: ProbedScores = {
    count: kept.length,
    sids: new Float64Array(kept.length),
    raw: new Float64Array(kept.length),
    score: new Float64Array(kept.length),
  }
  for (let i = 0; i < order.length; i++) {
    const at = order[i]
    out.sids[i] = keptSids[at]
    out.raw[i] = raw[at]
    out.score[i] = score[at]
  }
  return out
}

/**
 * Replaces raw and score of the `rescoredRows` entries of highest raw similarity by their value from codes plus
 * residuals (`exactDots`; the first pass ignores the residual). Chosen by raw, not penalised, similarity so the set
 * does not depend on penalties: a search and a penalised scan agree on every raw value. A penalty only lowers a
 * score, so the penalised top-50 lies in this set unless hundreds of penalised sentences outrank it in raw similarity
 * (and then its int8 score is still within ~10⁻³). `rowAt` maps an entry to its row (absent: entry i is row i).
 */
function rescoreBest(
  rows: VectorRows,
  queryScale: number,
  count: number,
  rowAt: Int32Array | undefined,
  out: { raw: Float64Array; score: Float64Array },
  penaltyOf: ((sid: number) => number) | undefined,
): void {
  const best = new TopK(Math.min(rescoredRows, count))
  for (let i = 0; i < count; i++) if (out.raw[i] >= best.threshold) best.offer(out.raw[i], i)
  const entries = best.sorted().map((e) => e.key)
  const rowOfEntry = (i: number) => (rowAt ? rowAt[i] : i)
  const exact = exactDots(rows, entries.map(rowOfEntry), queryScale)
  for (let e = 0; e < entries.length; e++) {
    const i = entries[e]
    const raw = exact[e]
    const penalty = penaltyOf ? rows.memoizedPenalty(rowOfEntry(i), penaltyOf) : 0
    out.raw[i] = raw
    out.score[i] = penalizedScore(raw, penalty)
  }
}

/**
 * The dot products of `rowNumbers` with the query last loaded into the query slot (its scale `queryScale`), from
 * codes plus residuals: two gather passes over at most `RESCORE_ROOM` rows. The query's int16 rounding moves a unit
 * vector's product by about 10⁻⁶, the residual's own rounding by about 10⁻⁵.
 */
function exactDots(rows: VectorRows, rowNumbers: readonly number[], queryScale: number): Float64Array {
  const { stride, memory, kernels, scales, residualScales } = rows
  const { residualsAt, queryAt, rescoreAt, rescoreCodeDotsAt, rescoreResidualDotsAt } = rows.layout()
  const count = Math.min(rowNumbers.length, rows.rescoreRoom)
  const list = new Int32Array(memory.buffer, rescoreAt, count)
  for (let i = 0; i < count; i++) list[i] = rowNumbers[i]
  kernels.gather(0, rescoreAt, count, stride, queryAt, rescoreCodeDotsAt)
  kernels.gather(residualsAt, rescoreAt, count, stride, queryAt, rescoreResidualDotsAt)
  const first = new Int32Array(memory.buffer, rescoreCodeDotsAt, count)
  const second = new Int32Array(memory.buffer, rescoreResidualDotsAt, count)
  const out = new Float64Array(count)
  for (let i = 0; i < count; i++)
    out[i] = (first[i] * scales[rowNumbers[i]] + second[i] * residualScales[rowNumbers[i]]) * queryScale
  return out
}

/** Quantises `query` into the query slot the kernels read; returns the scale that maps its int16 values back. */
function loadQuery(rows: VectorRows, query: Float32Array): number {
  const { stride } = rows
  const slot = new Int16Array(rows.memory.buffer, rows.layout().queryAt, stride)
  return quantizeQuery(query.subarray(0, rows.dim), queryLimit(stride), slot)
}

function countEqual(values: Int32Array, length: number, value: number): number {
  let count = 0
  for (let i = 0; i < length; i++) if (values[i] === value) count++
  return count
}
