import { SiftError } from '../../src/errors'
import type { ForgetSentence } from '../../src/types'
import { decodeWithResiduals, deleteBlocks, putBlockRecords, residualRecords, touchedBlocks } from './block-records'
import { placeOf, type ForgetResult } from './forget-messages'
import type { MessageRecord } from './message-record'
import type { RecordCodec } from './record-codec'
import { messageSids } from './record-check'
import { sameWrites } from './rewrite'
import type { SiftDatabase } from './schema'
import { withoutSentences } from './sentence-removal'
import { isSealed, type StoredMessageRecord } from './stored-records'
import { nextRevision } from './forget-revision'
import { dropCoveredSummaries, earliestPlaces } from './summary-rows'
import { removeFromBlock } from './vector-block'

/**
 * `SiftStore.forget({ sentences })`: the messages named and the vector blocks that may hold their sentences are read;
 * the messages decoded and rewritten without those sentences (`withoutSentences`: the offsets are checked against
 * the message as read, and a message left without a sentence is deleted whole), the blocks decoded, rewritten without
 * those rows and encoded, then everything is written, unless (`RecordCodec.rewrite`) the messages or the blocks
 * changed. The lexical snapshot and the coarse lists are deleted in that write too, as a forget of whole messages
 * deletes them: they hold the removed words and means over the removed vectors.
 */
export function forgetSentences(
  db: SiftDatabase,
  codec: RecordCodec,
  sentences: readonly ForgetSentence[],
): Promise<ForgetResult> {
  const messageIds = [...new Set(sentences.map((s) => s.messageId))]
  return codec.rewrite(db, {
    what: 'forget the sentences',
    tables: [db.messages, db.vectorBlocks, db.vectorResiduals, db.lexicalSnapshots, db.coarseLists, db.meta],
    async read() {
      const records = await db.messages.bulkGet(messageIds)
      const sids = records.flatMap(messageSids).sort((a, b) => a - b)
      return { records, touched: await touchedBlocks(db, sids) }
    },
    readMore: ({ touched }) => residualRecords(db, touched),
    async prepare({ records, touched }, residuals) {
      const stored = records.filter((record) => record !== undefined)
      const decoded = await codec.decodeMessages(stored)
      const deleted: string[] = []
      const changed: MessageRecord[] = []
      const sids: number[] = []
      decoded.forEach((message, i) => {
        const id = String(stored[i].id)
        if (!message) {
          throw new SiftError(
            'INVALID_INPUT',
            `forget: the message "${id}" is not in Sift's layout, so it has no sentences to remove; forget it whole with { id }. Nothing was removed.`,
          )
        }
        const removal = withoutSentences(
          message,
          sentences.filter((s) => s.messageId === id),
        )
        sids.push(...removal.sids)
        if (removal.record) changed.push(removal.record)
        else deleted.push(id)
      })
      const gone = new Set(sids)
      const blocks = await decodeWithResiduals(codec, touched, residuals)
      const rest = blocks.map((block) => removeFromBlock(block, gone))
      const rewritten = rest.flatMap((block, i) => (block && block !== blocks[i] ? [codec.encodeBlock(block)] : []))
      return {
        deleted,
        changed,
        sids: sids.sort((a, b) => a - b),
        encoded: await codec.encodeMessages(changed),
        rewritten: await Promise.all(rewritten),
        emptied: blocks.flatMap((block, i) => (rest[i] ? [] : [block.blockId])),
      }
    },
    unchanged: (before, now, sameWrite) =>
      sameMessageRecords(before.records, now.records) && sameWrites(sameWrite, before.touched, now.touched),
    async write({ records }, { deleted, changed, sids, encoded, rewritten, emptied }) {
      if (sids.length === 0) return { messageIds: [], sids: [], redacted: [], droppedSummaries: [], earliest: [] }
      await db.messages.bulkDelete(deleted)
      await db.messages.bulkPut([...encoded])
      await db.lexicalSnapshots.delete('lexical')
      // Its centroids are means that include the removed vectors; the engine saves re-centred ones.
      await db.coarseLists.delete('vectors')
      await putBlockRecords(db, rewritten)
      await deleteBlocks(db, emptied)
      // A summary covering a redacted message may repeat the removed sentence: it goes in this same write.
      const earliest = earliestPlaces(records.flatMap(placeOf))
      const droppedSummaries = await dropCoveredSummaries(db, earliest)
      const revision = await nextRevision(db)
      return { messageIds: deleted, sids, redacted: changed, droppedSummaries, earliest, revision }
    },
  })
}

/** Whether two reads of the same messages read the same writes (a sealed record by its bytes, a plain one by its text). */
function sameMessageRecords(
  before: readonly (StoredMessageRecord | undefined)[],
  now: readonly (StoredMessageRecord | undefined)[],
): boolean {
  return before.every((record, i) => {
    const again = now[i]
    if (record === undefined || again === undefined) return record === again
    if (isSealed(record) || isSealed(again))
      return isSealed(record) && isSealed(again) && sameBytes(record.sealed, again.sealed)
    const plain = record as MessageRecord
    const plainAgain = again as MessageRecord
    return plain.content === plainAgain.content && plain.spans.join() === plainAgain.spans.join()
  })
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i])
}
