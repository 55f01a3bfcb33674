import { decodeBlock, putBlockRecords } from './block-records'
import type { MessageRecord } from './message-record'
import { decodeMessages, type RecordCodec } from './record-codec'
import type { CoarseListsRecord, LexicalSnapshot, SavedIndexes, StoreState } from './records'
import { sameWrites } from './rewrite'
import type { SiftDatabase } from './schema'
import { readState } from './state-row'
import { isFloatBlock, splitResiduals, toInt8Block, type FloatVectorBlock, type VectorBlock } from './vector-block'

/** Everything persisted, as loaded at open to rebuild the in-memory indexes. */
export interface StoreContents<Saved extends SavedIndexes = SavedIndexes> {
  state: StoreState
  /** In `seq` order; only records in Sift's layout. */
  messages: MessageRecord[]
  /** Ids of the message records not in Sift's layout (`isMessageRecord`): left in the database, but not read. */
  skippedMessages: string[]
  blocks: VectorBlock[]
  /**
   * The vector records that did not decode (`"vector block <id>"`): every stored vector was then dropped (`blocks` is
   * empty and the watermark back at 0), so the whole history is re-embedded. Vectors are derived data.
   */
  droppedVectors: string[]
  lexical: LexicalSnapshot<Saved['lexical']> | undefined
  coarseLists: CoarseListsRecord<Saved['coarseLists']> | undefined
}

/**
 * Reads everything open needs in one transaction (the vector blocks without their residuals), its requests issued
 * together rather than one after another, so the database serves them back to back, and decodes each part as soon as
 * it is read: the messages and the lexical snapshot first, handed to `onTexts` (so the caller rebuilds its text
 * indexes) while the database still reads the vector blocks, most of the bytes. The decoding is started inside the
 * transaction but not awaited there, since the transaction would commit while it waits.
 */
export async function readContents<Saved extends SavedIndexes>(
  db: SiftDatabase,
  codec: RecordCodec,
  onTexts?: (messages: MessageRecord[], lexical: LexicalSnapshot<Saved['lexical']> | undefined) => void,
): Promise<Omit<StoreContents<Saved>, 'blocks' | 'droppedVectors'> & ReadBlocks> {
  const reading = await db.transaction(
    'r',
    db.meta,
    db.messages,
    db.vectorBlocks,
    db.lexicalSnapshots,
    db.coarseLists,
    async () => {
      // Requests run in the order issued.
      const state = readState(db)
      // In primary-key order, sorted when decoded: reading through the seq index would look up every record twice.
      const texts = Promise.all([db.messages.toArray(), db.lexicalSnapshots.get('lexical')])
        .then(([messages, lexical]) =>
          Promise.all([
            decodeMessages(codec, messages),
            // What was saved through the store's own methods, hence of the types they took.
            codec.decodeLexicalSnapshot(lexical) as Promise<LexicalSnapshot<Saved['lexical']> | undefined>,
          ]),
        )
        .then((decoded) => {
          onTexts?.(decoded[0].messages, decoded[1])
          return decoded
        })
      const blockIds: number[] = []
      const blocks = db.vectorBlocks
        .toArray()
        .then((records) => {
          blockIds.push(...records.map((record) => record.blockId))
          return records
        })
        .then((records) => Promise.all(records.map((record) => codec.decodeBlock(record))))
      const coarseLists = db.coarseLists
        .get('vectors')
        .then(
          (record) => codec.decodeCoarseLists(record) as Promise<CoarseListsRecord<Saved['coarseLists']> | undefined>,
        )
      // Awaited after the transaction; until then a failure must not count as unhandled.
      for (const part of [texts, blocks, coarseLists] as Promise<unknown>[]) part.catch(() => undefined)
      return { state: await state, texts, blocks, blockIds, coarseLists }
    },
  )
  const [{ messages, skipped }, lexical] = await reading.texts
  const decoded = await reading.blocks
  return {
    state: reading.state,
    messages,
    skippedMessages: skipped,
    blocks: decoded.filter((block) => block !== undefined),
    damagedBlocks: decoded.flatMap((block, i) => (block ? [] : [`vector block ${reading.blockIds[i]}`])),
    lexical,
    coarseLists: await reading.coarseLists,
  }
}

/** The vector blocks as read, and those that did not decode (`"vector block <id>"`). */
interface ReadBlocks {
  blocks: (VectorBlock | FloatVectorBlock)[]
  damagedBlocks: string[]
}

/**
 * The blocks as read, float32 blocks left by a store written before int8 quantised (no re-embedding, both layers) and
 * stored so: open reads every block anyway. Those blocks are read again for the write (`RecordCodec.rewrite`), so one
 * changed or deleted since `readContents` is taken as it is then.
 */
export async function quantizeFloatBlocks(
  db: SiftDatabase,
  codec: RecordCodec,
  read: readonly (VectorBlock | FloatVectorBlock)[],
): Promise<VectorBlock[]> {
  const floatIds = read.flatMap((block) => (isFloatBlock(block) ? [block.blockId] : []))
  const quantized =
    floatIds.length === 0
      ? new Map<number, VectorBlock>()
      : await codec.rewrite(db, {
          what: 'quantise the stored vectors',
          tables: [db.vectorBlocks, db.vectorResiduals],
          read: () => db.vectorBlocks.bulkGet(floatIds),
          readMore: async () => undefined,
          async prepare(records) {
            const decoded = await Promise.all(records.map((record) => record && decodeBlock(codec, record)))
            const blocks = decoded.filter((block) => block !== undefined)
            const converted = blocks.filter(isFloatBlock).map(toInt8Block)
            const kept = blocks.filter((block): block is VectorBlock => !isFloatBlock(block))
            return { kept, converted, encoded: await Promise.all(converted.map((block) => codec.encodeBlock(block))) }
          },
          unchanged: (before, now, sameWrite) => sameWrites(sameWrite, before, now),
          async write(_, { kept, converted, encoded }) {
            await putBlockRecords(db, encoded)
            const current = [...kept, ...converted.map((block) => splitResiduals(block).codes)]
            return new Map(current.map((block) => [block.blockId, block]))
          },
        })
  return read.flatMap((block) =>
    isFloatBlock(block) ? (quantized.has(block.blockId) ? [quantized.get(block.blockId)!] : []) : [block],
  )
}
