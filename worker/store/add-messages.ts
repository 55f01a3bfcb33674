import { SiftError } from '../../src/errors'
import type { Sentence } from '../../src/types'
import type { ValidMessage } from '../input/message-input'
import { sentenceCount, sentencesOf, toMessageRecord, type MessageRecord } from './message-record'
import type { RecordCodec } from './record-codec'
import type { StoreState } from './records'
import type { SiftDatabase } from './schema'
import { readState } from './state-row'

/**
 * `SiftStore.addMessages`: the batch is numbered from the state row's counters (`seq`, sids) and then encoded, since a
 * sealed record binds its numbers (worker/store/sealing-contexts.ts), and written with the counters advanced, unless
 * (`RecordCodec.rewrite`) the counters moved meanwhile. Rejects the whole batch with `DUPLICATE_ID` if any id is stored.
 */
export function addMessages(
  db: SiftDatabase,
  codec: RecordCodec,
  batch: readonly ValidMessage[],
): Promise<{ messages: MessageRecord[]; sentences: Sentence[] }> {
  const ids = batch.map((message) => message.id)
  return codec.rewrite(db, {
    what: 'store the messages',
    tables: [db.meta, db.messages],
    async read() {
      const [state, existing] = await Promise.all([readState(db), db.messages.bulkGet(ids)])
      return { state, taken: existing.find((record) => record !== undefined)?.id }
    },
    readMore: async () => undefined,
    async prepare({ state, taken }) {
      if (taken !== undefined) throw duplicateId(taken)
      const messages = numbered(batch, state)
      return { messages, records: await codec.encodeMessages(messages) }
    },
    unchanged: (before, now) =>
      now.taken === undefined &&
      now.state.nextSeq === before.state.nextSeq &&
      now.state.nextSid === before.state.nextSid,
    async write({ state, taken }, { messages, records }) {
      if (taken !== undefined) throw duplicateId(taken)
      const last = messages.at(-1)
      const nextSeq = last ? last.seq + 1 : state.nextSeq
      const nextSid = last ? last.firstSid + sentenceCount(last) : state.nextSid
      await db.messages.bulkAdd([...records])
      await db.meta.put({ ...state, nextSeq, nextSid })
      return { messages, sentences: messages.flatMap(sentencesOf) }
    },
  })
}

/** The batch as records numbered on from the state row's counters. */
function numbered(batch: readonly ValidMessage[], state: StoreState): MessageRecord[] {
  let { nextSeq, nextSid } = state
  return batch.map((message) => {
    const record = toMessageRecord({ ...message, seq: nextSeq++ }, nextSid)
    nextSid += sentenceCount(record)
    return record
  })
}

function duplicateId(id: string): SiftError {
  return new SiftError(
    'DUPLICATE_ID',
    `A message with id "${id}" is already stored; give each message a unique id or omit it to get a generated one. Nothing from this batch was stored.`,
  )
}
