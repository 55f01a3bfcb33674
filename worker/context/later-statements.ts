import { compareTimeOrder } from '../../src/core/render-context'
import type { ScoredSentence } from '../../src/core/scored-sentence'
import type { LexicalIndex } from '../index/lexical/lexical-index'
import type { SentenceCatalog } from '../index/sentence-catalog'
import { scoredSentence } from '../index/sentence-candidate'
import type { LexicalTuning } from '../index/lexical/lexical-tuning'
import type { RankingQuery, RankingSources } from '../rank/rank-candidates'
import { openingOfNextTurn } from './catalog-candidates'
import type { ContextTuning } from './context-tuning'
import type { EarlierNeighbour, LaterStatement } from './later-updates'
import { confirmsPrevious } from './revision-cues'

/** What the search for later statements reads of the tuning: how many of each pool, and how BM25 scores. */
export type LaterStatementTuning = Pick<ContextTuning, 'requestNeighbours' | 'lexicalNeighbours'> & LexicalTuning

/**
 * For `followUpdates`: a function giving, for a ranked sentence, the sentences that may supersede it — by the same
 * speaker in the same conversation (or by the other speaker when the next turn, the sentence's speaker's, confirms
 * it: `LaterStatement.confirmed`), from the request's `requestNeighbours` nearest sentences in meaning (a revision
 * of what the request asks about is about the request too, even when worded so unlike it, "Sold the Polo, picked up
 * a Kia" for "What car do I drive?", that it ranks too low to be packed on its own) and the sentence's
 * `lexicalNeighbours` nearest in words (those the request's own ranking missed) — each with its cosine to the
 * sentence from the stored vectors. A sentence without a vector (not embedded yet) gets none. The request's
 * neighbours are searched once, at the first lookup; vectors are read once per request.
 */
export function laterStatementsOf(
  queries: readonly RankingQuery[],
  conversationId: string | undefined,
  sources: RankingSources,
  tuning: LaterStatementTuning,
): (sentence: ScoredSentence) => LaterStatement[] {
  const { vectors, catalog } = sources
  if (vectors === undefined) return () => []
  const read = new Map<number, Float32Array | undefined>()
  const vectorOf = (sid: number) => {
    if (!read.has(sid)) read.set(sid, vectors.vectorOf(sid))
    return read.get(sid)
  }
  let nearRequest: Map<number, number> | undefined
  // A later statement's nearest earlier sentences, searched once per request however many lines it is tested against.
  const nearBefore = new Map<number, EarlierNeighbour[]>()
  const earlierNeighboursOf = (later: ScoredSentence, vector: Float32Array) => {
    let near = nearBefore.get(later.sid)
    if (near === undefined)
      nearBefore.set(later.sid, (near = sentencesBefore(later, vector, sources, EARLIER_NEIGHBOURS)))
    return near
  }
  return (sentence) => {
    const own = vectorOf(sentence.sid)
    if (own === undefined) return []
    nearRequest ??= nearestToRequest(queries, conversationId, vectors, tuning.requestNeighbours)
    const statements: LaterStatement[] = []
    for (const sid of new Set([...nearRequest.keys(), ...laterInWords(sentence, sources.lexical, catalog, tuning)])) {
      // Only what was said after it can supersede it: the others are left before their vectors are read.
      const stored = sid === sentence.sid ? undefined : catalog.get(sid)
      if (stored === undefined || compareTimeOrder(stored, sentence) <= 0) continue
      const later = scoredSentence(catalog, sid, 0, 'update')
      if (later === undefined || later.conversationId !== sentence.conversationId) continue
      const confirmed = later.role !== sentence.role && confirmedBy(catalog, later, sentence.role)
      if (later.role !== sentence.role && !confirmed) continue
      const vector = vectorOf(sid)
      if (vector === undefined) continue
      const earlierNeighbours = () => earlierNeighboursOf(later, vector)
      const requestRank = nearRequest.get(sid)
      statements.push({
        sentence: later,
        similarity: dot(own, vector),
        earlierNeighbours,
        ...(requestRank !== undefined && { requestRank }),
        ...(confirmed && { confirmed }),
      })
    }
    return statements
  }
}

/** The `k` sentences nearest each query in meaning, each with its best place among them (0 the nearest). */
function nearestToRequest(
  queries: readonly RankingQuery[],
  conversationId: string | undefined,
  vectors: NonNullable<RankingSources['vectors']>,
  k: number,
): Map<number, number> {
  const ranks = new Map<number, number>()
  for (const query of queries) {
    if (query.vector === undefined) continue
    vectors.search(query.vector, k, { conversationId }).forEach(({ sid }, rank) => {
      ranks.set(sid, Math.min(rank, ranks.get(sid) ?? rank))
    })
  }
  return ranks
}

/**
 * How many of a later statement's nearest sentences `revisesMost` reads (`later-updates.ts`): enough to hold the
 * `updateRivals` closest earlier statements of the speaker once the other speaker's lines, later lines and
 * questions among them are left out. Sentences; a search depth, not a tuned weight.
 */
const EARLIER_NEIGHBOURS = 24

/** The `k` sentences of `later`'s conversation nearest `vector` (its own), those said before it, with their cosines. */
function sentencesBefore(
  later: ScoredSentence,
  vector: Float32Array,
  { vectors, catalog }: RankingSources,
  k: number,
): EarlierNeighbour[] {
  const near: EarlierNeighbour[] = []
  for (const hit of vectors?.search(vector, k, { conversationId: later.conversationId }) ?? []) {
    const stored = catalog.get(hit.sid)
    if (stored === undefined || compareTimeOrder(stored, later) >= 0) continue
    const sentence = scoredSentence(catalog, hit.sid, 0, 'relevant')
    if (sentence !== undefined) near.push({ sentence, similarity: hit.score })
  }
  return near
}

/** Whether the turn after `later`'s is by `role` and opens by agreeing with it (`confirmsPrevious`). */
function confirmedBy(catalog: SentenceCatalog, later: ScoredSentence, role: string): boolean {
  const reply = openingOfNextTurn(catalog, later)
  return reply !== undefined && reply.role === role && confirmsPrevious(reply.text)
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i]
  return sum
}

/**
 * Sentences said after `sentence` in its conversation (`compareTimeOrder`: a history imported newest first adds the
 * later ones first) that share its content terms, best BM25 first (at most `lexicalNeighbours`). Memoised per
 * sentence until the lexical index changes (it changes with the catalog): a search per looked-up candidate would
 * otherwise be repeated by every request that ranks it. A memory has one tuning, so it is not part of the key.
 */
function laterInWords(
  sentence: ScoredSentence,
  lexical: LexicalIndex,
  catalog: SentenceCatalog,
  tuning: LaterStatementTuning,
): number[] {
  let memo = laterMemo.get(lexical)
  if (memo === undefined || memo.revision !== lexical.revision)
    laterMemo.set(lexical, (memo = { revision: lexical.revision, later: new Map() }))
  let sids = memo.later.get(sentence.sid)
  if (sids === undefined) {
    const hits = lexical
      .similarSentences(sentence.text, lexical.languageOf(sentence.sid), sentence.conversationId, tuning)
      .filter((hit) => {
        const other = catalog.get(hit.sid)
        return other !== undefined && compareTimeOrder(other, sentence) > 0
      })
    memo.later.set(sentence.sid, (sids = hits.slice(0, tuning.lexicalNeighbours).map((hit) => hit.sid)))
  }
  return sids
}

const laterMemo = new WeakMap<LexicalIndex, { revision: number; later: Map<number, number[]> }>()
