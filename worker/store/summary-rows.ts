import { compareTimeOrder } from '../../src/core/render-context'
import { droppedSummary, summaryCoverage, type RecordCodec } from './record-codec'
import { summaryKey, type DroppedSummaryRecord, type SummaryKey, type SummaryRecord } from './records'
import { readRevision } from './forget-revision'
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
 * Inside a forget's write, after the messages went: the summary of each conversation a forgotten message (or sentence)
 * belonged to, when it covered that message (`covers`; `forgotten` holds each conversation's earliest place,
 * `earliestPlaces`), is replaced by a dropped row, which keeps no text (the summary may repeat what was forgotten). A
 * conversation the forget left without a message is gone, and so is its row, whatever it covered: a dropped row would
 * keep its id for ever, in clear in both layouts. Decided on the rows' clear fields, so nothing is opened; a row whose
 * clear fields are not whole is dropped for any forget in its conversation. Resolves with the conversations whose
 * summary went.
 */
export async function dropCoveredSummaries(db: SiftDatabase, forgotten: readonly MessagePlace[]): Promise<string[]> {
  const rows = (await db.meta.bulkGet(forgotten.map((place) => summaryKey(place.conversationId)))) as (
    | StoredSummaryRecord
    | undefined
  )[]
  const dropped: string[] = []
  const droppedAt = Date.now()
  for (const [i, row] of rows.entries()) {
    const place = forgotten[i]
    const { conversationId } = place
    if (!row) continue
    if ((await db.messages.where('conversationId').equals(conversationId).count()) === 0) {
      await db.meta.delete(summaryKey(conversationId))
      dropped.push(conversationId)
      continue
    }
    if (droppedSummary(row) || (summaryCoverage(row) && !covers(row, place))) continue
    await db.meta.put(droppedRow(conversationId, droppedAt))
    dropped.push(conversationId)
  }
  return dropped
}

/** Whether a summary that ends at `summary`'s place in time order covers a message at `place` (at or before it). */
export function covers(
  summary: Pick<SummaryRecord, 'throughTimestamp' | 'throughSeq'>,
  place: Omit<MessagePlace, 'conversationId'>,
): boolean {
  return compareTimeOrder(place, { timestamp: summary.throughTimestamp, seq: summary.throughSeq }) <= 0
}

/** Each conversation's earliest place of `places`: a summary covers one of them iff it covers that one. */
export function earliestPlaces(places: readonly MessagePlace[]): MessagePlace[] {
  const earliest = new Map<string, MessagePlace>()
  for (const place of places) {
    const known = earliest.get(place.conversationId)
    if (!known || compareTimeOrder(place, known) < 0) earliest.set(place.conversationId, place)
  }
  return [...earliest.values()]
}

/**
 * Stores `encoded`, the row of `summary`, unless `stale` says, given the forget revision read in the same transaction,
 * that a forget may have removed something it covers since the app read what it summarised: then a dropped row, as
 * if that forget had come after it. One transaction, so no forget can fall between the check and the write. Resolves
 * with the row stored.
 */
export function saveSummaryRow(
  db: SiftDatabase,
  summary: SummaryRecord,
  encoded: StoredSummaryRecord,
  stale: (revision: number) => boolean,
): Promise<SummaryRecord | DroppedSummaryRecord> {
  return db.transaction('rw', db.meta, async () => {
    const row = stale(await readRevision(db)) ? droppedRow(summary.conversationId, Date.now()) : summary
    await db.meta.put(row === summary ? encoded : row)
    return row
  })
}

function droppedRow(conversationId: string, droppedAt: number): DroppedSummaryRecord {
  return { key: summaryKey(conversationId), conversationId, droppedAt }
}
