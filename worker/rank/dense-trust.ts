import type { DenseTrust } from '../../src/types'
import type { Language } from '../text/text-analysis'
import { RANK_TUNING, type RankTuning } from './rank-tuning'

/** The gate's constants (`RankTuning`). */
export type DenseTrustTuning = Pick<RankTuning, 'unknownTextShare' | 'otherLanguageDenseWeight'>

/**
 * How far `hybrid` lets the dense ranking reorder a request's word matches (`ContextStats.denseTrust`; undefined:
 * in full). A model that cannot read the request (most of its letters unknown to the tokenizer: Chinese, Russian or
 * Hindi for the shipped English model) embeds it close to every sentence it cannot read either, so its ranking is
 * near random, and fused in full it pushes the sentences that share the request's words out of the context:
 * weight 0, the word matches first. A model that reads the letters but was not trained on the request's language
 * (`modelLanguages`; German for an English model) knows its names, numbers and loan words and little else:
 * `otherLanguageDenseWeight`. A request whose language could not be told is trusted to the model.
 */
export function denseTrust(
  unknownShare: number,
  language: Language | undefined,
  modelLanguages: readonly Language[] | 'all',
  tuning: DenseTrustTuning = RANK_TUNING,
): DenseTrust | undefined {
  if (unknownShare > tuning.unknownTextShare) return { weight: 0, reason: 'unknown-text' }
  if (modelLanguages === 'all' || language === undefined || modelLanguages.includes(language)) return undefined
  const weight = tuning.otherLanguageDenseWeight
  return weight < 1 ? { weight, reason: 'other-language' } : undefined
}
