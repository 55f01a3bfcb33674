import { LEXICAL_TUNING_TABLE } from '../index/lexical/lexical-tuning'
import { VECTOR_TUNING_TABLE } from '../index/vector/vector-tuning'
import { TEXT_TUNING_TABLE } from '../text/text-tuning'
import { tuningValues, type TuningTable, type TuningValues } from '../util/tuning-table'

/**
 * How a request's sentences are ranked (`rankCandidates` and what it calls): how text is read for its language and
 * terms (`worker/text/text-tuning.ts`), BM25 (`lexical-tuning.ts`), the vector index's re-scoring
 * (`vector-tuning.ts`), each table kept beside the code that reads it and part of this one, the dense ranking's
 * short-sentence penalty, the fusion and what a lexical
 * hit counts for in it, and the stand-ins. Each entry says what it means, its unit, the values tried and the
 * BENCHMARKS.md row that has their figures; a switch turns a mechanism off to re-run its ablation row
 * (`npm run bench:recall -- --tune NAME=VALUE`). The selection stages after the ranking have theirs in
 * `worker/context/context-tuning.ts`.
 *
 * Not here, because they are built into the shipped word-neighbour table rather than read at run time: the cosine
 * at which a word stands in for another and how many neighbours a word keeps (`scripts/word-neighbour-table.ts`).
 */
