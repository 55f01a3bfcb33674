import { SiftError } from '../../src/errors'
import type { MessageRecord } from './message-record'
import type { CoarseListsRecord, DroppedSummaryRecord, LexicalSnapshot, SummaryRecord } from './records'
import { isMessageRecord } from './record-check'
import { inOneTransaction, type RewriteRunner } from './rewrite'
import { inSidOrder } from './sid-order'
import { isVectorBlock, isVectorResiduals } from './vector-record-check'
import {
  isSealed,
  type StoredCoarseLists,
  type StoredLexicalSnapshot,
  type StoredMessageRecord,
  type StoredPinsRecord,
  type StoredResiduals,
  type StoredSummaryRecord,
  type StoredVectorBlock,
} from './stored-records'
import { splitResiduals, type FloatVectorBlock, type VectorBlock, type VectorResiduals } from './vector-block'

/**
 * How a memory's records are stored: as they are (`plainCodec`) or sealed (`sealingCodec`). The store runs the same
 * code for both: it reads records, decodes and encodes them with the codec, and writes; an operation that rewrites
 * what it read is a `Rewrite` the codec runs (`rewrite`), in one transaction or in two with a check in between
 * (worker/store/rewrite.ts). Encoding takes the whole record and decoding the whole stored one, clear fields included,
 * so that a layout may bind them to what it seals.
 *
 * A decoder returns `undefined` for a record it cannot read back (not of its layout, not opening with its key, or parts
 * that do not fit together); what that costs is the caller's choice: a message is skipped, a saved index rebuilt, a
 * vector record dropped and its vectors re-embedded (derived data) or, where a write needs it whole, `damaged`.
 */
export interface RecordCodec {
  /** Messages come in batches (an add, a whole table at open): one call for all, parallel to `records`. */
  encodeMessages(records: readonly MessageRecord[]): Promise<readonly StoredMessageRecord[]>
  /** Takes any records of `messages`: another app's, or a damaged one, is not a message. */
  decodeMessages(records: readonly unknown[]): Promise<(MessageRecord | undefined)[]>
  /** The block as its two stored records: codes, and residuals for format 2 (`splitResiduals`). */
  encodeBlock(block: VectorBlock): Promise<{ codes: StoredVectorBlock; residuals: StoredResiduals | undefined }>
  /** The block a codes record holds, without its residuals, as stored (float32 in a plain store written before int8). */
  decodeBlock(record: StoredVectorBlock): Promise<VectorBlock | FloatVectorBlock | undefined>
  decodeResiduals(record: StoredResiduals): Promise<VectorResiduals | undefined>
  encodeLexicalSnapshot(snapshot: Omit<LexicalSnapshot, 'key'>): Promise<StoredLexicalSnapshot>
  decodeLexicalSnapshot(record: StoredLexicalSnapshot | undefined): Promise<LexicalSnapshot | undefined>
  /** Takes the lists as the vector index serialised them (`CoarseListsRecord` without its key). */
  encodeCoarseLists(lists: object): Promise<StoredCoarseLists>
  decodeCoarseLists(record: StoredCoarseLists | undefined): Promise<CoarseListsRecord | undefined>
  encodePins(messageIds: readonly string[]): Promise<StoredPinsRecord>
  /** The pinned ids; none for a missing row, and for one that does not decode (a damaged row loses the pins, nothing else). */
  decodePins(record: StoredPinsRecord | undefined): Promise<string[]>
  encodeSummary(summary: SummaryRecord): Promise<StoredSummaryRecord>
  /** A summary row as set, or as a forget dropped it; `undefined` for one that does not decode (it is then unset). */
  decodeSummary(record: StoredSummaryRecord): Promise<SummaryRecord | DroppedSummaryRecord | undefined>
  /** How an operation that rewrites what it read runs for these records. */
  rewrite: RewriteRunner
  /** The error for a vector record (`what`: "vector block 3") that does not decode. */
  damaged(what: string): SiftError
}

/**
 * A plain memory's codec: records are stored as they are, so only a sealed record (which a memory without a key check
 * cannot open) fails to decode. Nothing here waits on more than the microtask queue, so a rewrite runs in one
 * transaction: it reads the blocks once instead of twice (BENCHMARKS.md, "One store algorithm for plain and encrypted
 * memories", has what two would cost), and two engines writing to one plain database are serialised instead of
 * refused, as before the codec (a worker replaced while its engine still finishes a write: tests/api/worker-memory.test.ts).
 */
