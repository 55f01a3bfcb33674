// Test oracle: the plain definition of reciprocal rank fusion that the engine's lazy `FusedRanking` must equal.
import { SiftError } from '../src/errors'
import { RANK_TUNING } from '../worker/rank/rank-tuning'

/** One key of a fused ranking and its reciprocal-rank score. */
export interface FusedRank<K> {
  key: K
  score: number
}

interface Tally {
  score: number
  bestRank: number
  firstSeen: number
}

/**
 * Reciprocal rank fusion: score(key) = Σ over lists of weight × 1 / (k + rank), rank 1-based, weight 1 unless
 * `weights[list]` gives one per key. A key repeated within one list counts only at its first (best) rank there.
 * Sorted by score descending; ties broken by the best rank the key reached in any list, then by first appearance
 * (lists scanned in order, each from its top). `k` defaults to the engine's `rrfK`. With `absentRankMins[list]`,
 * that list's terms are weight × (1 / (k + rank) − 1 / (k + absent)), absent being the list's number of keys + 1 or
 * the minimum, whichever is larger: what a key outside the list would get at that rank is taken off (`lexicalListEnd`).
 */
export function fuseRanks<K>(
  rankings: readonly (readonly K[])[],
  k = RANK_TUNING.rrfK,
  weights: readonly (((key: K) => number) | undefined)[] = [],
  absentRankMins: readonly (number | undefined)[] = [],
): FusedRank<K>[] {
  if (!(k >= 0) || !Number.isFinite(k)) {
    throw new SiftError('INVALID_INPUT', `fuseRanks: k must be a finite number ≥ 0, got ${k}.`)
  }
  const tallies = new Map<K, Tally>()
  let seen = 0
  rankings.forEach((ranking, list) => {
    const min = absentRankMins[list]
    const floor = min === undefined ? 0 : 1 / (k + Math.max(new Set(ranking).size + 1, min))
    const inThisList = new Set<K>()
    ranking.forEach((key, position) => {
      if (inThisList.has(key)) return
      inThisList.add(key)
      const rank = position + 1
      const share = (weights[list]?.(key) ?? 1) * (1 / (k + rank) - floor)
      const tally = tallies.get(key)
      if (tally) {
        tally.score += share
        tally.bestRank = Math.min(tally.bestRank, rank)
      } else {
        tallies.set(key, { score: share, bestRank: rank, firstSeen: seen++ })
      }
    })
  })
  return [...tallies]
    .sort(([, a], [, b]) => b.score - a.score || a.bestRank - b.bestRank || a.firstSeen - b.firstSeen)
    .map(([key, { score }]) => ({ key, score }))
}
