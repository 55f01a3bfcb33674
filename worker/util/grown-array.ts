type TypedArray = Int8Array | Uint8Array | Uint16Array | Int32Array | Float32Array | Float64Array

/** A copy of `array` with room for `capacity` elements, the new ones set to `fill`. */
export function grownArray<T extends TypedArray>(array: T, capacity: number, fill = 0): T {
  const copy = new (array.constructor as new (length: number) => T)(capacity)
  copy.set(array.subarray(0, Math.min(array.length, capacity)) as never)
  if (fill !== 0) copy.fill(fill, array.length)
  return copy
}
