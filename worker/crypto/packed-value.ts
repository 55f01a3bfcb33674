/**
 * Plain data (objects, arrays, strings, finite numbers, booleans, null) with typed arrays anywhere in it, as one byte
 * string and back: what structured clone does for IndexedDB, for the records the store must encrypt first. Layout:
 * the JSON of the value, typed arrays replaced by `{ [TYPED]: kind, at, length }`, then each array's bytes at an
 * 8-byte-aligned offset `at` of a binary section. `u32 LE` JSON length, JSON (UTF-8), padding, binary section.
 * Typed arrays are written in the platform's byte order, as structured clone writes them.
 */

const TYPED_ARRAYS = {
  Int8Array,
  Uint8Array,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
}
type TypedArrayKind = keyof typeof TYPED_ARRAYS
type TypedArray = InstanceType<(typeof TYPED_ARRAYS)[TypedArrayKind]>

/** The key that marks a typed array's place in the JSON; no record Sift stores has a key of this form. */
const TYPED = '$typedArray'
const ALIGN = 8
const LENGTH_BYTES = 4

/** `value` as bytes (see the file's comment); `unpackValue` gives back an equal value. */
export function packValue(value: unknown): Uint8Array<ArrayBuffer> {
  const arrays: TypedArray[] = []
  let binaryLength = 0
  const json = JSON.stringify(value, (_key, item: unknown) => {
    if (!ArrayBuffer.isView(item)) return item
    const kind = item.constructor.name as TypedArrayKind
    if (!(kind in TYPED_ARRAYS)) throw new TypeError(`packValue: ${kind} is not a typed array it can store`)
    const at = binaryLength
    arrays.push(item as TypedArray)
    binaryLength = aligned(at + item.byteLength)
    return { [TYPED]: kind, at, length: (item as TypedArray).length }
  })
  const header = new TextEncoder().encode(json)
  const binaryStart = aligned(LENGTH_BYTES + header.length)
  const bytes = new Uint8Array(binaryStart + binaryLength)
  new DataView(bytes.buffer).setUint32(0, header.length, true)
  bytes.set(header, LENGTH_BYTES)
  let at = binaryStart
  for (const array of arrays) {
    bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at)
    at = aligned(at + array.byteLength)
  }
  return bytes
}

/** The value `packValue` packed into `bytes`. Each typed array is a copy with a buffer of its own, as structured clone gives. */
export function unpackValue(bytes: Uint8Array<ArrayBuffer>): unknown {
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true)
  const json = new TextDecoder().decode(bytes.subarray(LENGTH_BYTES, LENGTH_BYTES + headerLength))
  const binaryStart = bytes.byteOffset + aligned(LENGTH_BYTES + headerLength)
  // A reviver makes the parse several times slower, and most records (messages) hold no typed array.
  if (!json.includes(`"${TYPED}"`)) return JSON.parse(json)
  return JSON.parse(json, (_key, item: unknown) => {
    if (typeof item !== 'object' || item === null || !(TYPED in item)) return item
    const { [TYPED]: kind, at, length } = item as { [TYPED]: TypedArrayKind; at: number; length: number }
    const Kind = TYPED_ARRAYS[kind]
    const start = binaryStart + at
    return new Kind(bytes.buffer.slice(start, start + length * Kind.BYTES_PER_ELEMENT))
  })
}

function aligned(offset: number): number {
  return Math.ceil(offset / ALIGN) * ALIGN
}
