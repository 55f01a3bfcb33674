import { droppedSummary, summaryCoverage, type RecordCodec } from './record-codec'
import { summaryKey, type DroppedSummaryRecord, type SummaryKey, type SummaryRecord } from './records'
import type { SiftDatabase } from './schema'
import type { StoredSummaryRecord } from './stored-records'

/** Where a forgotten message stood: its conversation and its place in time order, all clear in both layouts. */
export interface MessagePlace {
  conversationId: string
  timestamp: number
  seq: number
}

const FIRST_KEY: SummaryKey = 'summary:'
// Above every conversation id that sorts as a string: the range ends at the first key past the prefix.
const PAST_LAST_KEY = 'summary;'

/** Every summary row as stored. */
export function summaryRows(db: SiftDatabase): Promise<StoredSummaryRecord[]> {
  return db.meta.where('key').between(FIRST_KEY, PAST_LAST_KEY).toArray() as Promise<StoredSummaryRecord[]>
}

/** Every summary row, decoded (a row that does not decode is left out: its conversation has no summary). */
export async function readSummaries(
  db: SiftDatabase,
  codec: RecordCodec,
): Promise<(SummaryRecord | DroppedSummaryRecord)[]> {
  return decodeSummaries(codec, await summaryRows(db))
}

/** `rows` decoded, outside any transaction (a sealed row opens asynchronously), those that do not decode left out. */
export async function decodeSummaries(
  codec: RecordCodec,
  rows: readonly StoredSummaryRecord[],
): Promise<(SummaryRecord | DroppedSummaryRecord)[]> {
  const decoded = await Promise.all(rows.map((row) => codec.decodeSummary(row)))
  return decoded.filter((summary) => summary !== undefined)
}

/**
 * Inside a forget's write: the summary of each conversation a forgotten message (or sentence) belonged to, when it
 * covered that message, is replaced by a dropped row, which keeps no text (the summary may repeat what was forgotten);
 * with `wholeConversations` (a forget by conversation), the conversations are gone and so are their rows, whatever
 * they covered. Decided on the rows' clear fields, so
 * nothing is opened; a row whose clear fields are not whole is dropped for any forget in its conversation. Resolves
 * with the conversations whose summary went.
 */
export async function dropCoveredSummaries(
  db: SiftDatabase,
  forgotten: readonly MessagePlace[],
  wholeConversations: boolean,
): Promise<string[]> {
  const conversations = [...new Set(forgotten.map((place) => place.conversationId))]
  const rows = (await db.meta.bulkGet(conversations.map(summaryKey))) as (StoredSummaryRecord | undefined)[]
  const dropped: string[] = []
  const droppedAt = Date.now()
  for (const [i, row] of rows.entries()) {
    const conversationId = conversations[i]
    const key = summaryKey(conversationId)
    if (row && wholeConversations) {
      await db.meta.delete(key)
      dropped.push(conversationId)
      continue
    }
    if (!row || droppedSummary(row)) continue
    const covers =
      !summaryCoverage(row) ||
      forgotten.some(
        (place) =>
          place.conversationId === conversationId &&
          (place.timestamp < row.throughTimestamp ||
            (place.timestamp === row.throughTimestamp && place.seq <= row.throughSeq)),
      )
    if (!covers) continue
    await db.meta.put({ key, conversationId, droppedAt } satisfies DroppedSummaryRecord)
    dropped.push(conversationId)
  }
  return dropped
}
