import type { ForgetSelector } from '../../src/types'
import { decodeWhole, deleteBlocks, putBlockRecords, residualRecords, touchedBlocks } from './block-records'
import type { MessageRecord } from './message-record'
import type { RecordCodec } from './record-codec'
import { messageSids } from './record-check'
import { sameWrites } from './rewrite'
import type { SiftDatabase } from './schema'
import { nextRevision } from './forget-revision'
import { dropCoveredSummaries, earliestPlaces, type MessagePlace } from './summary-rows'
import { removeFromBlock } from './vector-block'

/** What a forget removed, so the in-memory indexes can follow. */
export interface ForgetResult {
  /** The messages removed whole. */
  messageIds: string[]
  /** Every sentence removed: those of the messages removed whole, and those removed from `redacted`. */
  sids: number[]
  /** The messages that lost some of their sentences (`forget({ sentences })`), as they are stored now. */
  redacted: MessageRecord[]
  /** The conversations whose summary went with them (`dropCoveredSummaries`). */
  droppedSummaries: string[]
  /** Where the earliest message each conversation lost (whole or some of its sentences) stood (`earliestPlaces`). */
  earliest: MessagePlace[]
  /** The forget revision this forget moved the memory to (`ForgetRevisionRecord`); none when it removed nothing. */
  revision?: number
}

/** The selectors that pick whole messages. */
export type MessageSelector = Exclude<ForgetSelector, { sentences: unknown }>

/**
 * `SiftStore.forget`: the selected messages' sids and the vector blocks holding them are read, the blocks decoded,
 * rewritten without those rows and encoded, then everything is written, unless (`RecordCodec.rewrite`) the selection's
 * sids or those blocks changed. The lexical snapshot and the coarse lists are deleted in that write too: they hold the
 * forgotten words and means over the forgotten vectors.
 */
export function forgetMessages(db: SiftDatabase, codec: RecordCodec, selector: MessageSelector): Promise<ForgetResult> {
  return codec.rewrite(db, {
    what: 'forget the messages',
    tables: [db.messages, db.vectorBlocks, db.vectorResiduals, db.lexicalSnapshots, db.coarseLists, db.meta],
    async read() {
      const messageIds = await selectMessageIds(db, selector)
      // A record not in Sift's layout is deleted with the others; it has no sentences Sift knows of.
      const records = messageIds.length > 0 ? await db.messages.bulkGet(messageIds) : []
      const sids = records.flatMap(messageSids).sort((a, b) => a - b)
      return { messageIds, sids, places: records.flatMap(placeOf), touched: await touchedBlocks(db, sids) }
    },
    readMore: ({ touched }) => residualRecords(db, touched),
    async prepare({ sids, touched }, residuals) {
      const gone = new Set(sids)
      // A block that no longer decodes may hold the forgotten rows: it is deleted whole, never a reason to keep them.
      const decoded = await Promise.all(touched.map((record, i) => decodeWhole(codec, record, residuals[i])))
      const rest = decoded.map((block) => block && removeFromBlock(block, gone))
      const rewritten = rest.flatMap((block, i) => (block && block !== decoded[i] ? [codec.encodeBlock(block)] : []))
      return {
        rewritten: await Promise.all(rewritten),
        emptied: touched.flatMap((record, i) => (rest[i] ? [] : [record.blockId])),
      }
    },
    // Nothing left to forget is nothing to misapply.
    unchanged: (before, now, sameWrite) =>
      now.messageIds.length === 0 ||
      (now.sids.length === before.sids.length &&
        now.sids.every((sid, i) => sid === before.sids[i]) &&
        sameWrites(sameWrite, before.touched, now.touched)),
    async write({ messageIds, sids, places }, { rewritten, emptied }) {
      if (messageIds.length === 0) return { messageIds, sids, redacted: [], droppedSummaries: [], earliest: [] }
      await db.messages.bulkDelete(messageIds)
      await db.lexicalSnapshots.delete('lexical')
      // Its centroids are means that include the forgotten vectors; the engine saves re-centred ones.
      await db.coarseLists.delete('vectors')
      await putBlockRecords(db, rewritten)
      await deleteBlocks(db, emptied)
      // A summary may repeat the forgotten words: it goes in this same write, never in one that could fail apart.
      const earliest = earliestPlaces(places)
      const droppedSummaries = await dropCoveredSummaries(db, earliest)
      return { messageIds, sids, redacted: [], droppedSummaries, earliest, revision: await nextRevision(db) }
    },
  })
}

/** A stored record's conversation and place in time order (clear in both layouts); none for a record not of Sift's. */
export function placeOf(record: unknown): MessagePlace[] {
  const { conversationId, timestamp, seq } = (record ?? {}) as Partial<MessagePlace>
  return typeof conversationId === 'string' && typeof timestamp === 'number' && typeof seq === 'number'
    ? [{ conversationId, timestamp, seq }]
    : []
}

async function selectMessageIds(db: SiftDatabase, selector: MessageSelector): Promise<string[]> {
  if ('id' in selector) return (await db.messages.get(selector.id)) ? [selector.id] : []
  if ('ids' in selector) {
    const keys = await db.messages
      .bulkGet(selector.ids)
      .then((records) => records.map((record, i) => (record === undefined ? undefined : selector.ids[i])))
    return keys.filter((id) => id !== undefined)
  }
  if ('conversationId' in selector)
    return db.messages.where('conversationId').equals(selector.conversationId).primaryKeys()
  if ('after' in selector) return db.messages.where('timestamp').above(epochMs(selector.after)).primaryKeys()
  return db.messages.where('timestamp').below(epochMs(selector.before)).primaryKeys()
}

/** A bound as stored timestamps compare with it: a number as given, since a Date would drop its fraction of a millisecond. */
function epochMs(bound: number | string | Date): number {
  return typeof bound === 'number' ? bound : new Date(bound).getTime()
}
