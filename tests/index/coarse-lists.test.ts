import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../worker/util/seeded-random'
import { CoarseLists } from '../../worker/index/vector/coarse-lists'
import { distinctRows, trainCentroids } from '../../worker/index/vector/train-centroids'

function unitRows(rows: number, dim: number, random: () => number): Float32Array {
  const out = new Float32Array(rows * dim)
  for (let r = 0; r < rows; r++) {
    let norm = 0
    for (let d = 0; d < dim; d++) norm += (out[r * dim + d] = random() * 2 - 1) ** 2
    for (let d = 0; d < dim; d++) out[r * dim + d] /= Math.sqrt(norm)
  }
  return out
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, v, d) => sum + v * b[d], 0)

describe('CoarseLists', () => {
  it('finds the nearest centroid and orders all lists as float similarity does (to int8 precision)', () => {
    const random = seededRandom(3)
    const dim = 24
    const centroids = unitRows(40, dim, random)
    const lists = new CoarseLists(centroids, dim)
    for (let q = 0; q < 30; q++) {
      const query = unitRows(1, dim, random)
      const exact = Array.from({ length: 40 }, (_, l) => dot(query, centroids.subarray(l * dim, (l + 1) * dim)))
      const order = lists.nearestLists(query, Infinity)
      expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, l) => l))
      for (let i = 1; i < order.length; i++) expect(exact[order[i - 1]]).toBeGreaterThan(exact[order[i]] - 0.02)
      expect(exact[lists.nearest(query)]).toBeCloseTo(Math.max(...exact), 1)
      expect(lists.nearest(query)).toBe(order[0])
    }
  })

  it('keeps every row in exactly one list through file, refile, unfile and move', () => {
    const random = seededRandom(9)
    const lists = new CoarseLists(unitRows(5, 16, random), 16)
    const expected = new Map<number, number>()
    for (let step = 0; step < 3000; step++) {
      const row = Math.floor(random() * 200)
      const action = random()
      if (action < 0.5) {
        const list = Math.floor(random() * 5)
        lists.file(row, list)
        expected.set(row, list)
      } else if (action < 0.7) {
        lists.unfile(row)
        expected.delete(row)
      } else {
        // The vector index moves its last row into a hole: `to` is empty (or about to be overwritten).
        const to = Math.floor(random() * 200)
        if (to === row) continue
        lists.move(row, to)
        expected.delete(to)
        if (expected.has(row)) expected.set(to, expected.get(row)!)
        expected.delete(row)
      }
    }
    expect(lists.filed).toBe(expected.size)
    const seen = new Map<number, number>()
    for (let list = 0; list < 5; list++)
      for (const row of lists.rows(list)) {
        expect(seen.has(row)).toBe(false)
        seen.set(row, list)
      }
    expect(seen).toEqual(expected)
    for (const [row, list] of expected) expect(lists.listOfRow(row)).toBe(list)
  })
})

describe('trainCentroids', () => {
  it('partitions well-separated clusters into nearly pure lists of unit centroids, yielding as it goes', () => {
    const random = seededRandom(5)
    const dim = 32
    const truth = unitRows(8, dim, random)
    const rows = 800
    const sample = new Float32Array(rows * dim)
    for (let r = 0; r < rows; r++) {
      for (let d = 0; d < dim; d++) sample[r * dim + d] = truth[(r % 8) * dim + d] + (random() - 0.5) * 0.1
    }
    const steps = trainCentroids(sample, rows, dim, 8, 6, seededRandom(1))
    let yields = 0
    let result = steps.next()
    for (; !result.done; result = steps.next()) yields++
    const centroids = result.value
    expect(yields).toBeGreaterThan(6)
    for (let c = 0; c < 8; c++) expect(Math.hypot(...centroids.subarray(c * dim, (c + 1) * dim))).toBeCloseTo(1, 5)
    const lists = new CoarseLists(centroids, dim)
    // Random seeds may put two in one cluster and leave two clusters to share a list; most rows still sit with their own.
    const members = Array.from({ length: 8 }, () => new Array<number>(8).fill(0))
    for (let r = 0; r < rows; r++) members[lists.nearest(sample.subarray(r * dim, (r + 1) * dim))][r % 8]++
    const purity = members.reduce((sum, counts) => sum + Math.max(...counts), 0) / rows
    expect(purity).toBeGreaterThanOrEqual(0.85)
    expect(
      members.filter((counts) => Math.max(...counts) === counts.reduce((a, b) => a + b, 0) && counts.some((c) => c > 0))
        .length,
    ).toBeGreaterThanOrEqual(6)
  })

  it('draws distinct rows', () => {
    const rows = distinctRows(1000, 300, seededRandom(2))
    expect(new Set(rows).size).toBe(300)
    expect(Math.max(...rows)).toBeLessThan(1000)
    expect(Math.min(...rows)).toBeGreaterThanOrEqual(0)
  })
})
