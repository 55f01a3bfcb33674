import { contentTermCount, type Language } from '../text/text-analysis'
import { RANK_TUNING, type RankTuning } from './rank-tuning'

/** The penalty's two constants (`RankTuning`): from how many content words on none applies, and how much per word short. */
export type ShortSentenceTuning = Pick<RankTuning, 'informativeTerms' | 'penaltyPerMissingTerm'>

/**
 * How much a dense similarity is lowered for a sentence this short in content: `penaltyPerMissingTerm` per content
 * word short of `informativeTerms`, 0 from there on. Small sentence embeddings place short generic sentences close to
 * every question ("What did she say?" is near "Wow!"), so without a prior they crowd out the sentences that carry
 * facts (its effect on LoCoMo recall: the ablation in BENCHMARKS.md). Content words are counted in `language`.
 */
export function shortSentencePenalty(
  text: string,
  language: Language | undefined,
  tuning: ShortSentenceTuning = RANK_TUNING,
): number {
  return penaltyForContentTerms(contentTermCount(text, language), tuning)
}

/** `shortSentencePenalty` of a sentence with `count` content words (as counted by `contentTermCount`). */
export function penaltyForContentTerms(count: number, tuning: ShortSentenceTuning = RANK_TUNING): number {
  return tuning.penaltyPerMissingTerm * Math.max(0, tuning.informativeTerms - count)
}
