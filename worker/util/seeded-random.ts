/** A small, fast, seedable PRNG (mulberry32): the same seed gives the same stream in every browser and in Node. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

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
