import { grownArray } from '../../util/grown-array'
import { quantizeQuery, quantizeRows } from './quantize-vector'
import { dotKernels, kernelMemory, type KernelMemory } from './kernel-memory'
import { queryLimit, ROW_ALIGN, type DotKernel } from './simd-scan'
import { TopK } from './top-k'

/** Lists at most. */
export const MAX_LISTS = 4096

/**
 * The inverted lists of an IVF index over a `VectorIndex`'s rows: `count` unit centroids, and each row filed under
 * the centroid most similar to it. A query then scans only the rows of the lists whose centroids are most similar
 * to it (`VectorIndex.probe`) instead of every row. Rows are the vector index's row numbers; the index tells the
 * lists when a row is added, removed or moved.
 */
export class CoarseLists {
  readonly count: number
  private readonly stride: number
  private readonly memory: KernelMemory
  private readonly kernel: DotKernel
  private readonly centroidScales: Float32Array
  private readonly queryAt: number
  private readonly outAt: number
  /** By row: its list, or -1 while it has none; and its position in that list. */
  private listOf = new Int32Array(0)
  private slotOf = new Int32Array(0)
  private readonly members: Int32Array[]
  private readonly sizes: Int32Array
  private filedRows = 0

  /** `centroids`: `count × dim` floats, unit length (kept for persistence: `centroids`). */
  constructor(
    readonly centroids: Float32Array,
    readonly dim: number,
  ) {
    this.count = Math.floor(centroids.length / dim)
    if (this.count < 1 || this.count > MAX_LISTS)
      throw new RangeError(`CoarseLists: ${this.count} lists, not between 1 and ${MAX_LISTS}`)
    this.stride = Math.ceil(dim / ROW_ALIGN) * ROW_ALIGN
    this.queryAt = this.count * this.stride
    this.outAt = this.queryAt + this.stride * 2
    const bytes = this.outAt + this.count * 4
    this.memory = kernelMemory(bytes)
    this.kernel = dotKernels(this.memory).dots
    this.centroidScales = new Float32Array(this.count)
    quantizeRows(
      centroids,
      this.count,
      dim,
      new Int8Array(this.memory.buffer, 0, this.count * this.stride),
      this.stride,
      this.centroidScales,
    )
    this.members = Array.from({ length: this.count }, () => new Int32Array(16))
    this.sizes = new Int32Array(this.count)
  }

  /** Rows filed under some list. */
  get filed(): number {
    return this.filedRows
  }

  /** Similarity of `vector` to each centroid (int8 centroids against the int16-rounded vector: about 10⁻³ off). */
  similarities(vector: Float32Array): Float32Array {
    const { dots, scale } = this.centroidDots(vector)
    const out = new Float32Array(this.count)
    for (let list = 0; list < this.count; list++) out[list] = dots[list] * this.centroidScales[list] * scale
    return out
  }

  /** The list whose centroid is most similar to `vector` (ties: the lower list). */
  nearest(vector: Float32Array): number {
    const { dots } = this.centroidDots(vector)
    const scales = this.centroidScales
    let best = 0
    let bestSimilarity = dots[0] * scales[0]
    for (let list = 1; list < this.count; list++) {
      const similarity = dots[list] * scales[list]
      if (similarity > bestSimilarity) {
        best = list
        bestSimilarity = similarity
      }
    }
    return best
  }

  /**
   * The lists most similar to `query`, best first (ties: the lower list), as many as it takes to hold `rows` rows
   * (all lists if they hold fewer). Selects the best 32 lists first and only ranks more when those hold too few.
   */
  nearestLists(query: Float32Array, rows: number): number[] {
    const similarity = this.similarities(query)
    for (let take = Math.min(this.count, 32); ; take = Math.min(this.count, take * 4)) {
      const best = new TopK(take)
      for (let list = 0; list < this.count; list++)
        if (similarity[list] >= best.threshold) best.offer(similarity[list], list)
      const lists: number[] = []
      let held = 0
      for (const { key: list } of best.sorted()) {
        lists.push(list)
        held += this.sizes[list]
        if (held >= rows) return lists
      }
      if (take === this.count) return lists
    }
  }

  /** Integer dots of the int8 centroids with the int16-rounded vector, and that vector's scale (common to all). */
  private centroidDots(vector: Float32Array): { dots: Int32Array; scale: number } {
    const { count, stride } = this
    const query = new Int16Array(this.memory.buffer, this.queryAt, stride)
    const scale = quantizeQuery(vector.subarray(0, this.dim), queryLimit(stride), query)
    this.kernel(0, count, stride, this.queryAt, this.outAt)
    return { dots: new Int32Array(this.memory.buffer, this.outAt, count), scale }
  }

  /** The rows filed under `list` (a view: valid until the lists change). */
  rows(list: number): Int32Array {
    return this.members[list].subarray(0, this.sizes[list])
  }

  size(list: number): number {
    return this.sizes[list]
  }

  listOfRow(row: number): number {
    return row < this.listOf.length ? this.listOf[row] : -1
  }

  /** Files `row` under `list` (moving it if it was filed elsewhere). */
  file(row: number, list: number): void {
    this.unfile(row)
    this.ensureRows(row + 1)
    let members = this.members[list]
    const slot = this.sizes[list]++
    if (slot >= members.length) members = this.members[list] = grownArray(members, members.length * 2)
    members[slot] = row
    this.listOf[row] = list
    this.slotOf[row] = slot
    this.filedRows++
  }

  /** Takes `row` out of its list (the list's last row takes its slot). */
  unfile(row: number): void {
    const list = this.listOfRow(row)
    if (list < 0) return
    const members = this.members[list]
    const slot = this.slotOf[row]
    const last = --this.sizes[list]
    if (slot !== last) {
      const moved = members[last]
      members[slot] = moved
      this.slotOf[moved] = slot
    }
    this.listOf[row] = -1
    this.filedRows--
  }

  /** The vector index moved its row `from` to `to` (an empty row number): the lists follow. */
  move(from: number, to: number): void {
    this.unfile(to)
    const list = this.listOfRow(from)
    if (list < 0) return
    this.ensureRows(to + 1)
    const slot = this.slotOf[from]
    this.members[list][slot] = to
    this.listOf[to] = list
    this.slotOf[to] = slot
    this.listOf[from] = -1
  }

  private ensureRows(length: number): void {
    if (length <= this.listOf.length) return
    const capacity = Math.max(length, 2 * this.listOf.length, 1024)
    this.listOf = grownArray(this.listOf, capacity, -1)
    this.slotOf = grownArray(this.slotOf, capacity)
  }
}
