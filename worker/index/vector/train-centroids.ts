import { CoarseLists } from './coarse-lists'
import { normalizeRows } from './normalize-rows'

/** Sample rows assigned between two yields of `trainCentroids`: a few milliseconds of work. */
const ROWS_PER_SLICE = 256

/**
 * Spherical k-means (Lloyd's iterations on unit vectors, similarity = dot product) over `rows` sample vectors:
 * `count` unit centroids, seeded with distinct random sample rows. A cluster left empty is re-seeded with a random
 * sample row. (k-means++ seeding, tried, drew noisy outliers as seeds, and a probe then had to scan far more rows for
 * the recall random seeds reach: BENCHMARKS.md.) A generator that yields every `ROWS_PER_SLICE` rows, so a worker
 * can answer requests in between; its return value is the `count × dim` centroids.
 * Approximate on purpose: the lists only choose which rows a query scans, and probing several lists absorbs a
 * centroid that is off by a little.
 */
export function* trainCentroids(
  sample: Float32Array,
  rows: number,
  dim: number,
  count: number,
  iterations: number,
  random: () => number,
): Generator<void, Float32Array> {
  if (rows < count) throw new RangeError(`trainCentroids: ${rows} sample rows cannot seed ${count} centroids`)
  const centroids = new Float32Array(count * dim)
  distinctRows(rows, count, random).forEach((row, list) =>
    centroids.set(sample.subarray(row * dim, (row + 1) * dim), list * dim),
  )
  normalizeRows(centroids, count, dim)
  for (let iteration = 0; iteration < iterations; iteration++) {
    const lists = new CoarseLists(centroids, dim)
    const sums = new Float64Array(count * dim)
    const members = new Int32Array(count)
    for (let row = 0; row < rows; row++) {
      const vector = sample.subarray(row * dim, (row + 1) * dim)
      const list = lists.nearest(vector)
      members[list]++
      for (let d = 0, at = list * dim; d < dim; d++) sums[at + d] += vector[d]
      if ((row + 1) % ROWS_PER_SLICE === 0) yield
    }
    yield
    for (let list = 0; list < count; list++) {
      if (members[list] === 0) {
        const row = Math.floor(random() * rows)
        centroids.set(sample.subarray(row * dim, (row + 1) * dim), list * dim)
      } else {
        for (let d = 0; d < dim; d++) centroids[list * dim + d] = sums[list * dim + d]
      }
    }
    normalizeRows(centroids, count, dim)
  }
  return centroids
}

/** `count` distinct row numbers below `rows`, in random order (a partial Fisher–Yates shuffle). */
export function distinctRows(rows: number, count: number, random: () => number): Int32Array {
  const order = new Int32Array(rows)
  for (let i = 0; i < rows; i++) order[i] = i
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (rows - i))
    const swap = order[i]
    order[i] = order[j]
    order[j] = swap
  }
  return order.slice(0, count)
}
