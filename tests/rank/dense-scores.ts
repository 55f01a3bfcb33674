import type { DenseScores } from '../../worker/index/vector/vector-scoring'

/** Dense scores for sids 1…n, sid 1 the most similar: a dense ranking whose rank of each sid is the sid. */
export function denseScores(n: number): DenseScores {
  const sids = Float64Array.from({ length: n }, (_, i) => i + 1)
  const raw = Float64Array.from({ length: n }, (_, i) => 1 - i / n)
  return { count: n, sids, raw, score: raw.slice(), positionOf: (sid) => (sid >= 1 && sid <= n ? sid - 1 : -1) }
}
