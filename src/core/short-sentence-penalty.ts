import { STOP_WORDS } from './english-terms'

/** Sentences with at least this many content words are not penalised. */
const INFORMATIVE_TERMS = 4
/**
 * Cosine taken off per content word short of `INFORMATIVE_TERMS`: "Wow, Caroline!" (2 content words) loses 0.1,
 * "Thanks!" 0.15. Small sentence embeddings place short generic sentences close to every
 * question ("What did she say?" is near "Wow!"), so without a prior they crowd out the sentences that carry facts
 * (its effect on LoCoMo recall: the ablation in BENCHMARKS.md).
 */
export const PENALTY_PER_MISSING_TERM = 0.05

/** Words (letter/digit runs) that are not stop words. */
export function contentTermCount(text: string): number {
  let count = 0
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (word !== '' && !STOP_WORDS.has(word)) count++
  return count
}

/** How much a dense similarity is lowered for a sentence this short in content: 0 from `INFORMATIVE_TERMS` content words on. */
export function shortSentencePenalty(text: string): number {
  return penaltyForContentTerms(contentTermCount(text))
}

/** `shortSentencePenalty` of a sentence with `count` content words (as counted by `contentTermCount`). */
export function penaltyForContentTerms(count: number): number {
  return PENALTY_PER_MISSING_TERM * Math.max(0, INFORMATIVE_TERMS - count)
}

/**
 * A similarity lowered by a sentence's penalty, floored at 0: the penalty makes a short sentence less similar, never
 * more dissimilar than an unrelated one (similarities ≤ 0 stay as they are).
 */
export function penalisedScore(similarity: number, penalty: number): number {
  return similarity > 0 ? Math.max(0, similarity - penalty) : similarity
}