export const plainCodec: RecordCodec = {
  encodeMessages: async (records) => records,
  decodeMessages: async (records) => records.map((record) => (isMessageRecord(record) ? record : undefined)),
  encodeBlock: async (block) => splitResiduals(block),
  decodeBlock: async (record) => (isVectorBlock(record) ? record : undefined),
  decodeResiduals: async (record) => (isVectorResiduals(record) ? record : undefined),
  encodeLexicalSnapshot: async (snapshot) => ({ key: 'lexical', ...snapshot }),
  decodeLexicalSnapshot: async (record) => (record && !isSealed(record) ? record : undefined),
  encodeCoarseLists: async (lists) => ({ key: 'vectors', ...lists }),
  decodeCoarseLists: async (record) => (record && !isSealed(record) ? record : undefined),
  encodePins: async (messageIds) => ({ key: 'pins', messageIds: [...messageIds] }),
  decodePins: async (record) => (record && !isSealed(record) ? pinnedIds(record.messageIds) : []),
  encodeSummary: async (summary) => ({ ...summary }),
  async decodeSummary(record) {
    const dropped = droppedSummary(record)
    if (dropped) return dropped
    const { text } = record as Partial<SummaryRecord>
    return summaryCoverage(record) && typeof text === 'string' ? { ...clearFields(record), text } : undefined
  },
  rewrite: inOneTransaction,
  damaged: (what) =>
    new SiftError(
      'STORAGE_FAILED',
      `The ${what} of this memory is sealed, but the memory is not encrypted: it was altered or damaged. Nothing was changed; if this persists, delete the database (indexedDB.deleteDatabase with the memory's name) to start over.`,
    ),
}

/** A summary row's clear fields: everything but its text. */
export type SummaryCoverage = Omit<SummaryRecord, 'text'>

/** A summary row a forget dropped, in either layout; `undefined` for any other row. */
export function droppedSummary(record: unknown): DroppedSummaryRecord | undefined {
  const row = record as Partial<DroppedSummaryRecord>
  return typeof row.droppedAt === 'number' && typeof row.conversationId === 'string' && typeof row.key === 'string'
    ? { key: row.key as DroppedSummaryRecord['key'], conversationId: row.conversationId, droppedAt: row.droppedAt }
    : undefined
}

/**
 * Whether a summary row's clear fields are whole: the conversation, the last covered message and its place in time
 * order. A forget reads them to decide what the summary covers; a row without them covers everything it could.
 */
export function summaryCoverage(record: unknown): record is SummaryCoverage {
  const row = record as Partial<SummaryRecord>
  return (
    typeof row.key === 'string' &&
    typeof row.conversationId === 'string' &&
    row.key === `summary:${row.conversationId}` &&
    typeof row.through === 'string' &&
    typeof row.throughTimestamp === 'number' &&
    typeof row.throughSeq === 'number' &&
    typeof row.setAt === 'number'
  )
}

/** A summary row's clear fields alone, copied (a stored row may carry more). */
export function clearFields(record: SummaryCoverage): SummaryCoverage {
  const { key, conversationId, through, throughTimestamp, throughSeq, setAt } = record
  return { key, conversationId, through, throughTimestamp, throughSeq, setAt }
}

/** `value` as a list of pinned ids, or none when it is not one (a damaged row). */
export function pinnedIds(value: unknown): string[] {
  return Array.isArray(value) && value.every((id) => typeof id === 'string') ? value : []
}

/**
 * The messages among `records`, in `seq` order, and the ids of the records that are not messages of `codec` or whose
 * sentence ids disagree with their `seq` (`inSidOrder`).
 */
export async function decodeMessages(
  codec: RecordCodec,
  records: readonly unknown[],
): Promise<{ messages: MessageRecord[]; skipped: string[] }> {
  const decoded = await codec.decodeMessages(records)
  const messages: MessageRecord[] = []
  const skipped: string[] = []
  decoded.forEach((message, i) => {
    if (message) messages.push(message)
    else skipped.push(String((records[i] as { id: unknown }).id))
  })
  const { kept, outOfOrder } = inSidOrder(messages.sort((a, b) => a.seq - b.seq))
  return { messages: kept, skipped: [...skipped, ...outOfOrder.map((message) => message.id)] }
}
