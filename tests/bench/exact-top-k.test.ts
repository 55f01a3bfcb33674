import { describe, expect, it } from 'vitest'
import { exactTopK, exactTopKChunked } from '../../bench/shared/exact-top-k'
import { SyntheticVectors } from '../../bench/shared/synthetic-vectors'

describe('exactTopKChunked', () => {
  const generator = new SyntheticVectors(32)
  const rows = 1000
  const vectors = new Float32Array(rows * 32)
  // Topics repeat so that many rows are near each query; rows 500–509 copy row 3, so ties must go to the lower row.
  for (let i = 0; i < rows; i++) {
    const item = i < 500 || i > 509 ? i : 3
    generator.sentence(item, item % 7, item % 3, vectors.subarray(i * 32, (i + 1) * 32))
  }
  const fill = (first: number, count: number, out: Float32Array) =>
    out.set(vectors.subarray(first * 32, (first + count) * 32))
  const queries = [0, 1, 2].map((q) => generator.query(q, q % 7, q % 3))

  it('gives exactTopK’s answer over every row, whatever the chunk size', () => {
    const whole = queries.map((q) => exactTopK(vectors, rows, 32, q, 50))
    for (const chunkRows of [1, 37, 256, 5000])
      expect(exactTopKChunked(rows, 32, fill, queries, 50, chunkRows)).toEqual(whole)
  })

  it('puts a tied copy after the row it copies', () => {
    const query = vectors.slice(3 * 32, 4 * 32)
    expect(exactTopKChunked(rows, 32, fill, [query], 11, 64)[0]).toEqual([
      3, 500, 501, 502, 503, 504, 505, 506, 507, 508, 509,
    ])
  })
})
