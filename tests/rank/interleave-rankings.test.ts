import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { interleaveRankings } from '../../oracles/interleave-rankings'

describe('interleaveRankings', () => {
  it('takes the first of each list, then the second of each, and so on', () => {
    expect(interleaveRankings([['a1', 'a2', 'a3'], ['b1', 'b2'], ['c1']])).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3'])
  })

  it('skips a key already taken', () => {
    expect(
      interleaveRankings([
        ['x', 'y', 'z'],
        ['x', 'z', 'w'],
      ]),
    ).toEqual(['x', 'y', 'z', 'w'])
    expect(interleaveRankings([['x', 'x', 'y']])).toEqual(['x', 'y'])
  })

  it('handles no lists and empty lists', () => {
    expect(interleaveRankings([])).toEqual([])
    expect(interleaveRankings([[], ['a'], []])).toEqual(['a'])
  })

  it('a long list does not crowd out a short one', () => {
    const long = Array.from({ length: 100 }, (_, i) => `long${i}`)
    expect(interleaveRankings([long, ['short']]).slice(0, 2)).toEqual(['long0', 'short'])
  })
})

describe('interleaveRankings properties', () => {
  const rankings = fc.array(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 30 }), { maxLength: 6 })

  it('returns each key once, ordered by the first (round, list) where it occurs', () => {
    fc.assert(
      fc.property(rankings, (lists) => {
        const result = interleaveRankings(lists)
        expect(new Set(result).size).toBe(result.length)
        expect(new Set(result)).toEqual(new Set(lists.flat()))
        const firstSlot = (key: number) =>
          Math.min(
            ...lists.flatMap((list, which) =>
              list.flatMap((item, round) => (item === key ? [round * lists.length + which] : [])),
            ),
          )
        for (let i = 1; i < result.length; i++) expect(firstSlot(result[i - 1])).toBeLessThan(firstSlot(result[i]))
      }),
      { numRuns: 300 },
    )
  })

  it('the item at rank r of any list is among the first r × (number of lists) results', () => {
    fc.assert(
      fc.property(rankings, (lists) => {
        const result = interleaveRankings(lists)
        lists.forEach((list) =>
          list.forEach((key, position) => expect(result.indexOf(key)).toBeLessThan((position + 1) * lists.length)),
        )
      }),
      { numRuns: 300 },
    )
  })
})
