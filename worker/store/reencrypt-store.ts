import type { Table } from 'dexie'
import type { EncryptionRecord } from '../crypto/at-rest-key'
import type { RecordCipher } from '../crypto/record-cipher'
import { putBlockRecords } from './block-records'
import type { MessageRecord } from './message-record'
import type { CoarseListsRecord, LexicalSnapshot, StoreState } from './records'
import { isMessageRecord } from './record-check'
import type { SiftDatabase } from './schema'
import {
  openBlock,
  openCoarseLists,
  openLexicalSnapshot,
  openMessages,
  openResiduals,
  sealBlock,
  sealCoarseLists,
  sealLexicalSnapshot,
  sealMessage,
  type SealedResiduals,
  type SealedVectorBlock,
} from './sealed-records'
import { changedMeanwhile } from './sealed-store'
import {
  isFloatBlock,
  joinResiduals,
  toInt8Block,
  type FloatVectorBlock,
  type VectorBlock,
  type VectorResiduals,
} from './vector-block'

/**
 * Seals every record of the memory with `to`, in one transaction: records sealed with `from` are opened first, and
 * without `from` the plain records of a memory not encrypted yet are taken as they are. The `meta` row that checks
 * the key is written in the same transaction, so the memory opens with the old key until it commits and with the new
 * one after. Records neither in Sift's layout nor opening with `from` are left as they are (open skips them). All the
 * opening and sealing happens between reading and that transaction, which first checks that the counters and record
 * counts it read are unchanged.
 */
export async function reencryptStore(
  db: SiftDatabase,
  from: RecordCipher | undefined,
  to: { cipher: RecordCipher; record: EncryptionRecord },
): Promise<void> {
  const tables = [db.meta, db.messages, db.vectorBlocks, db.vectorResiduals, db.lexicalSnapshots, db.coarseLists]
  const { before, messages, blocks, lexical, coarseLists } = await readAndSeal(db, tables, from, to.cipher)
  await db.transaction('rw', tables, async () => {
    const [state, messageCount, blockCount] = await Promise.all([
      db.meta.get('state'),
      db.messages.count(),
      db.vectorBlocks.count(),
    ])
    if (!sameState(state, before.state) || messageCount !== before.messages || blockCount !== before.blocks)
      throw changedMeanwhile('encrypt the memory with the new key')
    await db.messages.bulkPut(messages as unknown as MessageRecord[])
    await db.vectorBlocks.clear()
    await db.vectorResiduals.clear()
    await putBlockRecords(db, blocks)
    await (lexical
      ? db.lexicalSnapshots.put(lexical as unknown as LexicalSnapshot)
      : db.lexicalSnapshots.delete('lexical'))
    await (coarseLists ? db.coarseLists.put(coarseLists as CoarseListsRecord) : db.coarseLists.delete('vectors'))
    await db.table('meta').put(to.record)
  })
}

/**
 * Every record read, opened and sealed with `cipher`, and what the write must find unchanged. A function of its own
 * so that the records as read and as opened can be collected before the write: only the sealed copies are kept.
 */
async function readAndSeal(db: SiftDatabase, tables: Table[], from: RecordCipher | undefined, cipher: RecordCipher) {
  const raw = await db.transaction('r', tables, async () => {
    const [state, messages, blocks, residuals, lexical, coarseLists] = await Promise.all([
      db.meta.get('state'),
      db.messages.toArray() as Promise<unknown[]>,
      db.vectorBlocks.toArray() as Promise<unknown[]>,
      db.vectorResiduals.toArray() as Promise<unknown[]>,
      db.lexicalSnapshots.get('lexical') as Promise<unknown>,
      db.coarseLists.get('vectors') as Promise<unknown>,
    ])
    return { state: state!, messages, blocks, residuals, lexical, coarseLists }
  })
  const before = { state: raw.state, messages: raw.messages.length, blocks: raw.blocks.length }
  const plain = await openAll(from, raw)
  const [messages, blocks, lexical, coarseLists] = await Promise.all([
    Promise.all(plain.messages.map((message) => sealMessage(cipher, message))),
    Promise.all(plain.blocks.map((block) => sealBlock(cipher, block))),
    plain.lexical && sealLexicalSnapshot(cipher, plain.lexical),
    plain.coarseLists && sealCoarseLists(cipher, plain.coarseLists),
  ])
  return { before, messages, blocks, lexical, coarseLists }
}

/** The records `raw` holds, plain: opened with `from`, or as stored without it (float32 blocks quantised on the way). */
async function openAll(
  from: RecordCipher | undefined,
  raw: { messages: unknown[]; blocks: unknown[]; residuals: unknown[]; lexical: unknown; coarseLists: unknown },
) {
  const residualsOf = new Map(raw.residuals.map((record) => [(record as { blockId: number }).blockId, record]))
  if (!from) {
    const blocks = (raw.blocks as (VectorBlock | FloatVectorBlock)[]).map((block) =>
      isFloatBlock(block)
        ? toInt8Block(block)
        : joinResiduals(block, residualsOf.get(block.blockId) as VectorResiduals | undefined),
    )
    return {
      messages: raw.messages.filter(isMessageRecord),
      blocks,
      lexical: raw.lexical as LexicalSnapshot | undefined,
      coarseLists: withoutKey(raw.coarseLists as CoarseListsRecord | undefined),
    }
  }
  const [{ messages }, blocks, lexical, coarseLists] = await Promise.all([
    openMessages(from, raw.messages),
    Promise.all(
      (raw.blocks as SealedVectorBlock[]).map(async (record) => {
        const residuals = residualsOf.get(record.blockId) as SealedResiduals | undefined
        return joinResiduals(await openBlock(from, record), residuals && (await openResiduals(from, residuals)))
      }),
    ),
    openLexicalSnapshot(from, raw.lexical),
    openCoarseLists(from, raw.coarseLists),
  ])
  return { messages, blocks, lexical, coarseLists: withoutKey(coarseLists) }
}

/** The coarse lists as the vector index serialised them, without the record's key (`sealCoarseLists` takes them so). */
function withoutKey(record: CoarseListsRecord | undefined): object | undefined {
  if (!record) return undefined
  const lists: Partial<CoarseListsRecord> = { ...record }
  delete lists.key
  return lists
}

function sameState(now: StoreState | undefined, before: StoreState): boolean {
  return (
    now !== undefined && (Object.keys(before) as (keyof StoreState)[]).every((field) => now[field] === before[field])
  )
}
