import { penaltyForContentTerms, shortSentencePenalty } from '../../src/core/short-sentence-penalty'
import type { ScoredSentence } from '../../src/core/scored-sentence'
import type { ContextItem } from '../../src/types'
import { DenseRanking } from './dense-ranking'
import { FusedRanking } from './fused-ranking'
import type { LexicalIndex } from '../index/lexical/lexical-index'
import { ProbedDenseRanking } from './probed-dense-ranking'
import { listOf, type RankedList } from './ranked-list'
import type { SentenceCatalog } from '../index/sentence-catalog'
import type { VectorIndex } from '../index/vector/vector-index'

export interface RankingSources {
  catalog: SentenceCatalog
  /** Absent until the first vector exists. */
  vectors: VectorIndex | undefined
  lexical: LexicalIndex
}

/** One query: its text (lexical) and its embedding (dense; absent for lexical-only ranking). */
export interface RankingQuery {
  text: string
  vector?: Float32Array
}

/**
 * Lexical hits fused in `hybrid`: a hit ranked below this adds less than 1 / 2060 to a fused score, which cannot
 * lift a sentence into a context the packer fills from the first few hundred candidates, while counting the
 * dense ranks of every weak match (tens of thousands at 100K sentences) dominated the cost of a request.
 */
export const HYBRID_LEXICAL_DEPTH = 2000

/**
 * Relevance-ranked candidates, produced lazily, ending after every matching sentence in scope was offered — so an
 * exhausted packer really saw everything. Several queries are interleaved round-robin, each ranked on its own; a
 * candidate carries its best score over the queries. Dense similarities are lowered for sentences with few content
 * words (`shortSentencePenalty`), which small embedding models rank too high. Each query's vectors are scanned once;
 * `dense` and `hybrid` then order only the prefix the packer reaches (`DenseRanking`, `FusedRanking`). Once the
 * vector index has coarse lists (from `COARSE_MIN_ROWS` rows on), `dense` without a conversation filter starts
 * from a probe of the nearest lists instead of scanning every row (`ProbedDenseRanking`). `hybrid`
 * fuses the full dense ranking: reciprocal rank fusion over a truncated dense list drops the dense share of a
 * sentence ranked below the cut, which cost recall on LoCoMo (BENCHMARKS.md).
 */
export function* rankCandidates(
  strategy: 'dense' | 'lexical' | 'hybrid',
  queries: readonly RankingQuery[],
  conversationId: string | undefined,
  sources: RankingSources,
): Generator<ScoredSentence> {
  const filter = { conversationId }
  const penaltyOf = (sid: number): number => {
    const terms = sources.lexical.contentTermCountOf(sid)
    if (terms !== undefined) return penaltyForContentTerms(terms)
    const sentence = sources.catalog.get(sid)
    return sentence ? shortSentencePenalty(sentence.text) : 0
  }
  const denseRanking = (query: RankingQuery): DenseRanking | undefined =>
    query.vector && sources.vectors ? new DenseRanking(sources.vectors.scan(query.vector, filter, penaltyOf)) : undefined
  // Only unfiltered: a conversation's rows are a small share of the lists, and its exact scan is cheap enough.
  const probedRanking = (query: RankingQuery): ProbedDenseRanking | undefined => {
    const probed = query.vector && conversationId === undefined ? sources.vectors?.probe(query.vector, penaltyOf) : undefined
    return probed && new ProbedDenseRanking(probed, () => denseRanking(query)!)
  }
  const rankings: RankedList[] = queries.map((query) => {
    if (strategy === 'lexical') return listOf(sources.lexical.search(query.text, filter))
    if (strategy === 'dense') return probedRanking(query) ?? denseRanking(query) ?? listOf([])
    return new FusedRanking(denseRanking(query), sources.lexical.search(query.text, filter, HYBRID_LEXICAL_DEPTH))
  })
  const seen = new Set<number>()
  for (let position = 0; ; position++) {
    let more = false
    for (const ranking of rankings) {
      const hit = ranking.at(position)
      if (!hit) continue
      more = true
      if (seen.has(hit.sid)) continue
      seen.add(hit.sid)
      const candidate = scoredSentence(sources.catalog, hit.sid, rankings.length === 1 ? hit.score : bestScore(rankings, hit.sid), 'relevant')
      if (candidate) yield candidate
    }
    if (!more) return
  }
}

/** Scope sentences in chronological order (`head`) or newest first (`tail`), for the positional baselines and recent turns. */
export function* positionalCandidates(catalog: SentenceCatalog, sids: readonly number[], newestFirst: boolean, reason: ContextItem['reason']): Generator<ScoredSentence> {
  for (let i = 0; i < sids.length; i++) {
    const candidate = scoredSentence(catalog, sids[newestFirst ? sids.length - 1 - i : i], 0, reason)
    if (candidate) yield candidate
  }
}

function bestScore(rankings: readonly RankedList[], sid: number): number {
  let best = -Infinity
  for (const ranking of rankings) best = Math.max(best, ranking.scoreOf(sid) ?? -Infinity)
  return best
}

/** `sid`'s sentence as a candidate, with its turn; undefined when the catalog no longer holds it. */
export function scoredSentence(catalog: SentenceCatalog, sid: number, score: number, reason: ContextItem['reason']): ScoredSentence | undefined {
  const sentence = catalog.get(sid)
  if (!sentence) return undefined
  // Written out rather than spread: a literal of one fixed shape is several times cheaper, and a request builds hundreds.
  const { messageId, conversationId, seq, index, role, timestamp, text, start, end } = sentence
  return { sid, messageId, conversationId, seq, index, role, timestamp, text, start, end, turn: catalog.turnOf(sentence), score, reason }
}

/** The first sentence of the turn after `sentence`'s, in its conversation; undefined after the last turn. */
export function openingOfNextTurn(catalog: SentenceCatalog, sentence: ScoredSentence): ScoredSentence | undefined {
  const next = catalog.scope(sentence.conversationId).messages[sentence.turn + 1]
  return next && next.sids.length > 0 ? scoredSentence(catalog, next.sids[0], 0, 'neighbour') : undefined
}
