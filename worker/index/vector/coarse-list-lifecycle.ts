import type { MemoryStats } from '../../../src/types'
import {
  CALIBRATION_K,
  CALIBRATION_QUERIES,
  CALIBRATION_RECALL,
  COARSE_MIN_ROWS,
  FILE_ROWS_PER_SLICE,
  LISTS_PER_ROOT,
  PROBE_SHARES,
  RETRAIN_GROWTH,
  SAMPLE_PER_LIST,
  TRAIN_ITERATIONS,
} from './coarse-list-tuning'
import { CoarseLists, MAX_LISTS } from './coarse-lists'
import { normalizeRows } from './normalize-rows'
import { distinctRows, trainCentroids } from './train-centroids'
import type { RowRemoval, VectorRows } from './vector-rows'
import { probeRows, searchRows, type ProbedScores } from './vector-scoring'

/** The coarse lists as stored: centroids, and the list of each sid filed when they were serialised. */
export interface SerializedCoarseLists {
  dim: number
  /** Share of the rows a probe scans (calibrated at training). */
  probeShare: number
  /** Rows when the lists were trained: they are trained again at `RETRAIN_GROWTH` times this. */
  trainedRows: number
  centroids: Float32Array
  sids: Float64Array
  lists: Int32Array
}

/**
 * The coarse lists of a vector index through their life: trained on a sample of its rows in slices, their probe
 * share calibrated, the rows laid out list by list, every row added or removed meanwhile filed or dropped, re-centred
 * after a forget, serialised and restored. The index tells it when rows come and go.
 */
export class CoarseListLifecycle {
  /** The lists `probe` uses, once trained (or restored). */
  private listsInUse: CoarseLists | undefined
  /** Lists being trained, which rows join as they come. */
  private listsInTraining: CoarseLists | undefined
  /** Rows when the lists in use were trained, and the share of rows a probe of them scans. */
  private trainedRows = 0
  private probeShare = 1
  /** Rows were removed while lists were being trained: their sample may hold them, so they are re-centred at the end. */
  private removedDuringTraining = false

  constructor(private readonly rows: VectorRows) {}

  /** Whether lists are in use (trained or restored), whether or not `probe` uses them. */
  get inUse(): boolean {
    return this.listsInUse !== undefined
  }

  /** What dense ranking uses. */
  get denseIndex(): MemoryStats['denseIndex'] {
    const { listsInUse } = this
    return listsInUse && this.probeShare < 1
      ? { kind: 'coarse-lists', lists: listsInUse.count, probeShare: this.probeShare, trainedRows: this.trainedRows }
      : { kind: 'exact' }
  }

  /** Whether lists should be trained now: enough rows, and none yet or the rows have grown `RETRAIN_GROWTH` times since. */
  get wanted(): boolean {
    const rows = this.rows.count
    return (
      !this.listsInTraining &&
      rows >= COARSE_MIN_ROWS &&
      (!this.listsInUse || rows >= RETRAIN_GROWTH * this.trainedRows)
    )
  }

  /**
   * A probe of the lists in use at the calibrated share (`probeRows`). Undefined when there are none, while some row
   * is not filed yet, or when the calibration found no share worth probing.
   */
  probe(query: Float32Array, penaltyOf?: (sid: number) => number): ProbedScores | undefined {
    const { listsInUse, rows } = this
    if (!listsInUse || listsInUse.filed !== rows.count || rows.count === 0 || this.probeShare >= 1) return undefined
    return probeRows(rows, listsInUse, this.probeShare, query, penaltyOf)
  }

  /** Files rows `from` up to the last under their nearest list, in every list in use or in training. */
  rowsAdded(from: number): void {
    const all = this.allLists()
    if (all.length === 0) return
    const vector = new Float32Array(this.rows.dim)
    for (let row = from; row < this.rows.count; row++) {
      this.rows.rowVector(row, vector)
      for (const lists of all) lists.file(row, lists.nearest(vector))
    }
  }

  /** A row was removed (`VectorRows.remove`): the lists drop it and follow the row moved into its place. */
  rowRemoved({ row, movedFrom }: RowRemoval): void {
    if (this.listsInTraining) this.removedDuringTraining = true
    for (const lists of this.allLists()) {
      lists.unfile(row)
      if (row !== movedFrom) lists.move(movedFrom, row)
    }
  }

