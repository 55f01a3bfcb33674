import type { MessageRecord } from './message-record'
import type { StoreState } from './records'

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
  if (typeof id !== 'string' || typeof role !== 'string' || typeof content !== 'string' || typeof conversationId !== 'string') return false
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
  return key === 'state' && isCount(schemaVersion) && typeof model === 'string' && isId(nextSeq) && isId(nextSid) && isId(nextBlockId) && isCount(embeddedThrough)
}
