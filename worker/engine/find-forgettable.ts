import type { ForgettableMatch, ForgettableSentence, StoredMessage } from '../../src/types'
import type { ForgettableRequest } from '../input/forgettable-request'
import { DenseRanking } from '../rank/dense-ranking'
import { FusedRanking } from '../rank/fused-ranking'
import { sentencePenalty, type RankingSources } from '../rank/rank-candidates'
import { RANK_TUNING, type RankTuning } from '../rank/rank-tuning'
import { listOf, type RankedList } from '../rank/ranked-list'
import { bm25Tokens, queryTerm } from '../text/text-analysis'

/** A message's place in the ranking: its ranked sentences, best first. */
export interface RankedMessage {
  messageId: string
  score: number
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
 * hit could enter it). The ranking's constants come from `tuning`.
 */
export function rankForgettable(
  request: ForgettableRequest,
  vector: Float32Array | undefined,
  sources: RankingSources,
  tuning: RankTuning = RANK_TUNING,
): RankedMessage[] {
  const filter = { conversationId: request.conversationId }
  const lexical = sources.lexical.search(request.topic, filter, tuning.hybridLexicalDepth, tuning)
  const dense =
    vector && sources.vectors
      ? new DenseRanking(sources.vectors.scan(vector, filter, sentencePenalty(sources, tuning)))
      : undefined
  const ranking: RankedList = dense ? new FusedRanking(dense, lexical, undefined, tuning.rrfK) : listOf(lexical)
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
      message = { messageId: found.messageId, score, sentences: [] }
      messages.set(found.messageId, message)
    }
    message.score = Math.max(message.score, score)
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
  return [...messages.values()].sort((a, b) => b.score - a.score).slice(0, request.limit)
}

/** Whether at least `limit` of the messages score `score` or more. */
function settledAbove(messages: ReadonlyMap<string, RankedMessage>, limit: number, score: number): boolean {
  let above = 0
  for (const message of messages.values()) if (message.score >= score && ++above >= limit) return true
  return false
}

/** The match shown to the user: the stored message, its ranked sentences, and why it matched. */
export function toForgettableMatch(ranked: RankedMessage, stored: StoredMessage, topic: string): ForgettableMatch {
  const { id: messageId, conversationId, role, timestamp, content } = stored
  return {
    messageId,
    conversationId,
    role,
    timestamp,
    content,
    score: ranked.score,
    sentences: ranked.sentences,
    why: whyItMatched(topic, content, ranked.sentences),
  }
}

/**
 * "shares 'peanuts', 'allergic'; dense rank 2": the message's words that are content words of the topic (as BM25
 * matched them: stop words aside, stemmed), and the best dense rank of its sentences.
 */
function whyItMatched(topic: string, content: string, sentences: readonly ForgettableSentence[]): string {
  const topicTerms = new Set(
    bm25Tokens(topic)
      .map(queryTerm)
      .filter((term) => term !== null),
  )
  const words: string[] = []
  for (const token of bm25Tokens(content)) {
    const word = token.toLowerCase()
    const term = queryTerm(word)
    if (term !== null && topicTerms.has(term) && !words.includes(word)) words.push(word)
  }
  const denseRanks = sentences.flatMap((s) => (s.denseRank === undefined ? [] : [s.denseRank]))
  const parts = [
    words.length > 0
      ? `shares ${words
          .slice(0, WHY_WORDS)
          .map((w) => `'${w}'`)
          .join(', ')}`
      : 'shares no word with the request',
  ]
  if (denseRanks.length > 0) parts.push(`dense rank ${Math.min(...denseRanks)}`)
  return parts.join('; ')
}
