// A relayed call as bytes and back: what a structured clone carries for Sift's API, including what JSON alone would
// lose (Dates, undefined, holes, non-finite numbers) and object keys that look like the codec's own tags.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeTabValue, encodeTabValue } from '../../src/tab-message-codec'

const value = fc.letrec((tie) => ({
  item: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.double().map((n) => (Object.is(n, -0) ? 0 : n)),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.date(),
    fc.array(tie('item'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('$', '$$', '$$$', 'v')), tie('item'), { maxKeys: 4 }),
  ),
})).item

describe('the tab message codec', () => {
  it('gives back what structured clone would, Dates, NaN and keys made of $ included', () => {
    fc.assert(
      fc.property(value, (sent) => {
        // toEqual: an undefined element comes back as a hole and an undefined property as none, alike for the API.
        expect(decodeTabValue(encodeTabValue(sent))).toEqual(structuredClone(sent))
      }),
      { numRuns: 500 },
    )
  })

  it('keeps the holes of a sparse array', () => {
    const sparse: unknown[] = ['a']
    sparse[2] = 'c'
    const decoded = decodeTabValue(encodeTabValue([sparse])) as unknown[][]
    expect(decoded[0]).toHaveLength(3)
    expect(1 in decoded[0]).toBe(false)
  })

  it('refuses what structured clone refuses, with its error', () => {
    const getter = Object.defineProperty({}, 'x', {
      get() {
        throw new Error('the getter threw')
      },
      enumerable: true,
    })
    expect(() => encodeTabValue({ f: () => 1 })).toThrow(expect.objectContaining({ name: 'DataCloneError' }))
    expect(() => encodeTabValue(new Proxy({}, {}))).toThrow(expect.objectContaining({ name: 'DataCloneError' }))
    expect(() => encodeTabValue(getter)).toThrow('the getter threw')
  })
})
