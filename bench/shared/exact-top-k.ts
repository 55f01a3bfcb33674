/**
 * Ground truth: the `k` rows of `vectors` (rows × dim, unit length) with the highest dot product with `query`,
 * by scoring every row and sorting — deliberately the plainest possible code, independent of the engine under test.
 * Ties go to the lower row, as in Sift.
 */
export function exactTopK(vectors: Float32Array, rows: number, dim: number, query: Float32Array, k: number): number[] {
  const scores = new Float64Array(rows)
  for (let row = 0; row < rows; row++) {
    let dot = 0
    const base = row * dim
    for (let d = 0; d < dim; d++) dot += vectors[base + d] * query[d]
    scores[row] = dot
  }
  const order = Array.from({ length: rows }, (_, row) => row)
  order.sort((a, b) => scores[b] - scores[a] || a - b)
  return order.slice(0, k)
}

/** Share of `truth` found in `found` (recall@|truth|); 1 when truth is empty. */
export function recallOf(found: readonly number[], truth: readonly number[]): number {
  if (truth.length === 0) return 1
  const set = new Set(found)
  return truth.filter((row) => set.has(row)).length / truth.length
}

/**
 * `exactTopK` of every query over rows made chunk by chunk (`fill(first, count, out)` writes rows `first…` into `out`),
 * so that a million rows need one chunk in memory, not 2 GB of floats. The same answer as `exactTopK` over all rows:
 * each chunk's rows that could enter a query's top-k are merged with it and sorted by the same order.
 */
export function exactTopKChunked(
  rows: number,
  dim: number,
  fill: (first: number, count: number, out: Float32Array<ArrayBuffer>) => void,
  queries: readonly Float32Array[],
  k: number,
  chunkRows = 8192,
): number[][] {
  const best = queries.map(() => [] as { row: number; score: number }[])
  const chunk = new Float32Array(chunkRows * dim)
  for (let first = 0; first < rows; first += chunkRows) {
    const count = Math.min(chunkRows, rows - first)
    fill(first, count, chunk)
    queries.forEach((query, q) => {
      const found = best[q]
      const floor = found.length < k ? Number.NEGATIVE_INFINITY : found[k - 1].score
      for (let i = 0; i < count; i++) {
        let dot = 0
        const base = i * dim
        for (let d = 0; d < dim; d++) dot += chunk[base + d] * query[d]
        if (dot >= floor) found.push({ row: first + i, score: dot })
      }
      found.sort((a, b) => b.score - a.score || a.row - b.row)
      found.length = Math.min(found.length, k)
    })
  }
  return best.map((found) => found.map(({ row }) => row))
}