export const RANK_TUNING_TABLE = {
  ...TEXT_TUNING_TABLE,
  ...LEXICAL_TUNING_TABLE,
  ...VECTOR_TUNING_TABLE,
  /**
   * Lexical hits fused in `hybrid` (and in "forget that I …" requests): a hit ranked below this adds less than
   * 1 / (`rrfK` + this) to a fused score, which cannot lift a sentence into a context the packer fills from the first
   * few hundred candidates, while counting the dense ranks of every weak match dominated the cost of a request at
   * 100K sentences. Lexical hits. Tried: this value and no limit, the same recall (commit `d151b63`; no BENCHMARKS.md
   * row).
   */
  hybridLexicalDepth: { value: 2000, range: 'count' },
  /**
   * The `k` of reciprocal rank fusion, score = Σ over lists of 1 / (k + rank), the value of Cormack et al.: it damps
   * the head of each list; a small `k` lets one list's top hit dominate, a large one rewards sentences both lists
   * agree on. Ranks. Tried: 60 for both lists; dense 10–40 against lexical 60–120 (BENCHMARKS.md, "Tried in issue 13
   * and not kept", asymmetric RRF).
   */
  rrfK: { value: 60, range: 'amount' },
  /**
   * In `hybrid`, a lexical hit counts only for what its reciprocal rank holds above that of a sentence no word of the
   * request matches, taken as ranked right after the list's last hit (`lexicalListEndMin`): when the request's words
   * are ones its answer does not use, BM25's list is every sentence holding one incidental word of it, nearly the
   * whole dense head is in it, and in full each of those hits lifted its sentence over the answer the dense ranking
   * found, which no word matches. Off, the classic fusion: a sentence outside the list gets nothing from it. Tried:
   * off and on (BENCHMARKS.md, "Questions in other words (issue 31)").
   */
  lexicalListEnd: { value: true, range: 'switch' },
  /**
   * The rank `lexicalListEnd` puts a sentence outside the lexical list at, at the least: in a short list (a rare
   * word, held by a few sentences) its hits keep most of their value (the first of 3 keeps 62% of 1 / (`rrfK` + 1)
   * at 100), while in a long list (60 incidental matches and more) the hits near its end keep little. Ranks. Tried: 0 (right after the
   * last hit, whatever the list's length), 100, 200 (same section).
   */
  lexicalListEndMin: { value: 100, range: 'count' },
  /**
   * A request counts as unreadable to the model (`denseTrust`: the dense ranking then only orders what no word
   * matches) when more than this share of its letters are unknown to the model's tokenizer: "most of them". A share of
   * the letters. Tried: 0.5 (BENCHMARKS.md, "Languages", the dense-trust rows).
   */
  unknownTextShare: { value: 0.5, range: 'share' },
  /**
   * What the dense ranking counts for in `hybrid` when the request is in a language the model was not trained on
   * (`EmbeddingOptions.languages`) though its letters are known: 1 in full, 0 only behind the word matches. A weight
   * on the dense reciprocal rank. Tried: 0, 0.25, 0.5, 1 (BENCHMARKS.md, "Languages", the dense-trust rows).
   */
  otherLanguageDenseWeight: { value: 0, range: 'share' },
  /** Sentences with at least this many content words are not penalised (`shortSentencePenalty`). Content words. Tried: 4 (with the rows below). */
  informativeTerms: { value: 4, range: 'count' },
  /**
   * Cosine taken off a sentence's dense similarity per content word short of `informativeTerms`: "Wow, Caroline!"
   * (2 content words) loses 0.1, "Thanks!" 0.15. Small sentence embeddings place short generic sentences close to
   * every question ("What did she say?" is near "Wow!"), so without a prior they crowd out the sentences that carry
   * facts. 0 turns the penalty off. Cosine per content word. Tried: 0.05; a hard step of 0.1 or 0.2 below 4 content
   * words (BENCHMARKS.md, "Ablation before issue 13": the length-prior row and "Earlier variants").
   */
  penaltyPerMissingTerm: { value: 0.05, range: 'weight' },
  /**
   * The words naming the scope's speakers are left out of the text the dense ranking embeds (`withoutSpeakerNames`).
   * Tried: off and on; the names matched in BM25's role field only (BENCHMARKS.md, "Ablation, issue 13", the names
   * row, and "Tried in issue 13 and not kept").
   */
  speakerNamesOutOfDenseQuery: { value: true, range: 'switch' },
  /**
   * In `hybrid`, a lexical hit's reciprocal rank counts by its share (`lexicalShare`); off, it counts in full.
   * Tried: off and on (BENCHMARKS.md, "Ablation, issue 13", the lexical-share row).
   */
  lexicalShare: { value: true, range: 'switch' },
  /**
   * The lexical share's four weights (a logistic of bias + coverage × its weight + reach × its weight − dense-rank
   * weight × ln(dense rank)), fitted on conversations 1–5 of LoCoMo and of the paraphrase set. No unit. Tried: a grid
   * of bias −3…−1, coverage 2–6, reach 3–5, dense rank 0.2–0.6; refitted for the paraphrases (0, 12, 0, 0.8;
   * −1, 6, 1.5, 0.4; 0, 4, 0, 0.2) (BENCHMARKS.md, "Ablation, issue 13": the lexical-share row and "Tried in issue
   * 13 and not kept").
   */
  lexicalShareBias: { value: -1, range: 'weight' },
  /** The weight of the share of the request's words, by idf, that the hit's sentence or its turn holds (see `lexicalShareBias`). */
  lexicalShareCoverage: { value: 6, range: 'weight' },
  /** The weight of the share of the request's idf weight carried by words the history uses at all (see `lexicalShareBias`). */
  lexicalShareReach: { value: 3, range: 'weight' },
  /** The weight of the logarithm of the hit's dense rank (see `lexicalShareBias`). */
  lexicalShareDenseRank: { value: 0.2, range: 'weight' },
  /**
   * In `hybrid`, what a lexical hit said by the assistant (role `'assistant'`) counts for, as a share of what it would
   * count for otherwise (`lexicalShare`); the dense rank counts in full. An assistant's reply restates the subject it
   * answers in the user's words ("Hives after seafood can be a sign of a shellfish allergy" after "I can't eat prawns
   * any more"), so for a question worded unlike the user's statement the echoes ranked above the statement, which
   * only the dense ranking finds. The same reasoning as `forgettableOtherRoleShare`, and its value. 1 counts every
   * role alike. A share of the lexical term. Tried: 1, 0.75, 0.5, 0.25 (BENCHMARKS.md, "Questions in other words
   * (issue 31)", "The assistant's echoes").
   */
  assistantLexicalShare: { value: 0.5, range: 'share' },
  /**
   * Stand-ins added to `hybrid`'s lexical query per request word the history never uses: the closest words of the
   * word-neighbour table the history does use. 0 adds none. Words. Tried: 3, 4, 5 (BENCHMARKS.md, "Ablation, issue
   * 13", the stand-ins row and its paragraph).
   */
  expansionsPerWord: { value: 5, range: 'count' },
  /**
   * Share of a request word's weight a sentence covers (`termCoverage`) when it holds a stand-in for the word rather
   * than the word: a stand-in is a guess at the meaning, so a hit on it counts less than the word itself. A share of
   * the word's idf. Tried: 0.5, 1, and stand-ins counted as words of their own (same row and paragraph).
   */
  standInCredit: { value: 0.5, range: 'share' },
  /**
   * In a "forget that I …" ranking (`rankForgettable`), the share of its score a sentence keeps when its message is
   * not the user's: a request to forget names what the user said, and the assistant's replies that repeat it share
   * its words as much, so without it the echo often ranks above the statement. They stay in the list, after it. 1
   * ranks every role alike. A share of the fused score. Tried: 1, 0.75, 0.5 on the forget set's conversations 1–3
   * (BENCHMARKS.md, "Finding the forget request inside a message").
   */
  forgettableOtherRoleShare: { value: 0.5, range: 'share' },
} satisfies TuningTable

/** The ranking's tuning: what `rankCandidates`, the lexical index and the ranking's signals read. */
export type RankTuning = TuningValues<typeof RANK_TUNING_TABLE>

/** The ranking's tuning as shipped. */
export const RANK_TUNING: RankTuning = tuningValues(RANK_TUNING_TABLE)
