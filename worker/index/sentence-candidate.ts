import type { ScoredSentence } from '../../src/core/scored-sentence'
import type { ContextItem } from '../../src/types'
import type { SentenceCatalog } from './sentence-catalog'

/**
 * `sid`'s sentence as a candidate, with its turn, `score` and `reason`: what the rankings pass on and the selection
 * stages add; undefined when the catalog no longer holds it.
 */
export function scoredSentence(
  catalog: SentenceCatalog,
  sid: number,
  score: number,
  reason: ContextItem['reason'],
): ScoredSentence | undefined {
  const sentence = catalog.get(sid)
  if (!sentence) return undefined
  // Written out rather than spread: a literal of one fixed shape is several times cheaper, and a request builds hundreds.
  const { messageId, conversationId, seq, index, role, timestamp, text, start, end } = sentence
  return {
    sid,
    messageId,
    conversationId,
    seq,
    index,
    role,
    timestamp,
    text,
    start,
    end,
    turn: catalog.turnOf(sentence),
    score,
    reason,
  }
}
