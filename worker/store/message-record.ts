import { splitSentences } from '../../src/core/split-sentences'
import type { Sentence, StoredMessage } from '../../src/types'

/**
 * A message as stored (schema 2): its sentences are spans of its own content with consecutive sids, so no
 * sentence needs a row of its own and no sentence text is stored twice.
 */
export interface MessageRecord extends StoredMessage {
  /** Sid of the first sentence; the message's sentences are `firstSid … firstSid + spans.length / 2 - 1`. */
  firstSid: number
  /** Flat `[start, end, start, end, …]` offsets of its sentences in `content`; an empty span is a removed sentence's place. */
  spans: number[]
}

/** The stored form of a message whose sentences get sids from `firstSid` on. */
export function toMessageRecord(message: StoredMessage, firstSid: number): MessageRecord {
  return { ...message, firstSid, spans: splitSentences(message.content).flatMap((span) => [span.start, span.end]) }
}

export function sentenceCount(record: MessageRecord): number {
  return record.spans.length / 2
}

/**
 * The message's sentences, in order. An empty span is the place of a removed sentence (`withoutSentences`): it keeps
 * its sid from being used again and is no sentence, so `index` counts the sentences left.
 */
export function sentencesOf(record: MessageRecord): Sentence[] {
  const { id: messageId, conversationId, seq, role, timestamp, content, firstSid, spans } = record
  const sentences: Sentence[] = []
  for (let slot = 0; slot < spans.length / 2; slot++) {
    const start = spans[2 * slot]
    const end = spans[2 * slot + 1]
    if (start === end) continue
    sentences.push({
      sid: firstSid + slot,
      messageId,
      conversationId,
      seq,
      index: sentences.length,
      role,
      timestamp,
      text: content.slice(start, end),
      start,
      end,
    })
  }
  return sentences
}
