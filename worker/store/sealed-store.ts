import { SiftError } from '../../src/errors'
import { sealingOf, type RecordCipher } from '../crypto/record-cipher'
import {
  deleteBlocks,
  keptRows,
  liveSids,
  putBlockRecords,
  residualRecords,
  tailBlocks,
  touchedBlocks,
} from './block-records'
import type { MessageRecord } from './message-record'
import type { LexicalSnapshot, StoreState } from './records'
import type { SiftDatabase } from './schema'
import {
  openBlock,
  openCoarseLists,
  openLexicalSnapshot,
  openMessages,
  openResiduals,
  sealBlock,
  type SealedResiduals,
  type SealedVectorBlock,
} from './sealed-records'
import { appendToBlocks, joinResiduals, removeFromBlock, type VectorBlock } from './vector-block'

/**
 * The store's operations whose records an encrypted memory must open or seal in between reading and writing. WebCrypto
 * cannot run inside an IndexedDB transaction (the transaction commits while it waits), so each reads what it needs in
 * one transaction, opens and seals outside it, and writes in a second one that first checks that what it read is
 * unchanged (the same sealings, the same counters). The engine runs its writes one at a time, so the check only fails
 * when another engine writes to the same database (tabs without Web Locks): the write is then refused, not misapplied.
 */

/** What `readContents` returns, for an encrypted memory. */
export interface SealedContents<Lexical, Lists extends object> {
  state: StoreState
  messages: MessageRecord[]
  skippedMessages: string[]
  blocks: VectorBlock[]
  lexical: LexicalSnapshot<Lexical> | undefined
  coarseLists: (Lists & { key: 'vectors' }) | undefined
}

/**
 * Reads everything open needs in one transaction, and opens each part as soon as it is read: the messages and the
 * lexical snapshot first, handed to `onTexts` (so the caller rebuilds its text indexes) while the database still reads
 * the vector blocks, most of the bytes. The opening is started inside the transaction but not awaited there, since the
 * transaction would commit while it waits.
 */
export async function readSealedContents<Lexical, Lists extends object>(
  db: SiftDatabase,
  cipher: RecordCipher,
  onTexts?: (messages: MessageRecord[], lexical: LexicalSnapshot<Lexical> | undefined) => void,
): Promise<SealedContents<Lexical, Lists>> {
  const opening = await db.transaction(
    'r',
    db.meta,
    db.messages,
    db.vectorBlocks,
    db.lexicalSnapshots,
    db.coarseLists,
    async () => {
      // Requests run in the order issued.
      const state = db.meta.get('state')
      // Handed over as soon as they are open, while the blocks are still being read: the transaction only resolves once
      // every request is done.
      const texts = Promise.all([db.messages.toArray(), db.lexicalSnapshots.get('lexical')])
        .then(([messages, lexical]) =>
          Promise.all([openMessages(cipher, messages), openLexicalSnapshot<Lexical>(cipher, lexical)]),
        )
        .then((opened) => {
          onTexts?.(opened[0].messages, opened[1])
          return opened
        })
      const blocks = db.vectorBlocks
        .toArray()
        .then((records) =>
          Promise.all((records as unknown as SealedVectorBlock[]).map((record) => openBlock(cipher, record))),
        )
      const coarseLists = db.coarseLists.get('vectors').then((record) => openCoarseLists<Lists>(cipher, record))
      // Awaited after the transaction; until then a failure must not count as unhandled.
      for (const part of [texts, blocks, coarseLists] as Promise<unknown>[]) part.catch(() => undefined)
      return { state: (await state)!, texts, blocks, coarseLists }
    },
  )
  const [{ messages, skipped }, lexical] = await opening.texts
  return {
    state: opening.state,
    messages,
    skippedMessages: skipped,
    blocks: await opening.blocks,
    lexical,
    coarseLists: await opening.coarseLists,
  }
}

/** Every stored residual record, opened. */
export async function readSealedResiduals(db: SiftDatabase, cipher: RecordCipher) {
  const records = (await db.vectorResiduals.toArray()) as unknown as SealedResiduals[]
  return Promise.all(records.map((record) => openResiduals(cipher, record)))
}

