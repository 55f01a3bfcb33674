import { SiftError } from '../../src/errors'
import type { ForgetSentence } from '../../src/types'
import { placeOf } from './forget-messages'
import { forgetRewrite, sameBytes, type ForgetResult } from './forget-write'
import type { MessageRecord } from './message-record'
import type { RecordCodec } from './record-codec'
import { messageSids } from './record-check'
import type { SiftDatabase } from './schema'
import { withoutSentences } from './sentence-removal'
import { isSealed, type StoredMessageRecord } from './stored-records'

/**
 * `SiftStore.forget({ sentences })`: the messages named are read, decoded and rewritten without those sentences
 * (`withoutSentences`: the offsets are checked against the message as read, and a message left without a sentence is
 * deleted whole), then written with every structure derived from them in the same write (`forgetRewrite`,
 * worker/store/forget-write.ts), as a forget of whole messages writes them, unless (`RecordCodec.rewrite`) the
 * messages or what the write rewrites changed.
 */
export function forgetSentences(
  db: SiftDatabase,
  codec: RecordCodec,
  sentences: readonly ForgetSentence[],
): Promise<ForgetResult> {
  const messageIds = [...new Set(sentences.map((s) => s.messageId))]
  return codec.rewrite(
    db,
    forgetRewrite(db, codec, {
      what: 'forget the sentences',
      async read() {
        const records = await db.messages.bulkGet(messageIds)
        return { records, sids: records.flatMap(messageSids).sort((a, b) => a - b) }
      },
      sids: ({ sids }) => sids,
      async prepare({ records }) {
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
        return { deleted, changed, sids: sids.sort((a, b) => a - b), encoded: await codec.encodeMessages(changed) }
      },
      unchanged: (before, now) => sameMessageRecords(before.records, now.records),
      nothingLeft: () => false,
      removal: ({ records }, { deleted, changed, sids, encoded }) =>
        sids.length === 0 ? undefined : { deleted, redacted: changed, encoded, sids, places: records.flatMap(placeOf) },
      // The kept sentences' vectors may be in a block that does not decode: refused, never dropped with the rest.
      undecodableBlock: 'refuse',
    }),
  )
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
