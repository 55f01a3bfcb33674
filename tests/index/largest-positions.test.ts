import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../worker/util/seeded-random'
import { largestPositions } from '../../worker/index/vector/largest-positions'

/** The reference: sort every position by value (descending), then tie key. */
function byFullSort(values: Float64Array, count: number, k: number, tieKey: ArrayLike<number>): number[] {
  return Array.from({ length: count }, (_, i) => i)
    .sort((a, b) => values[b] - values[a] || tieKey[a] - tieKey[b])
    .slice(0, k)
}

describe('largestPositions', () => {
  it('equals a full sort’s first k as a set, on random, tied, sorted and reversed values, for every k', () => {
    const random = seededRandom(3)
    const cases: Float64Array[] = [
      Float64Array.from({ length: 300 }, () => random() * 2 - 1),
      Float64Array.from({ length: 300 }, () => Math.floor(random() * 5)),
      Float64Array.from({ length: 200 }, (_, i) => i),
      Float64Array.from({ length: 200 }, (_, i) => -i),
      new Float64Array(50).fill(0.5),
    ]
    for (const values of cases) {
      const tieKey = Array.from({ length: values.length }, () => Math.floor(random() * 1e6))
      for (const count of [values.length, values.length - 7]) {
        for (const k of [0, 1, 2, 17, 96, 256, count - 1, count, count + 5]) {
          const got = Array.from(largestPositions(values, count, k, tieKey)).sort((a, b) => a - b)
          expect(got).toEqual(byFullSort(values, count, k, tieKey).sort((a, b) => a - b))
        }
      }
    }
  })

  it('leaves the values untouched and ignores those past count', () => {
    const values = Float64Array.from([3, 9, 1, 7, 100])
    expect(Array.from(largestPositions(values, 4, 2, [0, 1, 2, 3])).sort()).toEqual([1, 3])
    expect(Array.from(values)).toEqual([3, 9, 1, 7, 100])
  })
})
