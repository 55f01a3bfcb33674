/**
 * Per-vector symmetric int8: each vector is stored as `dim` signed bytes and one float scale (its largest
 * magnitude / 127), so value ≈ code × scale. A quarter of float32's bytes, and a dot product of two such vectors is
 * an integer sum the SIMD kernel computes exactly; the rounding moves a unit vector's cosine by about 10⁻⁴.
 */
export const INT8_LIMIT = 127

/**
 * Vectors in this codec, row-major and `dim` apart: value ≈ code × scale, or with the residual layer
 * (`quantizeResiduals`) value ≈ code × scale + residual × residualScale. Without it a row reads as if its residual
 * were zero.
 */
export interface QuantizedVectors {
  codes: Int8Array
  scales: Float32Array
  residuals?: Int8Array
  residualScales?: Float32Array
}

/** Both int8 layers of `rows` float vectors of `dim` (`quantizeRows`, then `quantizeResiduals`), `dim` apart. */
export function quantizeVectors(vectors: Float32Array, rows: number, dim: number): Required<QuantizedVectors> {
  const codes = new Int8Array(rows * dim)
  const scales = new Float32Array(rows)
  const residuals = new Int8Array(rows * dim)
  const residualScales = new Float32Array(rows)
  quantizeRows(vectors, rows, dim, codes, dim, scales)
  quantizeResiduals(vectors, rows, dim, codes, dim, scales, residuals, residualScales)
  return { codes, scales, residuals, residualScales }
}

/**
 * Quantises `rows` vectors of `dim` floats into `codes` (row r at `r × stride`, dims past `dim` left untouched) and
 * `scales`. A zero vector gets scale 0 and zero codes.
 */
export function quantizeRows(
  vectors: Float32Array,
  rows: number,
  dim: number,
  codes: Int8Array,
  stride: number,
  scales: Float32Array,
): void {
  for (let row = 0; row < rows; row++) {
    const base = row * dim
    let largest = 0
    for (let d = 0; d < dim; d++) largest = Math.max(largest, Math.abs(vectors[base + d]))
    const scale = Math.fround(largest / INT8_LIMIT)
    scales[row] = scale
    const target = row * stride
    for (let d = 0; d < dim; d++)
      codes[target + d] =
        scale === 0 ? 0 : Math.max(-INT8_LIMIT, Math.min(INT8_LIMIT, Math.round(vectors[base + d] / scale)))
  }
}

/** The query as int16 values with magnitude ≤ `limit` (into `out`, rest zero) and the scale that maps them back. */
export function quantizeQuery(query: Float32Array, limit: number, out: Int16Array): number {
  let largest = 0
  for (let d = 0; d < query.length; d++) largest = Math.max(largest, Math.abs(query[d]))
  out.fill(0)
  if (largest === 0) return 0
  const scale = largest / limit
  for (let d = 0; d < query.length; d++) out[d] = Math.round(query[d] / scale)
  return scale
}

/**
 * The second layer: each row's rounding error `vector − code × scale`, quantised the same way (`quantizeRows`) into
 * `residuals` (row r at `r × dim`) and `residualScales`. Code plus residual reproduces the vector to about scale / 254
 * per dimension, so a re-scored dot product is exact to about 10⁻⁵ for unit vectors. `codes` must hold `vectors`'
 * first layer, `stride` apart.
 */
export function quantizeResiduals(
  vectors: Float32Array,
  rows: number,
  dim: number,
  codes: Int8Array,
  stride: number,
  scales: Float32Array,
  residuals: Int8Array,
  residualScales: Float32Array,
): void {
  const error = new Float32Array(rows * dim)
  for (let row = 0; row < rows; row++) {
    for (let d = 0; d < dim; d++) error[row * dim + d] = vectors[row * dim + d] - codes[row * stride + d] * scales[row]
  }
  quantizeRows(error, rows, dim, residuals, dim, residualScales)
}