/** `SiftStore.appendVectors` for an encrypted memory: the trailing blocks are opened, merged with the batch and sealed between two transactions. */
export async function appendSealedVectors(
  db: SiftDatabase,
  cipher: RecordCipher,
  sids: readonly number[],
  vectors: Float32Array,
  dim: number,
  through: number,
): Promise<{ sids: number[]; vectors: Float32Array }> {
  const read = () =>
    Promise.all([db.meta.get('state').then((s) => s!), liveSids(db, sids), tailBlocks<SealedVectorBlock>(db)])
  const [state, alive, tail, residuals] = await db.transaction(
    'r',
    db.meta,
    db.messages,
    db.vectorBlocks,
    db.vectorResiduals,
    async () => {
      const [s, a, t] = await read()
      return [s, a, t, await residualRecords<SealedResiduals>(db, t)] as const
    },
  )
  const opened = await openWithResiduals(cipher, tail, residuals)
  const kept = keptRows(sids, vectors, dim, alive)
  const { put, remove, nextBlockId } = appendToBlocks(opened, kept.sids, kept.vectors, {
    model: state.model,
    dim,
    nextBlockId: state.nextBlockId,
  })
  const sealed = await Promise.all(put.map((block) => sealBlock(cipher, block)))
  await db.transaction('rw', db.meta, db.messages, db.vectorBlocks, db.vectorResiduals, async () => {
    const [now, aliveNow, tailNow] = await read()
    if (
      now.nextBlockId !== state.nextBlockId ||
      now.model !== state.model ||
      aliveNow.some((live, i) => live !== alive[i]) ||
      !sameSealings(tail, tailNow)
    )
      throw changedMeanwhile('store the embeddings')
    await deleteBlocks(db, remove)
    await putBlockRecords(db, sealed)
    await db.meta.put({ ...now, nextBlockId, embeddedThrough: Math.max(now.embeddedThrough, through) })
  })
  return kept
}

/** A forget's vector part for an encrypted memory, prepared before its transaction (`prepareSealedRemoval`). */
export interface SealedRemoval {
  /** Inside the forget's transaction: checks that it forgets the sids prepared for and that their blocks are unchanged, then writes. */
  apply(sids: readonly number[]): Promise<void>
}

/**
 * Reads the sids a forget will remove (`select`, in the same transaction) and the blocks holding them, and seals those
 * blocks without them, ready for the forget's own transaction to write.
 */
export async function prepareSealedRemoval(
  db: SiftDatabase,
  cipher: RecordCipher,
  select: () => Promise<number[]>,
): Promise<SealedRemoval> {
  const { sids, touched, residuals } = await db.transaction(
    'r',
    db.messages,
    db.vectorBlocks,
    db.vectorResiduals,
    async () => {
      const selected = await select()
      const blocks = selected.length > 0 ? await touchedBlocks<SealedVectorBlock>(db, selected) : []
      return { sids: selected, touched: blocks, residuals: await residualRecords<SealedResiduals>(db, blocks) }
    },
  )
  const gone = new Set(sids)
  const opened = await openWithResiduals(cipher, touched, residuals)
  const rest = opened.map((block) => removeFromBlock(block, gone))
  const sealed = await Promise.all(
    rest.flatMap((block, i) => (block && block !== opened[i] ? [sealBlock(cipher, block)] : [])),
  )
  const emptied = opened.flatMap((block, i) => (rest[i] ? [] : [block.blockId]))
  return {
    async apply(sidsNow) {
      const touchedNow = sidsNow.length > 0 ? await touchedBlocks<SealedVectorBlock>(db, sidsNow) : []
      if (
        sidsNow.length !== sids.length ||
        sidsNow.some((sid, i) => sid !== sids[i]) ||
        !sameSealings(touched, touchedNow)
      )
        throw changedMeanwhile('forget the messages')
      await putBlockRecords(db, sealed)
      await deleteBlocks(db, emptied)
    },
  }
}

/** The sealed blocks opened, each with its residual record (parallel to them) joined back. */
function openWithResiduals(
  cipher: RecordCipher,
  blocks: readonly SealedVectorBlock[],
  residuals: readonly (SealedResiduals | undefined)[],
): Promise<VectorBlock[]> {
  return Promise.all(
    blocks.map(async (record, i) =>
      joinResiduals(await openBlock(cipher, record), residuals[i] && (await openResiduals(cipher, residuals[i]!))),
    ),
  )
}

/** Whether two reads of sealed records read the same writes. */
function sameSealings(before: readonly SealedVectorBlock[], now: readonly SealedVectorBlock[]): boolean {
  return (
    before.length === now.length &&
    before.every(
      (record, i) => record.blockId === now[i].blockId && sealingOf(record.sealed) === sealingOf(now[i].sealed),
    )
  )
}

export function changedMeanwhile(what: string): SiftError {
  return new SiftError(
    'STORAGE_FAILED',
    `Could not ${what}: the encrypted records changed while they were being re-sealed (another memory of the same name writing without Web Locks?). Nothing was written; retry.`,
  )
}
