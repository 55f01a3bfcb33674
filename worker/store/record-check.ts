import type { MessageRecord } from './message-record'
import type { StoreState } from './records'
import type { SealedMessageRecord } from './stored-records'

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0
const isId = (value: unknown): value is number => isCount(value) && value > 0

/**
 * Whether a record of the `messages` table is in the layout Sift writes: every field of the right type, and its
 * spans ordered offsets inside its content. Anything else (another app's record, a damaged one) must not reach the
 * indexes, where it would fail with a bare TypeError or put garbage in a context.
 */
export function isMessageRecord(value: unknown): value is MessageRecord {
  if (typeof value !== 'object' || value === null) return false
  const { id, seq, role, content, conversationId, timestamp, firstSid, spans } = value as Record<string, unknown>
  if (
    typeof id !== 'string' ||
    typeof role !== 'string' ||
    typeof content !== 'string' ||
    typeof conversationId !== 'string'
  )
    return false
  if (!isId(seq) || !isId(firstSid) || typeof timestamp !== 'number' || !Number.isFinite(timestamp)) return false
  if (!Array.isArray(spans) || spans.length % 2 !== 0) return false
  let previousEnd = 0
  for (let i = 0; i < spans.length; i += 2) {
    const start: unknown = spans[i]
    const end: unknown = spans[i + 1]
    if (!isCount(start) || !isCount(end) || start < previousEnd || end < start || end > content.length) return false
    previousEnd = end
  }
  return true
}

/** Whether the `meta` table's state row is in the layout Sift writes (its counters usable to add messages). */
export function isStoreState(value: unknown): value is StoreState {
  if (typeof value !== 'object' || value === null) return false
  const { key, schemaVersion, model, nextSeq, nextSid, nextBlockId, embeddedThrough } = value as Record<string, unknown>
  return (
    key === 'state' &&
    isCount(schemaVersion) &&
    typeof model === 'string' &&
    isId(nextSeq) &&
    isId(nextSid) &&
    isId(nextBlockId) &&
    isCount(embeddedThrough)
  )
}

/**
 * Whether a record of the `messages` table is an encrypted memory's message (`SealedMessageRecord`): the fields in
 * clear of the right types. Whether its sealed part opens is only known by opening it.
 */
export function isSealedMessageRecord(value: unknown): value is SealedMessageRecord {
  if (typeof value !== 'object' || value === null) return false
  const { id, seq, conversationId, timestamp, firstSid, sentences, sealed } = value as Record<string, unknown>
  return (
    typeof id === 'string' &&
    typeof conversationId === 'string' &&
    isId(seq) &&
    isId(firstSid) &&
    isCount(sentences) &&
    typeof timestamp === 'number' &&
    Number.isFinite(timestamp) &&
    sealed instanceof Uint8Array
  )
}

/**
 * The sentences of a stored message, plain or sealed, read without opening it: sids `firstSid … firstSid + count - 1`.
 * `undefined` for a record in neither layout.
 */
export function sentenceRange(record: unknown): { firstSid: number; count: number } | undefined {
  if (isMessageRecord(record)) return { firstSid: record.firstSid, count: record.spans.length / 2 }
  if (isSealedMessageRecord(record)) return { firstSid: record.firstSid, count: record.sentences }
  return undefined
}

/** The sids of a stored message, plain or sealed (`sentenceRange`); none for a record in neither layout. */
export function messageSids(record: unknown): number[] {
  const range = sentenceRange(record)
  return range ? Array.from({ length: range.count }, (_, i) => range.firstSid + i) : []
}
