import { describe, expect, it } from 'vitest'
import { packValue, unpackValue } from '../../worker/crypto/packed-value'

describe('packValue / unpackValue', () => {
  it('round-trips plain data with typed arrays of every kind, views into larger buffers included', () => {
    const backing = new Float32Array([9, 1.5, -2.25, 3e-8, 9])
    const value = {
      text: 'naïve café, 日本語, emoji 🐙, a "quote" and a \\ backslash',
      numbers: [0, -1, 1.25, Number.MAX_SAFE_INTEGER],
      flags: [true, false, null],
      nested: { empty: new Uint8Array(0), view: backing.subarray(1, 4), list: [new Int8Array([-128, 0, 127])] },
      kinds: [
        new Uint8Array([255, 1]),
        new Int16Array([-32768, 7]),
        new Uint16Array([65535]),
        new Int32Array([-(2 ** 31), 5]),
        new Uint32Array([2 ** 32 - 1]),
        new Float64Array([Math.PI, -0]),
      ],
    }
    const restored = unpackValue(packValue(value)) as typeof value
    expect(restored).toEqual(value)
    expect(restored.nested.view).toBeInstanceOf(Float32Array)
    expect(Array.from(restored.nested.view)).toEqual([1.5, -2.25, Math.fround(3e-8)])
    expect(Object.is(restored.kinds[5][1], -0)).toBe(true)
  })

  it('round-trips records without typed arrays, text that names the marker included', () => {
    const value = { role: 'user', content: 'a "$typedArray": "Int8Array" in a message is only text', spans: [0, 12] }
    expect(unpackValue(packValue(value))).toEqual(value)
  })

  it('gives each typed array a buffer of its own, as structured clone does', () => {
    const restored = unpackValue(packValue({ a: new Int32Array([1, 2]), b: new Int32Array([3]) })) as {
      a: Int32Array
      b: Int32Array
    }
    expect(restored.a.buffer).not.toBe(restored.b.buffer)
    expect(restored.a.buffer.byteLength).toBe(8)
  })

  it('refuses what it cannot store rather than write it wrongly', () => {
    expect(() => packValue({ view: new DataView(new ArrayBuffer(4)) })).toThrow(/DataView is not a typed array/)
  })
})
