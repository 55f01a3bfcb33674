import type { Sentence } from '../../src/types'
import type { SyntheticHistory } from './synthetic-history'

/** The synthetic history's sentences as the store hands them to the indexes (sids from 1, in history order). */
export function syntheticSentences(history: SyntheticHistory): Sentence[] {
  return history.sentences.map((s) => {
    const messageIndex = Number(s.messageId.slice(1))
    const message = history.messages[messageIndex]
    return {
      sid: s.index + 1,
      messageId: s.messageId,
      conversationId: message.conversationId,
      seq: messageIndex,
      index: s.index - history.messageStarts[messageIndex],
      role: message.role,
      timestamp: message.timestamp,
      text: s.text,
      start: s.start,
      end: s.start + s.text.length,
    }
  })
}
