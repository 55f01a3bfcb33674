import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fuseRanks } from '../../oracles/fuse-ranks'
import { SiftError } from '../../src/errors'

describe('fuseRanks', () => {
  it('sums 1 / (60 + rank) over the lists a key appears in', () => {
    const fused = fuseRanks([
      ['a', 'b', 'c'],
      ['c', 'a'],
    ])
    expect(fused.map((entry) => entry.key)).toEqual(['a', 'c', 'b'])
    expect(fused[0].score).toBeCloseTo(1 / 61 + 1 / 62, 15)
    expect(fused[1].score).toBeCloseTo(1 / 63 + 1 / 61, 15)
    expect(fused[2].score).toBeCloseTo(1 / 62, 15)
  })

  it('uses the given k', () => {
    const fused = fuseRanks([['x', 'y'], ['y']], 0)
    expect(fused).toEqual([
      { key: 'y', score: 1 / 2 + 1 },
      { key: 'x', score: 1 },
    ])
  })

  it('a key agreed on by two lists beats a key on top of one list only', () => {
    expect(
      fuseRanks([
        ['solo', 'both'],
        ['other', 'both'],
      ])[0].key,
    ).toBe('both')
  })

  it('breaks score ties by first appearance', () => {
    const fused = fuseRanks([
      ['x', 'y'],
      ['y', 'x'],
    ])
    expect(fused[0].score).toBe(fused[1].score)
    expect(fused.map((entry) => entry.key)).toEqual(['x', 'y'])
    expect(fuseRanks([['first'], ['second'], ['third']]).map((entry) => entry.key)).toEqual([
      'first',
      'second',
      'third',
    ])
  })

  it('breaks score ties by best rank before first appearance', () => {
    // k = 0 makes the tie exact: a scores 1/2 + 1/2, b and c score 1/1 each.
    const fused = fuseRanks(
      [
        ['b', 'a'],
        ['c', 'a'],
      ],
      0,
    )
    expect(fused).toEqual([
      { key: 'b', score: 1 },
      { key: 'c', score: 1 },
      { key: 'a', score: 1 },
    ])
  })

  it('counts a key repeated within one list only at its first rank', () => {
    expect(fuseRanks([['a', 'a', 'b']])).toEqual([
      { key: 'a', score: 1 / 61 },
      { key: 'b', score: 1 / 63 },
    ])
  })

  it('handles no lists and empty lists', () => {
    expect(fuseRanks([])).toEqual([])
    expect(fuseRanks([[], []])).toEqual([])
  })

  it('works with any key type, by identity', () => {
    const one = { id: 1 }
    const two = { id: 1 }
    expect(fuseRanks([[one, two], [two]]).map((entry) => entry.key)).toEqual([two, one])
    expect(fuseRanks([[3, 1], [1]]).map((entry) => entry.key)).toEqual([1, 3])
  })

  it('rejects a negative or non-finite k', () => {
    for (const k of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => fuseRanks([['a']], k)).toThrow(SiftError)
    }
  })
})

describe('fuseRanks properties', () => {
  const rankings = fc.array(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 25 }), { maxLength: 5 })

  it('scores every key once with the RRF formula, sorted by score, then best rank, then first appearance', () => {
    fc.assert(
      fc.property(rankings, fc.integer({ min: 0, max: 100 }), (lists, k) => {
        const fused = fuseRanks(lists, k)
        const keys = new Set(lists.flat())
        expect(fused.map((entry) => entry.key).sort((a, b) => a - b)).toEqual([...keys].sort((a, b) => a - b))
        const firstAppearance = lists.flat()
        for (const { key, score } of fused) {
          const expected = lists.reduce(
            (sum, list) => (list.includes(key) ? sum + 1 / (k + list.indexOf(key) + 1) : sum),
            0,
          )
          expect(score).toBeCloseTo(expected, 12)
        }
        const bestRank = (key: number) =>
          Math.min(...lists.filter((list) => list.includes(key)).map((list) => list.indexOf(key) + 1))
        for (let i = 1; i < fused.length; i++) {
          const [before, after] = [fused[i - 1], fused[i]]
          expect(before.score).toBeGreaterThanOrEqual(after.score)
          if (before.score === after.score) {
            expect(bestRank(before.key)).toBeLessThanOrEqual(bestRank(after.key))
            if (bestRank(before.key) === bestRank(after.key)) {
              expect(firstAppearance.indexOf(before.key)).toBeLessThan(firstAppearance.indexOf(after.key))
            }
          }
        }
      }),
      { numRuns: 300 },
    )
  })

  it('a single list keeps its order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer(), { maxLength: 50 }), (list) => {
        expect(fuseRanks([list]).map((entry) => entry.key)).toEqual(list)
      }),
    )
  })
})
