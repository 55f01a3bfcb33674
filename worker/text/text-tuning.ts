import { tuningValues, type TuningTable, type TuningValues } from '../util/tuning-table'

/**
 * How text is read for its language and its terms (`language-detection.ts`, `text-analysis.ts`): part of the ranking's
 * tuning (`worker/rank/rank-tuning.ts` holds this table with its own), kept beside the code that reads it. Each entry
 * says what it means, its unit, the values tried and the BENCHMARKS.md row that has their figures.
 *
 * Every entry is `fixed`: read in `worker/text`, below the stages a memory's `tuning` is passed to. A sentence's
 * language and terms are decided when it is indexed and kept in the lexical index's saved snapshot (another value
 * would need a re-index), and a request's language by the lexical index (`requestLanguage`); they change here.
 */
export const TEXT_TUNING_TABLE = {
  /**
   * What the language detector reads of a longer text: its first this many characters, enough for its character
   * n-grams, and a bound on the cost of detecting a long message. Characters. Tried: 500 only (BENCHMARKS.md,
   * "Languages").
   */
  languageSampleChars: { value: 500, range: 'count', fixed: true },
  /**
   * A likely language (one of the message's or the history's) wins over the detector's pick when it scores at least
   * this share of the pick's score: close languages score within a tenth of each other on a short text (Russian and
   * Ukrainian, Hindi and Marathi), distinct ones far apart (a German sentence scores English well under that). A share
   * of the top score. Tried: 0.9 (BENCHMARKS.md, "Languages").
   */
  likelyLanguageShare: { value: 0.9, range: 'share', fixed: true },
  /**
   * The share of a message's detected characters a language needs to be one of the message's own (code-switching: a
   * message half in English, half in Spanish has both, and each sentence is in one of them). A share of the detected
   * characters. Tried: 1/3 only (BENCHMARKS.md, "Languages", the code-switching set).
   */
  messageLanguageShare: { value: 1 / 3, range: 'share', fixed: true },
  /**
   * Letters in a compound gram (`compoundGrams`): the character n-grams a word of a compounding language (German,
   * Dutch, Swedish) also indexes, so that a compound meets its parts written apart. Characters. Tried: 4 and 5
   * (BENCHMARKS.md, "Languages", the compound rows: 5 finds fewer compounds' parts).
   */
  compoundGramLength: { value: 4, range: 'count', fixed: true },
} satisfies TuningTable

/** How text is read for its language and terms. */
export type TextTuning = TuningValues<typeof TEXT_TUNING_TABLE>

/** How text is read for its language and terms, as shipped. */
export const TEXT_TUNING: TextTuning = tuningValues(TEXT_TUNING_TABLE)
