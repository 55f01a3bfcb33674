import type { ScoredSentence } from '../../src/core/scored-sentence'
import type { DenseTrust } from '../../src/types'
import type { WordNeighbours } from '../embed/word-neighbours'
import type { LexicalIndex } from '../index/lexical/lexical-index'
import type { CatalogScope, SentenceCatalog } from '../index/sentence-catalog'
import { scoredSentence } from '../index/sentence-candidate'
import type { VectorIndex } from '../index/vector/vector-index'
import { DenseRanking } from './dense-ranking'
import { FusedRanking, type LexicalWeight } from './fused-ranking'
import { lexicalShare } from './lexical-share'
import { ProbedDenseRanking } from './probed-dense-ranking'
import { requestExpansions, type Expansion } from './query-expansion'
import { RANK_TUNING, type RankTuning } from './rank-tuning'
import { listOf, type RankedList, type RankedSid } from './ranked-list'
import { detectLanguage } from '../text/language-detection'
import type { Language } from '../text/text-analysis'
import { penaltyForContentTerms, shortSentencePenalty } from './short-sentence-penalty'
import { speakerNameTerms, speakerNameWords, withoutSpeakerNames } from './speaker-names'
import { termCoverage } from './term-coverage'

export interface RankingSources {
  catalog: SentenceCatalog
  /** Absent until the first vector exists. */
  vectors: VectorIndex | undefined
  lexical: LexicalIndex
  /** For `hybrid`: the word-neighbour table to take stand-ins for the request's unused words from (`requestExpansions`); absent, no widening. */
  wordNeighbours?: WordNeighbours
}

/** One query: its text (lexical) and its embedding (dense; absent for lexical-only ranking). */
export interface RankingQuery {
  text: string
  vector?: Float32Array
  /** The language its words are analysed in; when absent, the lexical index's `requestLanguage`. */
  language?: Language
  /** How far `hybrid` trusts the dense ranking with it (`denseTrust`); absent: in full. */
  denseTrust?: DenseTrust
}

/**
 * Relevance-ranked candidates, produced lazily, ending after every matching sentence in scope was offered — so an
 * exhausted packer really saw everything. Several queries are interleaved round-robin, each ranked on its own; a
 * candidate carries its best score over the queries. Dense similarities are lowered for sentences with few content
 * words (`shortSentencePenalty`), which small embedding models rank too high. Each query's vectors are scanned once;
 * `dense` and `hybrid` then order only the prefix the packer reaches (`DenseRanking`, `FusedRanking`). Once the
 * vector index has coarse lists (from `COARSE_MIN_ROWS` rows on), `dense` without a conversation filter starts
 * from a probe of the nearest lists instead of scanning every row (`ProbedDenseRanking`). `hybrid`
 * fuses the full dense ranking: reciprocal rank fusion over a truncated dense list drops the dense share of a
 * sentence ranked below the cut, which cost recall on LoCoMo (BENCHMARKS.md). Every constant comes from `tuning`.
 */
export function* rankCandidates(
  strategy: 'dense' | 'lexical' | 'hybrid',
  queries: readonly RankingQuery[],
  conversationId: string | undefined,
  sources: RankingSources,
  tuning: RankTuning = RANK_TUNING,
): Generator<ScoredSentence> {
  const filter = { conversationId }
  const penaltyOf = sentencePenalty(sources, tuning)
  const denseRanking = (query: RankingQuery): DenseRanking | undefined =>
    query.vector && sources.vectors
      ? new DenseRanking(sources.vectors.scan(query.vector, filter, penaltyOf))
      : undefined
  // Only unfiltered: a conversation's rows are a small share of the lists, and its exact scan is cheap enough.
  const probedRanking = (query: RankingQuery): ProbedDenseRanking | undefined => {
    const probed =
      query.vector && conversationId === undefined ? sources.vectors?.probe(query.vector, penaltyOf) : undefined
    return probed && new ProbedDenseRanking(probed, () => denseRanking(query)!)
  }
  // The scope's speakers' names, for hybrid: worked out once per request, not per query.
  let nameWords: Set<string> | undefined
  const speakerNames = () => (nameWords ??= speakerNameWords(sources.catalog.scope(conversationId).roles.keys()))
  const rankings: RankedList[] = queries.map((query) => {
    const language = query.language ?? sources.lexical.requestLanguage(query.text, conversationId)
    if (strategy === 'lexical') return listOf(sources.lexical.search(query.text, filter, Infinity, tuning, language))
    if (strategy === 'dense') return probedRanking(query) ?? denseRanking(query) ?? listOf([])
    const words = speakerNames()
    const lexicalQuery = widened(query, language, sources, words, tuning.expansionsPerWord)
    const terms = speakerNameTerms(words, language)
    const denseWeight = query.denseTrust?.weight ?? 1
    const share = tuning.lexicalShare
      ? lexicalWeight(query, language, denseWeight, conversationId, sources, terms, lexicalQuery.expansions, tuning)
      : undefined
    return new FusedRanking(
      denseRanking(query),
      sources.lexical.search(lexicalQuery.text, filter, tuning.hybridLexicalDepth, tuning, language),
      withAssistantShare(share, sources.catalog, tuning.assistantLexicalShare),
      tuning.rrfK,
      denseWeight,
      tuning.lexicalListEnd ? tuning.lexicalListEndMin : undefined,
    )
  })
  const seen = new Set<number>()
  for (let position = 0; ; position++) {
    let more = false
    for (const [query, ranking] of rankings.entries()) {
      const hit = ranking.at(position)
      if (!hit) continue
      more = true
      if (seen.has(hit.sid)) continue
      seen.add(hit.sid)
      const candidate = scoredSentence(
        sources.catalog,
        hit.sid,
        rankings.length === 1 ? hit.score : bestScore(rankings, hit.sid),
        'relevant',
      )
      if (candidate) yield explained(candidate, strategy, hit, position, query)
    }
    if (!more) return
  }
}

