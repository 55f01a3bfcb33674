// Seed mixing and normal samples for the synthetic benchmark data; the engine and its tests need only `seededRandom`.

/** Mixes two integers into a seed, so per-item streams (sentence i, query j) are independent of each other. */
export function mixSeed(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35)
  h ^= h >>> 16
  h = Math.imul(h, 0x27d4eb2f)
  return (h ^ (h >>> 15)) >>> 0
}

/** Fills `out` with standard normal samples (Box–Muller). */
export function fillGaussian(random: () => number, out: Float32Array): Float32Array {
  for (let i = 0; i < out.length; i += 2) {
    const radius = Math.sqrt(-2 * Math.log(1 - random()))
    const angle = 2 * Math.PI * random()
    out[i] = radius * Math.cos(angle)
    if (i + 1 < out.length) out[i + 1] = radius * Math.sin(angle)
  }
  return out
}
