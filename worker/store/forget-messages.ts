import type { ForgetSelector } from '../../src/types'
import { forgetRewrite, type ForgetResult } from './forget-write'
import type { RecordCodec } from './record-codec'
import { messageSids } from './record-check'
import type { SiftDatabase } from './schema'
import type { MessagePlace } from './summary-rows'

/** The selectors that pick whole messages. */
export type MessageSelector = Exclude<ForgetSelector, { sentences: unknown }>

/**
 * `SiftStore.forget`: the selected messages and their sids are read, and every structure derived from them goes in the
 * same write (`forgetRewrite`, worker/store/forget-write.ts: the vector rows, the saved copies, the summaries that
 * cover them, their pins), unless (`RecordCodec.rewrite`) the selection's sids or what the write rewrites changed.
 */
export function forgetMessages(db: SiftDatabase, codec: RecordCodec, selector: MessageSelector): Promise<ForgetResult> {
  return codec.rewrite(
    db,
    forgetRewrite(db, codec, {
      what: 'forget the messages',
      async read() {
        const messageIds = await selectMessageIds(db, selector)
        // A record not in Sift's layout is deleted with the others; it has no sentences Sift knows of.
        const records = messageIds.length > 0 ? await db.messages.bulkGet(messageIds) : []
        const sids = records.flatMap(messageSids).sort((a, b) => a - b)
        return { messageIds, sids, places: records.flatMap(placeOf) }
      },
      sids: ({ sids }) => sids,
      // Whole messages: nothing to decode or encode of them.
      prepare: async () => undefined,
      unchanged: (before, now) =>
        now.sids.length === before.sids.length && now.sids.every((sid, i) => sid === before.sids[i]),
      // Nothing left to forget is nothing to misapply.
      nothingLeft: (now) => now.messageIds.length === 0,
      removal: ({ messageIds, sids, places }) =>
        messageIds.length === 0 ? undefined : { deleted: messageIds, redacted: [], encoded: [], sids, places },
      // A block that no longer decodes may hold the forgotten rows: it is deleted whole, never a reason to keep them.
      undecodableBlock: 'delete',
    }),
  )
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
