import { fuseRanks } from '../src/core/fuse-ranks'
import { interleaveRankings } from '../src/core/interleave-rankings'
import { penaliseShortSentences, shortSentencePenalty } from '../src/core/short-sentence-penalty'
import type { ScoredSentence } from '../src/core/scored-sentence'
import type { ContextItem } from '../src/types'
import type { LexicalHit, LexicalIndex } from './lexical-index'
import type { SentenceCatalog } from './sentence-catalog'
import type { VectorHit, VectorIndex } from './vector-index'

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

type Hit = VectorHit | LexicalHit

/**
 * Dense rows scanned in the first round of `dense`; each further round scans four times as many, until every row
 * is ranked. `hybrid` ranks every row at once: reciprocal rank fusion over a truncated dense list is not the
 * fusion of the full lists (a sentence ranked 300th by dense loses its dense share), and on LoCoMo that
 * truncation cost 2 points of recall at 2,000 characters. The scan visits every row either way; only the sort grows.
 */
const FIRST_DEPTH = 256

/**
 * Relevance-ranked candidates, produced lazily: the dense top-k deepens only when the packer asks for more,
 * and ends after every matching sentence in scope was offered — so an exhausted packer really saw everything.
 * Several queries are interleaved round-robin, each ranked on its own. Dense similarities are lowered for
 * sentences with few content words (`shortSentencePenalty`), which small embedding models rank too high.
 */
export function* rankCandidates(
  strategy: 'dense' | 'lexical' | 'hybrid',
  queries: readonly RankingQuery[],
  conversationId: string | undefined,
  sources: RankingSources,
): Generator<ScoredSentence> {
  const filter = { conversationId }
  const lexicalHits = queries.map((query) => (strategy === 'dense' ? [] : sources.lexical.search(query.text, filter)))
  const penaltyOf = (hit: VectorHit): number => {
    const sentence = sources.catalog.get(hit.sid)
    return sentence ? shortSentencePenalty(sentence.text) : 0
  }
  const denseHits = (query: RankingQuery, depth: number): VectorHit[] => {
    if (strategy === 'lexical' || !query.vector || !sources.vectors) return []
    const hits = sources.vectors.search(query.vector, depth, filter)
    return penaliseShortSentences(hits, penaltyOf, hits.length < depth)
  }
  const rankOne = (query: RankingQuery, i: number, depth: number): Hit[] => {
    if (strategy === 'dense') return denseHits(query, depth)
    if (strategy === 'lexical') return lexicalHits[i]
    return fuseRanks([denseHits(query, depth).map((h) => h.sid), lexicalHits[i].map((h) => h.sid)]).map((f) => ({ sid: f.key, score: f.score }))
  }
  const allRows = strategy === 'lexical' ? 0 : (sources.vectors?.size ?? 0)
  const seen = new Set<number>()
  for (let depth = strategy === 'hybrid' ? Math.max(allRows, 1) : FIRST_DEPTH; ; depth *= 4) {
    const rankings = queries.map((query, i) => rankOne(query, i, depth))
    const best = bestScores(rankings)
    for (const sid of interleaveRankings(rankings.map((hits) => hits.map((h) => h.sid)))) {
      if (seen.has(sid)) continue
      seen.add(sid)
      const candidate = scoredSentence(sources.catalog, sid, best.get(sid)!, 'relevant')
      if (candidate) yield candidate
    }
    if (depth >= allRows) return
  }
}

/** Scope sentences in chronological order (`head`) or newest first (`tail`), for the positional baselines and recent turns. */
export function* positionalCandidates(catalog: SentenceCatalog, sids: readonly number[], newestFirst: boolean, reason: ContextItem['reason']): Generator<ScoredSentence> {
  for (let i = 0; i < sids.length; i++) {
    const candidate = scoredSentence(catalog, sids[newestFirst ? sids.length - 1 - i : i], 0, reason)
    if (candidate) yield candidate
  }
}

function bestScores(rankings: readonly Hit[][]): Map<number, number> {
  const best = new Map<number, number>()
  for (const hits of rankings) for (const { sid, score } of hits) best.set(sid, Math.max(score, best.get(sid) ?? -Infinity))
  return best
}

function scoredSentence(catalog: SentenceCatalog, sid: number, score: number, reason: ContextItem['reason']): ScoredSentence | undefined {
  const sentence = catalog.get(sid)
  return sentence && { ...sentence, turn: catalog.turnOf(sentence), score, reason }
}

/** The first sentence of the turn after `sentence`'s, in its conversation; undefined after the last turn. */
export function openingOfNextTurn(catalog: SentenceCatalog, sentence: ScoredSentence): ScoredSentence | undefined {
  const next = catalog.scope(sentence.conversationId).messages[sentence.turn + 1]
  return next && next.sids.length > 0 ? scoredSentence(catalog, next.sids[0], 0, 'neighbour') : undefined
}
