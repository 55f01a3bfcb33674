import { describe, expect, it } from 'vitest'
import { seededRandom as random } from '../../worker/util/seeded-random'
import { quantizeQuery, quantizeResiduals, quantizeRows } from '../../worker/index/vector/quantize-vector'
import { queryLimit, ROW_ALIGN } from '../../worker/index/vector/simd-scan'
import { VectorIndex } from '../../worker/index/vector/vector-index'
import { VECTOR_TUNING } from '../../worker/index/vector/vector-tuning'

const { rescoredRows } = VECTOR_TUNING

/** The query as the index rounds it: int16 values and their scale. */
function int16Query(query: Float32Array): { q: Int16Array; scale: number } {
  const q = new Int16Array(query.length)
  const scale = quantizeQuery(query, queryLimit(Math.ceil(query.length / ROW_ALIGN) * ROW_ALIGN), q)
  return { q, scale }
}

/**
 * The index's arithmetic written out plainly, for indexes of at most rescoredRows rows (all re-scored): integer sums
 * of both int8 layers of the row with the int16-rounded query, (codes · q × scale + residuals · q × residualScale) × query scale.
 */
function bruteForce(
  rows: Map<number, { vector: Float32Array; conversationId: string }>,
  query: Float32Array,
  k: number,
  conversationId?: string,
) {
  const { q, scale: queryScale } = int16Query(query)
  return [...rows]
    .filter(([, row]) => conversationId === undefined || row.conversationId === conversationId)
    .map(([sid, row]) => {
      const codes = new Int8Array(row.vector.length)
      const scales = new Float32Array(1)
      const residuals = new Int8Array(row.vector.length)
      const residualScales = new Float32Array(1)
      quantizeRows(row.vector, 1, row.vector.length, codes, row.vector.length, scales)
      quantizeResiduals(row.vector, 1, row.vector.length, codes, row.vector.length, scales, residuals, residualScales)
      let first = 0
      let second = 0
      codes.forEach((c, d) => {
        first += c * q[d]
        second += residuals[d] * q[d]
      })
      return { sid, score: (first * scales[0] + second * residualScales[0]) * queryScale }
    })
    .sort((a, b) => b.score - a.score || a.sid - b.sid)
    .slice(0, k)
}

describe('VectorIndex', () => {
  it.each([true, false])(
    'top-k equals a brute-force sort, with filters, removals, growth and ties (simd %s)',
    (simd) => {
      const next = random(7)
      const dim = 19
      const index = new VectorIndex(dim, 4, { simd })
      const rows = new Map<number, { vector: Float32Array; conversationId: string }>()
      for (let batch = 0; batch < 20; batch++) {
        const sids = Array.from({ length: 25 }, (_, i) => 1 + batch * 25 + i)
        // Every fifth row repeats the previous one exactly, so ties must break by sid.
        const vectors = new Float32Array(sids.length * dim)
        sids.forEach((sid, i) => {
          for (let d = 0; d < dim; d++)
            vectors[i * dim + d] = i % 5 === 4 ? vectors[(i - 1) * dim + d] : Math.round((next() * 2 - 1) * 8) / 8
          rows.set(sid, { vector: vectors.slice(i * dim, (i + 1) * dim), conversationId: `c${sid % 3}` })
        })
        index.add(sids, vectors, (sid) => rows.get(sid)!.conversationId)
        // Removals and searches between growths leave moved rows and scratch (query, dots) where the next growth clears.
        const early = sids.filter((sid) => sid % 11 === 0)
        index.remove(early)
        for (const sid of early) rows.delete(sid)
        index.search(
          Float32Array.from({ length: dim }, () => next() * 2 - 1),
          3,
        )
      }
      const removed = [...rows.keys()].filter((sid) => sid % 7 === 0)
      index.remove(removed)
      for (const sid of removed) rows.delete(sid)
      expect(index.size).toBe(rows.size)
      for (let q = 0; q < 30; q++) {
        const query = Float32Array.from({ length: dim }, () => next() * 2 - 1)
        for (const k of [1, 5, 37, rows.size, rows.size + 10]) {
          expect(index.search(query, k).map((h) => h.sid)).toEqual(bruteForce(rows, query, k).map((h) => h.sid))
          expect(index.search(query, k, { conversationId: 'c1' }).map((h) => h.sid)).toEqual(
            bruteForce(rows, query, k, 'c1').map((h) => h.sid),
          )
        }
        const [best] = index.search(query, 1)
        expect(best.score).toBe(bruteForce(rows, query, 1)[0].score)
        const exact = [...rows.values()].map((row) => row.vector.reduce((sum, v, d) => sum + v * query[d], 0))
        const scores = index.scan(query)
        for (let i = 0; i < scores.count; i++) {
          const row = rows.get(scores.sids[i])!
          const float = row.vector.reduce((sum, v, d) => sum + v * query[d], 0)
          expect(Math.abs(scores.raw[i] - float)).toBeLessThan(0.02 * Math.max(1, ...exact.map(Math.abs)))
        }
      }
      expect(index.search(new Float32Array(dim), 3, { conversationId: 'unknown' })).toEqual([])
    },
  )

  it.each([true, false])(
    'keeps every row slot’s padding zero across growths, removals and searches (simd %s)',
    (simd) => {
      // dim 19 pads each row to the kernel's stride; rows are written dim bytes at a time, so the padding of a slot a
      // new row lands in must already be zero — also where a growth moved the old residuals and scratch away.
      const next = random(11)
      const dim = 19
      const index = new VectorIndex(dim, 4, { simd })
      const internal = (index as unknown as { rows: { codes: Int8Array; residuals: Int8Array; stride: number } }).rows
      const paddingIsZero = (layer: Int8Array) => {
        const { stride } = internal
        for (let slot = 0; slot < layer.length / stride; slot++)
          for (let b = slot * stride + dim; b < (slot + 1) * stride; b++) if (layer[b] !== 0) return false
        return true
      }
      let sid = 0
      for (let batch = 0; batch < 12; batch++) {
        const sids = Array.from({ length: 9 + batch * 3 }, () => ++sid)
        index.add(
          sids,
          Float32Array.from({ length: sids.length * dim }, () => next() * 2 - 1),
          () => 'c',
        )
        index.remove(sids.filter((s) => s % 4 === 0))
        index.search(
          Float32Array.from({ length: dim }, () => next() * 2 - 1),
          5,
        )
        expect(internal.stride).toBeGreaterThan(dim)
        expect(paddingIsZero(internal.codes)).toBe(true)
        expect(paddingIsZero(internal.residuals)).toBe(true)
      }
    },
  )

  it('loads stored blocks and skips rows whose sentence is gone', () => {
    const index = new VectorIndex(2)
    index.addBlocks(
      [
        {
          blockId: 1,
          model: 'm',
          dim: 2,
          firstSid: 1,
          lastSid: 3,
          sids: Float64Array.from([1, 2, 3]),
          codes: Int8Array.from([127, 0, 0, 127, 95, 127]),
          scales: Float32Array.from([1 / 127, 1 / 127, 0.8 / 127]),
        },
      ],
      (sid) => (sid === 2 ? undefined : 'c'),
    )
    expect(index.size).toBe(2)
    expect(index.has(2)).toBe(false)
    expect(index.search(Float32Array.from([0, 1]), 5)).toEqual([
      { sid: 3, score: expect.closeTo(0.8, 4) },
      { sid: 1, score: 0 },
    ])
  })
})

