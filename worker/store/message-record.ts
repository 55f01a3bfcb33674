import { splitSentences } from '../../src/core/split-sentences'
import type { Sentence, StoredMessage } from '../../src/types'

/**
 * A message as stored (schema 2): its sentences are spans of its own content with consecutive sids, so no
 * sentence needs a row of its own and no sentence text is stored twice.
 */
export interface MessageRecord extends StoredMessage {
  /** Sid of the first sentence; the message's sentences are `firstSid … firstSid + spans.length / 2 - 1`. */
  firstSid: number
  /** Flat `[start, end, start, end, …]` offsets of its sentences in `content`. */
  spans: number[]
}

/** The stored form of a message whose sentences get sids from `firstSid` on. */
export function toMessageRecord(message: StoredMessage, firstSid: number): MessageRecord {
  return { ...message, firstSid, spans: splitSentences(message.content).flatMap((span) => [span.start, span.end]) }
}

export function sentenceCount(record: MessageRecord): number {
  return record.spans.length / 2
}

/** The message's sentences, in order. */
export function sentencesOf(record: MessageRecord): Sentence[] {
  const { id: messageId, conversationId, seq, role, timestamp, content, firstSid, spans } = record
  const sentences: Sentence[] = []
  for (let index = 0; index < spans.length / 2; index++) {
    const start = spans[2 * index]
    const end = spans[2 * index + 1]
    sentences.push({
      sid: firstSid + index,
      messageId,
      conversationId,
      seq,
      index,
      role,
      timestamp,
      text: content.slice(start, end),
      start,
      end,
    })
  }
  return sentences
}
