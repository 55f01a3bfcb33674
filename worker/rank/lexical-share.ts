import { RANK_TUNING, type RankTuning } from './rank-tuning'

/** The lexical share's weights (`RankTuning`). */
export type LexicalShareWeights = Pick<
  RankTuning,
  'lexicalShareBias' | 'lexicalShareCoverage' | 'lexicalShareReach' | 'lexicalShareDenseRank'
>

/**
 * What a lexical hit's reciprocal rank counts for in `hybrid`'s fusion (the dense rank always counts in full): a
 * number between 0 and 1 that falls the less of the request the hit's words account for. BM25 ranks a sentence
 * sharing one incidental word with the request ("online", "last year") as readily as the one holding the answer,
 * and when the request is worded unlike its answer (a paraphrase, an indirect question) such hits push the answer,
 * which only the dense ranking finds, out of the context. Three signs, combined in a logistic:
 * - `coverage`: the share of the request's words, weighted by rarity, that the hit's sentence or its turn holds;
 * - `reach`: the share of that weight carried by words the history uses at all; words it never uses can only be
 *   matched by meaning, so the less of the request the history's vocabulary reaches, the less any word match says;
 * - `denseRank`: where the dense ranking puts the hit (1 the best; undefined when the sentence has no vector yet,
 *   and then words are all there is): a word match the meaning ranks far down is more likely incidental.
 * The dense rank counts as much as the dense ranking itself does in the fusion (`denseWeight`, `denseTrust`).
 * The weights (`weights`, the ranking's tuning table) were fitted on conversations 1–5 of LoCoMo and of the
 * paraphrase set and checked on 6–10 (BENCHMARKS.md, "Recall"); a hit covering most of a request whose words the
 * history uses counts almost in full.
 */
export function lexicalShare(
  coverage: number,
  reach: number,
  denseRank: number | undefined,
  weights: LexicalShareWeights = RANK_TUNING,
  denseWeight = 1,
): number {
  const { lexicalShareBias, lexicalShareCoverage, lexicalShareReach, lexicalShareDenseRank } = weights
  const rankTerm = denseRank === undefined ? 0 : denseWeight * lexicalShareDenseRank * Math.log(denseRank)
  return (
    1 / (1 + Math.exp(-(lexicalShareBias + lexicalShareCoverage * coverage + lexicalShareReach * reach - rankTerm)))
  )
}