describe('VectorIndex re-scoring', () => {
  it('re-scores the best rows to within 1e-4 of float32 and keeps the int8 score below them', () => {
    const next = random(11)
    const dim = 64
    const rows = rescoredRows + 300
    const vectors = new Float32Array(rows * dim)
    for (let r = 0; r < rows; r++) {
      let norm = 0
      for (let d = 0; d < dim; d++) norm += (vectors[r * dim + d] = next() * 2 - 1) ** 2
      for (let d = 0; d < dim; d++) vectors[r * dim + d] /= Math.sqrt(norm)
    }
    const index = new VectorIndex(dim)
    index.add(
      Array.from({ length: rows }, (_, r) => r + 1),
      vectors,
      () => 'c',
    )
    const query = vectors.slice(0, dim)
    const exact = (sid: number) =>
      vectors.subarray((sid - 1) * dim, sid * dim).reduce((sum, v, d) => sum + v * query[d], 0)
    const scores = index.scan(query)
    const order = Array.from({ length: rows }, (_, i) => i).sort((a, b) => scores.raw[b] - scores.raw[a])
    const error = order.map((i) => Math.abs(scores.raw[i] - exact(scores.sids[i])))
    expect(Math.max(...error.slice(0, rescoredRows))).toBeLessThan(1e-4)
    // The rest keep their int8 score, a coarser estimate (the test would fail if they were re-scored too).
    expect(Math.max(...error.slice(rescoredRows))).toBeGreaterThan(1e-4)
    const top = [...Array(rows).keys()]
      .map((r) => r + 1)
      .sort((a, b) => exact(b) - exact(a))
      .slice(0, 50)
    expect(index.search(query, 50).map((h) => h.sid)).toEqual(top)
  })

  it('ranks rows of a block stored without residuals (format 1) by their int8 value alone (with the int16-rounded query)', () => {
    const dim = 2
    const block = {
      blockId: 1,
      model: 'm',
      dim,
      firstSid: 1,
      lastSid: 2,
      sids: Float64Array.from([1, 2]),
      codes: Int8Array.from([127, 0, 90, 90]),
      scales: Float32Array.from([1 / 127, 0.7 / 90]),
    }
    const index = new VectorIndex(dim)
    index.addBlocks([block], () => 'c')
    const query = Float32Array.from([0.6, 0.8])
    const scores = index.scan(query)
    const { q, scale } = int16Query(query)
    expect(scores.raw[0]).toBe(127 * q[0] * Math.fround(1 / 127) * scale)
    expect(scores.raw[1]).toBe(90 * (q[0] + q[1]) * Math.fround(0.7 / 90) * scale)
    expect(scores.raw[0]).toBeCloseTo(0.6, 4)
  })
})

describe('VectorIndex residuals loaded after the codes', () => {
  it('scores a row from codes alone until setResiduals, then exactly as if added with both layers', () => {
    const dim = 3
    const vector = Float32Array.from([0.3, -0.5, 0.81])
    const codes = new Int8Array(dim)
    const scales = new Float32Array(1)
    const residuals = new Int8Array(dim)
    const residualScales = new Float32Array(1)
    quantizeRows(vector, 1, dim, codes, dim, scales)
    quantizeResiduals(vector, 1, dim, codes, dim, scales, residuals, residualScales)
    const late = new VectorIndex(dim)
    late.addBlocks(
      [{ blockId: 1, model: 'm', dim, firstSid: 4, lastSid: 4, sids: Float64Array.from([4]), codes, scales }],
      () => 'c',
    )
    const full = new VectorIndex(dim)
    full.add([4], vector, () => 'c')
    const query = Float32Array.from([0.6, 0.8, 0])
    const before = late.scan(query).raw[0]
    late.setResiduals([4, 99], Int8Array.from([...residuals, 1, 1, 1]), Float32Array.from([residualScales[0], 1]))
    expect(late.scan(query).raw[0]).toBe(full.scan(query).raw[0])
    expect(before).not.toBe(full.scan(query).raw[0])
  })
})