/**
 * `hybrid`'s lexical query: the request's text plus stand-ins for its words the history never uses
 * (`requestExpansions`), and those expansions, which the lexical share counts at a discount. No stand-ins without word
 * vectors, or without a dense ranking to fuse with (a request ranked lexically because the model failed).
 */
function widened(
  query: RankingQuery,
  language: Language | undefined,
  sources: RankingSources,
  nameWords: ReadonlySet<string>,
  perWord: number,
): { text: string; expansions: Expansion[] } {
  if (!sources.wordNeighbours || !query.vector) return { text: query.text, expansions: [] }
  const expansions = requestExpansions(
    query.text,
    language,
    sources.wordNeighbours,
    (term) => sources.lexical.usesTerm(term),
    nameWords,
    perWord,
  )
  return { text: [query.text, ...expansions.flatMap((expansion) => expansion.standIns)].join(' '), expansions }
}

/**
 * How much each lexical hit of `query` counts in `hybrid` (`lexicalShare`): by the share of the query's words it
 * covers and the history's vocabulary reaches, the speakers' names left out (they say whose sentence, not what
 * about), and by its dense rank.
 */
function lexicalWeight(
  query: RankingQuery,
  language: Language | undefined,
  denseWeight: number,
  conversationId: string | undefined,
  sources: RankingSources,
  nameTerms: ReadonlySet<string>,
  expansions: readonly Expansion[],
  tuning: RankTuning,
): LexicalWeight {
  const filter = { conversationId }
  const coverage = termCoverage(
    sources.lexical,
    query.text,
    language,
    filter,
    nameTerms,
    expansions,
    tuning.standInCredit,
  )
  return (sid, denseRank) => lexicalShare(coverage.coverageOf(sid), coverage.reach, denseRank, tuning, denseWeight)
}

/**
 * `share` (in full when undefined) times `assistantShare` for a hit the assistant said (`assistantLexicalShare`):
 * a reply restates the subject it answers in the user's words, so its word matches say where a subject was talked
 * about, while the fact is in what the user said, often in other words. Only the role `'assistant'`: a conversation
 * between named speakers (LoCoMo's) has no reply of that kind, and its ranking is unchanged. Undefined (every hit in
 * full) when neither applies.
 */
function withAssistantShare(
  share: LexicalWeight | undefined,
  catalog: SentenceCatalog,
  assistantShare: number,
): LexicalWeight | undefined {
  if (assistantShare === 1) return share
  return (sid, denseRank) =>
    (catalog.get(sid)?.role === 'assistant' ? assistantShare : 1) * (share ? share(sid, denseRank) : 1)
}

/** A ranked candidate with why it is there: its rank in each ranking, its fused score (`hybrid`) and the query that found it. */
function explained(
  candidate: ScoredSentence,
  strategy: 'dense' | 'lexical' | 'hybrid',
  hit: RankedSid,
  position: number,
  query: number,
): ScoredSentence {
  if (strategy === 'hybrid') {
    candidate.ranks = hit.ranks
    candidate.fused = hit.score
  } else candidate.ranks = strategy === 'lexical' ? { lexical: position + 1 } : { dense: position + 1 }
  candidate.query = query
  return candidate
}

/**
 * The texts to embed for the dense ranking of `queries` in `scope`: each without the names of the scope's speakers
 * (`withoutSpeakerNames`), unless `tuning` keeps them.
 */
export function denseQueryTexts(
  queries: readonly string[],
  scope: Pick<CatalogScope, 'roles'>,
  tuning: Pick<RankTuning, 'speakerNamesOutOfDenseQuery'> = RANK_TUNING,
): string[] {
  if (!tuning.speakerNamesOutOfDenseQuery) return [...queries]
  return queries.map((query) => withoutSpeakerNames(query, scope.roles.keys()))
}

/** The short-sentence penalty of a sid's sentence, from the content words the lexical index counted when it has them. */
export function sentencePenalty(
  sources: Pick<RankingSources, 'catalog' | 'lexical'>,
  tuning: RankTuning = RANK_TUNING,
): (sid: number) => number {
  return (sid) => {
    const terms = sources.lexical.contentTermCountOf(sid)
    if (terms !== undefined) return penaltyForContentTerms(terms, tuning)
    const sentence = sources.catalog.get(sid)
    return sentence ? shortSentencePenalty(sentence.text, detectLanguage(sentence.text), tuning) : 0
  }
}

function bestScore(rankings: readonly RankedList[], sid: number): number {
  let best = -Infinity
  for (const ranking of rankings) best = Math.max(best, ranking.scoreOf(sid) ?? -Infinity)
  return best
}