  /**
   * Trains lists on a random sample of the rows (`trainCentroids`), files every row under its nearest list, then puts
   * the new lists in use. A generator yielding every few milliseconds: rows added or removed meanwhile are filed or
   * dropped as they come, so the lists are complete whenever it finishes. About `LISTS_PER_ROOT × √rows` lists.
   */
  *train(random: () => number): Generator<void, void> {
    if (this.listsInTraining) throw new Error('VectorIndex: coarse lists are already being trained')
    const { rows } = this
    const { dim } = rows
    const trainedRows = rows.count
    const count = Math.min(MAX_LISTS, 2 ** Math.round(Math.log2(LISTS_PER_ROOT * Math.sqrt(trainedRows))))
    const sampleRows = distinctRows(trainedRows, Math.min(trainedRows, SAMPLE_PER_LIST * count), random)
    yield
    const sample = new Float32Array(sampleRows.length * dim)
    for (let i = 0; i < sampleRows.length; i++) {
      rows.rowVector(sampleRows[i], sample.subarray(i * dim, (i + 1) * dim))
      if (i % FILE_ROWS_PER_SLICE === FILE_ROWS_PER_SLICE - 1) yield
    }
    // Removals while this yielded may have moved sampled rows: harmless, a sample only needs to be random rows.
    const centroids = yield* trainCentroids(sample, sampleRows.length, dim, count, TRAIN_ITERATIONS, random)
    let lists = new CoarseLists(centroids, dim)
    this.listsInTraining = lists
    this.removedDuringTraining = false
    try {
      const vector = new Float32Array(dim)
      // Removals move rows while this yields, possibly below the cursor: passes repeat until every row is filed.
      while (lists.filed < rows.count) {
        for (let row = 0; row < rows.count; row++) {
          if (lists.listOfRow(row) >= 0) continue
          lists.file(row, lists.nearest(rows.rowVector(row, vector)))
          if (row % FILE_ROWS_PER_SLICE === FILE_ROWS_PER_SLICE - 1) yield
        }
      }
      // The sample was drawn before rows were removed (forgotten): centroids must not keep anything of them.
      if (this.removedDuringTraining) lists = this.listsInTraining = this.recentred(lists)
      const share = yield* this.calibrateProbeShare(lists, trainedRows, random)
      // Rows added or removed while calibrating were filed or dropped by add and remove: the lists are still whole.
      this.listsInUse = this.relaidOut(lists)
      this.probeShare = share
      this.trainedRows = trainedRows
    } finally {
      this.listsInTraining = undefined
    }
  }

  /**
   * Recomputes each centroid of the lists in use as the mean direction of the rows now filed under it (an empty list
   * gets a zero centroid), keeping every row in its list: after a forget, no centroid keeps a trace of the removed
   * vectors. Lists being trained are re-centred when their training ends.
   */
  recentre(): void {
    if (this.listsInUse) this.listsInUse = this.recentred(this.listsInUse)
    if (this.listsInTraining) this.removedDuringTraining = true
  }

  /** The lists in use, to store; undefined when there are none. */
  serialize(): SerializedCoarseLists | undefined {
    const { listsInUse, rows } = this
    if (!listsInUse) return undefined
    const sids = new Float64Array(rows.count)
    const lists = new Int32Array(rows.count)
    for (let row = 0; row < rows.count; row++) {
      sids[row] = rows.sids[row]
      lists[row] = listsInUse.listOfRow(row)
    }
    return {
      dim: rows.dim,
      probeShare: this.probeShare,
      trainedRows: this.trainedRows,
      centroids: listsInUse.centroids,
      sids,
      lists,
    }
  }

  /**
   * Puts stored lists in use: each row goes under its stored list, a row the stored lists do not know under its
   * nearest. Ignored when the dimension differs. Call after the rows are in.
   */
  restore(serialized: SerializedCoarseLists): void {
    const { rows } = this
    const { dim } = rows
    if (serialized.dim !== dim || serialized.centroids.length % dim !== 0) return
    const lists = new CoarseLists(serialized.centroids, dim)
    const { sids } = serialized
    for (let i = 0; i < sids.length; i++) {
      const row = rows.rowOf(sids[i])
      const list = serialized.lists[i]
      if (row !== undefined && list >= 0 && list < lists.count) lists.file(row, list)
    }
    const vector = new Float32Array(dim)
    for (let row = 0; row < rows.count; row++)
      if (lists.listOfRow(row) < 0) lists.file(row, lists.nearest(rows.rowVector(row, vector)))
    this.listsInUse = this.relaidOut(lists)
    this.probeShare = serialized.probeShare
    this.trainedRows = serialized.trainedRows
  }

