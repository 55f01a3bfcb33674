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
