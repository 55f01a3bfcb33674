import type { ForgetSentence } from '../../src/history-types'
import type { ReplayedMessage } from './forget-replay'
import type { SyncedMessage } from './merge-rules'

// Two copies of one message compared, as a round reads them: the store's and the mirror's (worker/sync/replica.ts).

/** A message as a replayed forget reads it; one written before `addedAt` was carried counts as stored at once. */
export function addedAtKnown(message: SyncedMessage): ReplayedMessage {
  return { ...message, addedAt: message.addedAt ?? 0 }
}

/** The live sentences of a message: each non-empty span's text, at its offsets. */
function sentencesOf(message: SyncedMessage): { text: string; start: number; end: number }[] {
  const sentences = []
  for (let slot = 0; slot < message.spans.length / 2; slot++) {
    const start = message.spans[2 * slot]
    const end = message.spans[2 * slot + 1]
    if (start < end) sentences.push({ text: message.content.slice(start, end), start, end })
  }
  return sentences
}

/**
 * The sentences of `mine` that `other`, a copy of the same message, no longer has: a forget made where `other` was.
 * None when the two are the same text, or share no sentence (two different messages under one id, which no forget
 * made: neither is cut down to the other).
 */
export function sentencesGoneFrom(mine: SyncedMessage, other: SyncedMessage): ForgetSentence[] {
  if (mine.content === other.content) return []
  const kept = new Set(sentencesOf(other).map((sentence) => sentence.text))
  const ours = sentencesOf(mine)
  if (!ours.some((sentence) => kept.has(sentence.text))) return []
  return ours
    .filter((sentence) => !kept.has(sentence.text))
    .map(({ start, end }) => ({ messageId: mine.id, start, end }))
}
