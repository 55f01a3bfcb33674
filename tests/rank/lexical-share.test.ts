import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { lexicalShare } from '../../worker/rank/lexical-share'

describe('lexicalShare', () => {
  const share = fc.double({ min: 0, max: 1, noNaN: true })
  const rank = fc.integer({ min: 1, max: 100_000 })

  it('stays between 0 and 1, rises with coverage and reach, and falls with the dense rank', () => {
    fc.assert(
      fc.property(share, share, share, rank, rank, (a, b, reach, r1, r2) => {
        const [low, high] = a <= b ? [a, b] : [b, a]
        const [near, far] = r1 <= r2 ? [r1, r2] : [r2, r1]
        const value = lexicalShare(low, reach, near)
        expect(value).toBeGreaterThan(0)
        expect(value).toBeLessThan(1)
        expect(lexicalShare(high, reach, near)).toBeGreaterThanOrEqual(value)
        expect(lexicalShare(low, Math.min(1, reach + 0.1), near)).toBeGreaterThanOrEqual(value)
        expect(lexicalShare(low, reach, far)).toBeLessThanOrEqual(value)
      }),
    )
  })

  it('counts a hit without a vector as the top of the dense ranking: words are all there is for it', () => {
    fc.assert(
      fc.property(share, share, (coverage, reach) => {
        expect(lexicalShare(coverage, reach, undefined)).toBe(lexicalShare(coverage, reach, 1))
      }),
    )
  })

  it('counts a hit covering the whole of a request the history’s words reach almost in full, and an incidental one little', () => {
    expect(lexicalShare(1, 1, 1)).toBeGreaterThan(0.99)
    expect(lexicalShare(0.8, 1, 20)).toBeGreaterThan(0.95)
    expect(lexicalShare(0.1, 0.2, 500)).toBeLessThan(0.3)
  })
})
