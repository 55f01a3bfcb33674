/**
 * The positions (0 … count-1) of the `k` largest of `values[0 … count)`, ties broken by the smaller `tieKey`, in no
 * particular order. A quickselect on a copy finds the k-th largest value in O(count) — cheaper than a k-heap when a
 * probe keeps 256 of a few thousand scores and only the kept ones are ever sorted.
 */
export function largestPositions(
  values: Float64Array,
  count: number,
  k: number,
  tieKey: ArrayLike<number>,
): Int32Array {
  const take = Math.max(0, Math.min(k, count))
  const out = new Int32Array(take)
  if (take === 0) return out
  const kth = kthLargest(values.slice(0, count), take)
  let filled = 0
  const tied: number[] = []
  for (let i = 0; i < count; i++) {
    if (values[i] > kth) out[filled++] = i
    else if (values[i] === kth) tied.push(i)
  }
  if (tied.length > take - filled) tied.sort((a, b) => tieKey[a] - tieKey[b])
  for (let t = 0; filled < take; t++) out[filled++] = tied[t]
  return out
}

/** The k-th largest (1-based) of `values`, which it reorders (Hoare partitioning around a median of three). */
function kthLargest(values: Float64Array, k: number): number {
  let low = 0
  let high = values.length - 1
  const target = k - 1
  while (low < high) {
    const middle = (low + high) >>> 1
    // Median of three, descending: values[low] ≥ values[middle] ≥ values[high].
    if (values[middle] > values[low]) swap(values, middle, low)
    if (values[high] > values[low]) swap(values, high, low)
    if (values[high] > values[middle]) swap(values, high, middle)
    const pivot = values[middle]
    let i = low
    let j = high
    while (i <= j) {
      while (values[i] > pivot) i++
      while (values[j] < pivot) j--
      if (i <= j) swap(values, i++, j--)
    }
    if (target <= j) high = j
    else if (target >= i) low = i
    else return values[target]
  }
  return values[target]
}

function swap(values: Float64Array, a: number, b: number): void {
  const value = values[a]
  values[a] = values[b]
  values[b] = value
}
