// Test oracle: the plain definition of the short-sentence penalty over a dense top-k, which the engine applies
// while it scans (`VectorIndex`, `rankCandidates`).
import { penalizedScore } from '../worker/index/vector/vector-scoring'

/**
 * Re-ranks a dense top-k (best first) by score − penalty, floored at 0: the penalty makes a short sentence less
 * similar, never more dissimilar than an unrelated one (scores ≤ 0 stay as they are). When the list is a prefix of a longer ranking
 * (`complete` false), a hit whose lowered score falls below the last raw score is held back: an unseen row could
 * outrank it, so it waits for a deeper scan. The result is then exactly a prefix of the fully re-ranked list.
 */
export function penalizeShortSentences<T extends { score: number }>(
  hits: readonly T[],
  penaltyOf: (hit: T) => number,
  complete: boolean,
): T[] {
  const floor = complete || hits.length === 0 ? -Infinity : hits[hits.length - 1].score
  return hits
    .map((hit) => ({ ...hit, score: penalizedScore(hit.score, penaltyOf(hit)) }))
    .filter((hit) => hit.score >= floor)
    .sort((a, b) => b.score - a.score)
}
