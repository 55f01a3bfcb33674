/** Scales each of `rows` vectors of `dim` (row-major) to unit length, in place; a zero vector stays zero. */
export function normalizeRows(vectors: Float32Array, rows: number, dim: number): void {
  for (let row = 0; row < rows; row++) {
    let norm = 0
    for (let d = 0; d < dim; d++) norm += vectors[row * dim + d] ** 2
    norm = Math.sqrt(norm)
    if (norm > 0) for (let d = 0; d < dim; d++) vectors[row * dim + d] /= norm
  }
}