  /**
   * The smallest share of `PROBE_SHARES` whose probes find `CALIBRATION_RECALL` of random rows' exact top-k; 1 when
   * none does (the lists are then kept for the next training, but `probe` declines: scanning more than a quarter of
   * the rows by index is no faster than the sequential exact scan).
   */
  private *calibrateProbeShare(lists: CoarseLists, trainedRows: number, random: () => number): Generator<void, number> {
    const { rows } = this
    const vector = new Float32Array(rows.dim)
    const found = new Float64Array(PROBE_SHARES.length)
    let wanted = 0
    // Each query's exact top-k and its probes at every share are taken in one step, so rows added or removed while
    // this yields cannot count as misses.
    // Drawn among the rows there were when training started, like the training sample, so that rows arriving during
    // training (a bulk import goes on meanwhile) do not change which rows are drawn: drawn among the rows at the end,
    // the same history calibrated different shares from one run to the next.
    for (const row of distinctRows(trainedRows, Math.min(CALIBRATION_QUERIES, trainedRows), random)) {
      if (lists.filed !== rows.count) return 1
      if (row >= rows.count) continue
      const query = rows.rowVector(row, vector)
      const sid = rows.sids[row]
      const truth = searchRows(rows, query, CALIBRATION_K + 1)
        .map((h) => h.sid)
        .filter((s) => s !== sid)
        .slice(0, CALIBRATION_K)
      PROBE_SHARES.forEach((share, i) => {
        const probed = probeRows(rows, lists, share, query)
        const top = new Set(Array.from(probed.sids.subarray(0, CALIBRATION_K + 1)))
        found[i] += truth.filter((s) => top.has(s)).length
      })
      wanted += truth.length
      yield
    }
    const share = PROBE_SHARES.findIndex((_, i) => wanted === 0 || found[i] / wanted >= CALIBRATION_RECALL)
    return share < 0 ? 1 : PROBE_SHARES[share]
  }

  /** `lists` with each centroid the normalised sum of the rows filed under it, every row kept in its list. */
  private recentred(lists: CoarseLists): CoarseLists {
    const { rows } = this
    const { dim } = rows
    const sums = new Float32Array(lists.count * dim)
    const vector = new Float32Array(dim)
    for (let row = 0; row < rows.count; row++) {
      const list = lists.listOfRow(row)
      if (list < 0) continue
      rows.rowVector(row, vector)
      for (let d = 0, at = list * dim; d < dim; d++) sums[at + d] += vector[d]
    }
    normalizeRows(sums, lists.count, dim)
    const centred = new CoarseLists(sums, dim)
    for (let row = 0; row < rows.count; row++) {
      const list = lists.listOfRow(row)
      if (list >= 0) centred.file(row, list)
    }
    return centred
  }

  /**
   * Reorders the rows so that each list's rows lie together, lists in order, and returns the lists for the new row
   * numbers (`lists` itself, rows unmoved, while some row is not filed). A probe then reads its lists' codes nearly
   * sequentially instead of row by row across the whole memory, which makes it measurably faster (BENCHMARKS.md).
   * Rows added later go after the last list's.
   */
  private relaidOut(lists: CoarseLists): CoarseLists {
    const { rows } = this
    const source = new Int32Array(rows.count)
    let at = 0
    for (let list = 0; list < lists.count; list++) for (const row of lists.rows(list)) source[at++] = row
    if (at !== rows.count) return lists
    rows.permute(source)
    const relaid = new CoarseLists(lists.centroids, rows.dim)
    for (let row = 0; row < rows.count; row++) relaid.file(row, lists.listOfRow(source[row]))
    return relaid
  }

  private allLists(): CoarseLists[] {
    const all: CoarseLists[] = []
    if (this.listsInUse) all.push(this.listsInUse)
    if (this.listsInTraining) all.push(this.listsInTraining)
    return all
  }
}
