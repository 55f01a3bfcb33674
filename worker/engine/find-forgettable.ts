import type { ForgettableMatch, ForgettableSentence, StoredMessage } from '../../src/types'
import type { ForgettableRequest } from '../input/forgettable-request'
import { DenseRanking } from '../rank/dense-ranking'
import { denseTrust } from '../rank/dense-trust'
import { FusedRanking } from '../rank/fused-ranking'
import { sentencePenalty, type RankingSources } from '../rank/rank-candidates'
import { RANK_TUNING, type RankTuning } from '../rank/rank-tuning'
import { listOf, type RankedList } from '../rank/ranked-list'
import { termCoverage } from '../rank/term-coverage'
import { type Language, words, wordQueryTerms } from '../text/text-analysis'
import type { EmbeddedTopic } from './forgettable-topic'
import type { EngineStore } from './open-parts'

/**
 * The stored messages `request` refers to, best first: ranked (`rankForgettable`, the dense ranking counting as much as
 * in a context for a request in the same language, `denseTrust`), then read from the store. Call it in the write
 * queue, so no forget or clear falls between the ranking and the contents.
 */
export async function forgettableMatches(
  request: ForgettableRequest,
  topic: EmbeddedTopic | undefined,
  sources: RankingSources,
  store: Pick<EngineStore, 'messagesById'>,
  modelLanguages: readonly Language[] | 'all',
  tuning: RankTuning,
): Promise<ForgettableMatch[]> {
  const language = sources.lexical.requestLanguage(request.topic, request.conversationId)
  const trust = denseTrust(topic?.unknownShare ?? 0, language, modelLanguages, tuning)
  const ranked = rankForgettable(request, topic?.vector, sources, tuning, language, trust?.weight)
  const stored = new Map((await store.messagesById(ranked.map((m) => m.messageId))).map((m) => [m.id, m]))
  return ranked.flatMap((m) => {
    const message = stored.get(m.messageId)
    return message ? [toForgettableMatch(m, message, request.topic, language)] : []
  })
}

/** A message's place in the ranking: its ranked sentences, best first, and how closely it matches. */
export interface RankedMessage {
  messageId: string
  /** `ForgettableMatch.score`: the larger of its words' coverage of the topic and its best sentence's similarity. */
  score: number
  /** Its place in this request's ranking: its best sentence's fused score, an other role's share of it taken. */
  rankScore: number
  sentences: ForgettableSentence[]
}

/** Shared words named in `why`: enough to recognise the topic, few enough to read at a glance. */
const WHY_WORDS = 5

/** The role whose messages a "forget that I …" request is about: the person asking. */
const ASKING_ROLE = 'user'

/**
 * The messages whose sentences rank best for `request.topic`, best first, at most `request.limit`: BM25 fused by
 * reciprocal rank with the dense ranking, short sentences penalised, with equal weights (a context's per-hit lexical
 * weight, `lexicalWeight`, is tuned for questions, not for the statement a user asks to forget), or by BM25 alone
 * without `vector` or before any sentence has one. A sentence of a message not by the user keeps
 * `forgettableOtherRoleShare` of its score, so that the user's statement comes before the replies that repeat it. A
 * message ranks by its best sentence; the sentences it carries are those ranked before the list was settled (no later
 * hit could enter it). Each is also scored on a scale that means the same for every request (the ranks and fused
 * scores do not: they only order one request's hits), the larger of its turn's coverage of the topic's terms and its
 * best similarity, and those below `request.minScore` are dropped. The ranking's constants come from `tuning`;
 * `denseWeight` is how far the dense ranking is trusted with the topic (`denseTrust`, as for a context: a model not
 * trained on the topic's language only reorders behind the word matches).
 */
