import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../worker/util/seeded-random'
import { quantizeVectors } from '../../worker/index/vector/quantize-vector'
import { VectorRows } from '../../worker/index/vector/vector-rows'

const dim = 19

/** Rows of sids 1 … count, conversation `c{sid % 3}`, random vectors with both layers. */
function filledRows(count: number, random: () => number): VectorRows {
  const rows = new VectorRows(dim, 4, { rescoreRoom: 8 })
  const vectors = Float32Array.from({ length: count * dim }, () => random() * 2 - 1)
  rows.add(
    Array.from({ length: count }, (_, i) => i + 1),
    quantizeVectors(vectors, count, dim),
    (sid) => `c${sid % 3}`,
  )
  return rows
}

/** Each sid's stored vector, conversation number and memoised penalty, by sid. */
function contentsBySid(rows: VectorRows): Map<number, { vector: number[]; conversation: number; penalty: number }> {
  const out = new Map<number, { vector: number[]; conversation: number; penalty: number }>()
  const vector = new Float32Array(dim)
  for (let row = 0; row < rows.count; row++) {
    const sid = rows.sids[row]
    expect(rows.rowOf(sid)).toBe(row)
    const penalty = rows.memoizedPenalty(row, () => {
      throw new Error(`penalty of ${sid} asked again`)
    })
    out.set(sid, { vector: Array.from(rows.rowVector(row, vector)), conversation: rows.conversations[row], penalty })
  }
  return out
}

describe('VectorRows', () => {
  it('appends only rows whose sentence is known and not held yet, numbering conversations by first sight', () => {
    const rows = filledRows(5, seededRandom(1))
    const layers = quantizeVectors(new Float32Array(3 * dim).fill(0.5), 3, dim)
    const start = rows.add([4, 6, 7], layers, (sid) => (sid === 7 ? undefined : 'new'))
    expect(start).toBe(5)
    expect(rows.count).toBe(6)
    expect(rows.rowOf(6)).toBe(5)
    expect(rows.rowOf(7)).toBeUndefined()
    expect(rows.conversationNumber('c1')).toBe(0)
    expect(rows.conversationNumber('new')).toBe(3)
    expect(rows.conversations[5]).toBe(3)
  })

  it('asks a row’s penalty once and keeps it with the row through removals and permutations', () => {
    const random = seededRandom(4)
    const rows = filledRows(40, random)
    let asked = 0
    for (let row = 0; row < rows.count; row++) {
      rows.memoizedPenalty(row, (sid) => {
        asked++
        return sid / 100
      })
    }
    expect(asked).toBe(40)
    const before = contentsBySid(rows)

    const removal = rows.remove(7)!
    expect(removal).toEqual({ row: 6, movedFrom: 39 })
    expect(rows.sids[6]).toBe(40)
    expect(rows.remove(7)).toBeUndefined()
    expect(rows.remove(40)).toEqual({ row: 6, movedFrom: 38 })
    expect(rows.sids[6]).toBe(39)
    const lastSid = rows.sids[rows.count - 1]
    expect(rows.remove(lastSid)).toEqual({ row: 37, movedFrom: 37 })
    for (const sid of [7, 40, lastSid]) before.delete(sid)

    const source = Int32Array.from({ length: rows.count }, (_, i) => i)
    for (let i = source.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1))
      ;[source[i], source[j]] = [source[j], source[i]]
    }
    const sidAt = Array.from(rows.sids.subarray(0, rows.count))
    rows.permute(source)
    expect(Array.from(rows.sids.subarray(0, rows.count))).toEqual(Array.from(source, (from) => sidAt[from]))
    expect(contentsBySid(rows)).toEqual(before)
  })

  it('keeps rows and their residuals through growth, and gives late residuals to held sids only', () => {
    const rows = filledRows(3, seededRandom(8))
    const vector = new Float32Array(dim)
    const first = Array.from(rows.rowVector(0, vector))
    const more = 300
    rows.add(
      Array.from({ length: more }, (_, i) => 100 + i),
      quantizeVectors(
        Float32Array.from({ length: more * dim }, (_, i) => Math.sin(i)),
        more,
        dim,
      ),
      () => 'c',
    )
    expect(Array.from(rows.rowVector(0, vector))).toEqual(first)
    const codesOnly = new VectorRows(dim, 4, { rescoreRoom: 8 })
    const { codes, scales, residuals, residualScales } = quantizeVectors(
      Float32Array.from({ length: dim }, (_, d) => d / dim),
      1,
      dim,
    )
    codesOnly.add([9], { codes, scales }, () => 'c')
    const withoutResidual = Array.from(codesOnly.rowVector(0, vector))
    codesOnly.setResiduals(
      [8, 9],
      Int8Array.from([...new Int8Array(dim).fill(1), ...residuals]),
      Float32Array.of(1, residualScales[0]),
    )
    const full = new VectorRows(dim, 4, { rescoreRoom: 8 })
    full.add([9], { codes, scales, residuals, residualScales }, () => 'c')
    expect(Array.from(codesOnly.rowVector(0, vector))).toEqual(Array.from(full.rowVector(0, new Float32Array(dim))))
    expect(Array.from(codesOnly.rowVector(0, vector))).not.toEqual(withoutResidual)
  })
})
