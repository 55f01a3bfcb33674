import { contentTermCount } from '../text/text-analysis'

/** Sentences with at least this many content words are not penalised. */
const INFORMATIVE_TERMS = 4
/**
 * Cosine taken off per content word short of `INFORMATIVE_TERMS`: "Wow, Caroline!" (2 content words) loses 0.1,
 * "Thanks!" 0.15. Small sentence embeddings place short generic sentences close to every
 * question ("What did she say?" is near "Wow!"), so without a prior they crowd out the sentences that carry facts
 * (its effect on LoCoMo recall: the ablation in BENCHMARKS.md).
 */
export const PENALTY_PER_MISSING_TERM = 0.05

/** How much a dense similarity is lowered for a sentence this short in content: 0 from `INFORMATIVE_TERMS` content words on. */
export function shortSentencePenalty(text: string): number {
  return penaltyForContentTerms(contentTermCount(text))
}

/** `shortSentencePenalty` of a sentence with `count` content words (as counted by `contentTermCount`). */
export function penaltyForContentTerms(count: number): number {
  return PENALTY_PER_MISSING_TERM * Math.max(0, INFORMATIVE_TERMS - count)
}
