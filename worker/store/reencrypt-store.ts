import type { Table } from 'dexie'
import type { EncryptionRecord } from '../crypto/at-rest-key'
import type { RecordCipher } from '../crypto/record-cipher'
import { decodeWithResiduals, putBlockRecords } from './block-records'
import { decodeMessages, type RecordCodec } from './record-codec'
import type { CoarseListsRecord, StoreState } from './records'
import { SCHEMA_VERSION, type SiftDatabase } from './schema'
import { changedMeanwhile, sealingCodec } from './sealing-codec'
import { readState } from './state-row'
import { decodeSummaries, summaryRows } from './summary-rows'
import type {
  MetaRecord,
  StoredCoarseLists,
  StoredPinsRecord,
  StoredLexicalSnapshot,
  StoredResiduals,
  StoredVectorBlock,
} from './stored-records'

/**
 * Seals every record of the memory with `to`, in one transaction: each record is decoded with `from` (a plain memory's
 * codec for a memory not encrypted yet) and encoded with `to`'s. The `meta` row that checks the key is written in the
 * same transaction, so the memory opens with the old key until it commits and with the new one after. Message records
 * that `from` does not decode are left as they are (open skips them). All the decoding and sealing happens between
 * reading and that transaction, which first checks that the counters and record counts it read are unchanged, and
 * records the current schema version in the state row (the records are now in its layout).
 */
export async function reencryptStore(
  db: SiftDatabase,
  from: RecordCodec,
  to: { cipher: RecordCipher; record: EncryptionRecord },
): Promise<void> {
  const tables = [db.meta, db.messages, db.vectorBlocks, db.vectorResiduals, db.lexicalSnapshots, db.coarseLists]
  const codec = sealingCodec(to.cipher)
  const { before, messages, blocks, lexical, coarseLists, pins, summaries } = await readAndEncode(
    db,
    tables,
    from,
    codec,
  )
  await db.transaction('rw', tables, async () => {
    const [state, messageCount, blockCount] = await Promise.all([
      db.meta.get('state'),
      db.messages.count(),
      db.vectorBlocks.count(),
    ])
    if (!sameState(state, before.state) || messageCount !== before.messages || blockCount !== before.blocks)
      throw changedMeanwhile('encrypt the memory with the new key')
    await db.messages.bulkPut(messages)
    await db.vectorBlocks.clear()
    await db.vectorResiduals.clear()
    await putBlockRecords(db, blocks)
    await (lexical ? db.lexicalSnapshots.put(lexical) : db.lexicalSnapshots.delete('lexical'))
    await (coarseLists ? db.coarseLists.put(coarseLists) : db.coarseLists.delete('vectors'))
    if (pins) await db.meta.put(pins)
    await db.meta.bulkPut(summaries)
    await db.meta.put(to.record)
    // Sealed under the current schema's contexts now, whatever schema the records were read in.
    await db.meta.put({ ...before.state, schemaVersion: SCHEMA_VERSION })
  })
}

/**
 * Every record read, decoded with `from` and encoded with `to`, and what the write must find unchanged. A function of
 * its own so that the records as read and as decoded can be collected before the write: only the encoded ones are kept.
 */
async function readAndEncode(db: SiftDatabase, tables: Table[], from: RecordCodec, to: RecordCodec) {
  const raw = await db.transaction('r', tables, async () => {
    const [state, messages, blocks, residuals, lexical, coarseLists, pins, summaries] = await Promise.all([
      readState(db),
      db.messages.toArray(),
      db.vectorBlocks.toArray(),
      db.vectorResiduals.toArray(),
      db.lexicalSnapshots.get('lexical'),
      db.coarseLists.get('vectors'),
      db.meta.get('pins') as Promise<StoredPinsRecord | undefined>,
      summaryRows(db),
    ])
    return { state, messages, blocks, residuals, lexical, coarseLists, pins, summaries }
  })
  const before = { state: raw.state, messages: raw.messages.length, blocks: raw.blocks.length }
  const decoded = await decodeAll(from, raw)
  const [messages, blocks, lexical, coarseLists, pins] = await Promise.all([
    to.encodeMessages(decoded.messages),
    Promise.all(decoded.blocks.map((block) => to.encodeBlock(block))),
    decoded.lexical && to.encodeLexicalSnapshot(decoded.lexical),
    decoded.coarseLists && to.encodeCoarseLists(decoded.coarseLists),
    // A memory that never pinned has no pins row, and gets none.
    raw.pins && to.encodePins(await from.decodePins(raw.pins)),
  ])
  // A dropped summary holds nothing to seal; a row that did not decode is left as it is (it has no summary to read).
  const summaries = await Promise.all(
    (await decodeSummaries(from, raw.summaries)).map((summary) =>
      'droppedAt' in summary ? summary : to.encodeSummary(summary),
    ),
  )
  return { before, messages, blocks, lexical, coarseLists, pins, summaries }
}

/** The records `raw` holds, decoded with `from` (float32 blocks quantised on the way). */
async function decodeAll(
  from: RecordCodec,
  raw: {
    messages: unknown[]
    blocks: StoredVectorBlock[]
    residuals: StoredResiduals[]
    lexical: StoredLexicalSnapshot | undefined
    coarseLists: StoredCoarseLists | undefined
  },
) {
  const residualsOf = new Map(raw.residuals.map((record) => [record.blockId, record]))
  const [{ messages }, blocks, lexical, coarseLists] = await Promise.all([
    decodeMessages(from, raw.messages),
    decodeWithResiduals(
      from,
      raw.blocks,
      raw.blocks.map((block) => residualsOf.get(block.blockId)),
    ),
    from.decodeLexicalSnapshot(raw.lexical),
    from.decodeCoarseLists(raw.coarseLists),
  ])
  return { messages, blocks, lexical, coarseLists: withoutKey(coarseLists) }
}

/** The coarse lists as the vector index serialised them, without the record's key (`encodeCoarseLists` takes them so). */
function withoutKey(record: CoarseListsRecord | undefined): object | undefined {
  if (!record) return undefined
  const lists: Partial<CoarseListsRecord> = { ...record }
  delete lists.key
  return lists
}

function sameState(now: MetaRecord | undefined, before: StoreState): boolean {
  return (
    now?.key === 'state' && (Object.keys(before) as (keyof StoreState)[]).every((field) => now[field] === before[field])
  )
}