export function rankForgettable(
  request: ForgettableRequest,
  vector: Float32Array | undefined,
  sources: RankingSources,
  tuning: RankTuning = RANK_TUNING,
  language: Language | undefined = sources.lexical.requestLanguage(request.topic, request.conversationId),
  denseWeight = 1,
): RankedMessage[] {
  const filter = { conversationId: request.conversationId }
  const lexical = sources.lexical.search(request.topic, filter, tuning.hybridLexicalDepth, tuning, language)
  const scores =
    vector && sources.vectors ? sources.vectors.scan(vector, filter, sentencePenalty(sources, tuning)) : undefined
  const dense = scores && new DenseRanking(scores)
  const ranking: RankedList = dense
    ? new FusedRanking(dense, lexical, undefined, tuning.rrfK, denseWeight)
    : listOf(lexical)
  const coverage = termCoverage(sources.lexical, request.topic, language, filter, new Set())
  const similarityOf = (sid: number) => {
    const at = scores ? scores.positionOf(sid) : -1
    return at < 0 ? 0 : Math.max(0, scores!.raw[at])
  }
  const messages = new Map<string, RankedMessage>()
  for (let position = 0; ; position++) {
    const hit = ranking.at(position)
    if (!hit) break
    // Hits come best first and a share never exceeds 1: once `limit` messages score at least this hit, none can join.
    if (messages.size >= request.limit && settledAbove(messages, request.limit, hit.score)) break
    const found = sources.catalog.get(hit.sid)
    if (!found) continue
    const score = found.role === ASKING_ROLE ? hit.score : hit.score * tuning.forgettableOtherRoleShare
    let message = messages.get(found.messageId)
    if (!message) {
      // The coverage counts the words of the sentence's whole turn: the same for each of the message's sentences.
      message = { messageId: found.messageId, score: coverage.coverageOf(hit.sid), rankScore: score, sentences: [] }
      messages.set(found.messageId, message)
    }
    message.score = Math.max(message.score, similarityOf(hit.sid))
    message.rankScore = Math.max(message.rankScore, score)
    // The fused ranking says each hit's rank in both lists; BM25's own list is its order.
    const ranks = dense ? hit.ranks : { lexical: position + 1 }
    message.sentences.push({
      text: found.text,
      start: found.start,
      end: found.end,
      score,
      ...(ranks?.lexical !== undefined && { lexicalRank: ranks.lexical }),
      ...(ranks?.dense !== undefined && { denseRank: ranks.dense }),
    })
  }
  return [...messages.values()]
    .sort((a, b) => b.rankScore - a.rankScore)
    .slice(0, request.limit)
    .filter((message) => message.score >= request.minScore)
}

/** Whether at least `limit` of the messages rank at `score` or above. */
function settledAbove(messages: ReadonlyMap<string, RankedMessage>, limit: number, score: number): boolean {
  let above = 0
  for (const message of messages.values()) if (message.rankScore >= score && ++above >= limit) return true
  return false
}

/** The match shown to the user: the stored message, its ranked sentences, and why it matched (words compared in `language`, the topic's). */
export function toForgettableMatch(
  ranked: RankedMessage,
  stored: StoredMessage,
  topic: string,
  language: Language | undefined,
): ForgettableMatch {
  const { id: messageId, conversationId, role, timestamp, content } = stored
  return {
    messageId,
    conversationId,
    role,
    timestamp,
    content,
    score: ranked.score,
    sentences: ranked.sentences,
    why: whyItMatched(topic, content, language, ranked.sentences),
  }
}

/**
 * "shares 'peanuts', 'allergic'; dense rank 2": the message's words that are content words of the topic (as BM25
 * matched them: stop words aside, stemmed), and the best dense rank of its sentences.
 */
function whyItMatched(
  topic: string,
  content: string,
  language: Language | undefined,
  sentences: readonly ForgettableSentence[],
): string {
  const topicTerms = new Set(words(topic).flatMap((word) => wordQueryTerms(word, language)))
  const shared: string[] = []
  for (const word of words(content)) {
    const terms = wordQueryTerms(word, language)
    if (terms.some((term) => topicTerms.has(term)) && !shared.includes(word)) shared.push(word)
  }
  const denseRanks = sentences.flatMap((s) => (s.denseRank === undefined ? [] : [s.denseRank]))
  const parts = [
    shared.length > 0
      ? `shares ${shared
          .slice(0, WHY_WORDS)
          .map((w) => `'${w}'`)
          .join(', ')}`
      : 'shares no word with the request',
  ]
  if (denseRanks.length > 0) parts.push(`dense rank ${Math.min(...denseRanks)}`)
  return parts.join('; ')
}
