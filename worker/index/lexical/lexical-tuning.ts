import { tuningValues, type TuningTable, type TuningValues } from '../../util/tuning-table'

/**
 * How the lexical index scores a search (`LexicalIndex.search`, `Bm25Index.match`): part of the ranking's tuning
 * (`worker/rank/rank-tuning.ts` holds this table with its own), kept beside the index that reads it. Each entry says
 * what it means, its unit, the values tried and the BENCHMARKS.md row that has their figures.
 */
export const LEXICAL_TUNING_TABLE = {
  /**
   * BM25+'s term-frequency saturation (k1): how fast more occurrences of a term stop adding to a document's score.
   * No unit. Tried: MiniSearch's default only, which the index reproduces (BENCHMARKS.md, "Ablation before issue 13",
   * the baseline row).
   */
  bm25K1: { value: 1.2, range: 'amount' },
  /**
   * BM25+'s length normalisation (b): 0 ignores a document's length, 1 divides by it in full. No unit. Tried:
   * MiniSearch's default only (same row).
   */
  bm25B: { value: 0.7, range: 'share' },
  /** BM25+'s floor (d): what every matching term earns, however long the document. Idf units. Tried: MiniSearch's default only (same row). */
  bm25D: { value: 0.5, range: 'amount' },
  /**
   * Added to every field's length (its distinct words) and to their average in BM25's length normalisation. The
   * constants above were tuned on lengths one longer: the index's earlier split, on spaces and punctuation, counted
   * an empty token after a text's final punctuation, which nearly every sentence has. Words. Tried: 0 and 1
   * (BENCHMARKS.md, "Languages": 0 loses one paraphrase question at 2,000).
   */
  bm25LengthOffset: { value: 1, range: 'amount' },
  /**
   * Share of a sentence's lexical score that comes from its whole turn (all its message's sentences as one BM25
   * document); the rest is the sentence's own BM25. A question's words are often spread over a turn ("researching"
   * in one sentence, "adoption agencies" in the next), and the turn is what holds the answer. A share of the score.
   * Tried: 0.3, 0.5, 0.7 (BENCHMARKS.md, "Ablation before issue 13": the turn-documents row and "Tried and not kept").
   */
  turnShare: { value: 0.5, range: 'share' },
} satisfies TuningTable

/** The lexical index's scoring constants. */
export type LexicalTuning = TuningValues<typeof LEXICAL_TUNING_TABLE>

/** The lexical index's scoring constants as shipped. */
export const LEXICAL_TUNING: LexicalTuning = tuningValues(LEXICAL_TUNING_TABLE)
