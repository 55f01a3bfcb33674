import type { RecordCodec } from './record-codec'
import { messageSids } from './record-check'
import type { StoreState } from './records'
import type { SiftDatabase } from './schema'
import { readState } from './state-row'
import type { StoredResiduals, StoredVectorBlock } from './stored-records'
import { isFloatBlock, joinResiduals, toInt8Block, type FloatVectorBlock, type VectorBlock } from './vector-block'

/**
 * The vector tables' reads and writes that the store's operations share, plain or sealed. Every function that takes
 * `db` runs inside the caller's transaction and reads only what stays in clear in an encrypted memory (keys, sid
 * ranges); decoding runs outside it.
 */

/** Trailing vector blocks an append may merge with (a binary counter of 32-row batches up to 1,024 rows needs 6). */
const MERGE_TAIL = 8

/** The last blocks, in blockId order: those an append may merge with. */
export async function tailBlocks(db: SiftDatabase): Promise<StoredVectorBlock[]> {
  return (await db.vectorBlocks.orderBy('blockId').reverse().limit(MERGE_TAIL).toArray()).reverse()
}

/** The blocks that may hold any of `sids` (increasing), by their sid ranges. */
export async function touchedBlocks(db: SiftDatabase, sids: readonly number[]): Promise<StoredVectorBlock[]> {
  if (sids.length === 0) return []
  const blocks = await db.vectorBlocks.where('lastSid').aboveOrEqual(sids[0]).toArray()
  return blocks.filter((b) => b.firstSid <= sids[sids.length - 1])
}

/** The residual records of `blocks`, parallel to them (`undefined` where a block has none). */
export function residualRecords(
  db: SiftDatabase,
  blocks: readonly { blockId: number }[],
): Promise<(StoredResiduals | undefined)[]> {
  return db.vectorResiduals.bulkGet(blocks.map((b) => b.blockId))
}

/** Which of `sids` (increasing) still belong to a stored message, as a parallel array of flags. */
export async function liveSids(db: SiftDatabase, sids: readonly number[]): Promise<boolean[]> {
  if (sids.length === 0) return []
  // An empty message shares its firstSid with the next message, so take every message from that firstSid on.
  const from = (await db.messages.where('firstSid').belowOrEqual(sids[0]).last())?.firstSid ?? sids[0]
  const records = await db.messages
    .where('firstSid')
    .between(from, sids[sids.length - 1], true, true)
    .toArray()
  const live = new Set(records.flatMap(messageSids))
  return sids.map((sid) => live.has(sid))
}

/** The rows of a batch (`sids`, `vectors` of `dim`) whose flag in `alive` is set. */
export function keptRows(
  sids: readonly number[],
  vectors: Float32Array,
  dim: number,
  alive: readonly boolean[],
): { sids: number[]; vectors: Float32Array } {
  const rows = sids.flatMap((_, row) => (alive[row] ? [row] : []))
  const kept = new Float32Array(rows.length * dim)
  rows.forEach((row, i) => kept.set(vectors.subarray(row * dim, (row + 1) * dim), i * dim))
  return { sids: rows.map((row) => sids[row]), vectors: kept }
}

/** The block a codes record holds, as stored; the codec's `damaged` error when it does not decode. */
export async function decodeBlock(
  codec: RecordCodec,
  record: StoredVectorBlock,
): Promise<VectorBlock | FloatVectorBlock> {
  const block = await codec.decodeBlock(record)
  if (!block) throw codec.damaged(`vector block ${record.blockId}`)
  return block
}

/**
 * The stored blocks decoded whole, for rewriting them: each with its residual record (parallel to them) joined back
 * (`decodeWhole`); the codec's `damaged` error for a block that does not decode.
 */
export function decodeWithResiduals(
  codec: RecordCodec,
  blocks: readonly StoredVectorBlock[],
  residuals: readonly (StoredResiduals | undefined)[],
): Promise<VectorBlock[]> {
  return Promise.all(
    blocks.map(async (record, i) => {
      const block = await decodeWhole(codec, record, residuals[i])
      if (!block) throw codec.damaged(`vector block ${record.blockId}`)
      return block
    }),
  )
}

/**
 * A stored block decoded whole, `undefined` when its codes record does not decode: its residual record joined back,
 * a float32 block quantised (it has none). A residual record that does not decode is left out, as a missing one is:
 * the rewritten block ranks by its codes alone, and never holds a write (or a forget) back.
 */
export async function decodeWhole(
  codec: RecordCodec,
  record: StoredVectorBlock,
  residual: StoredResiduals | undefined,
): Promise<VectorBlock | undefined> {
  const block = await codec.decodeBlock(record)
  if (!block) return undefined
  if (isFloatBlock(block)) return toInt8Block(block)
  return joinResiduals(block, residual && (await codec.decodeResiduals(residual)))
}

/** Writes blocks as their two stored records (`RecordCodec.encodeBlock`): a block without residuals deletes a stale one. */
export async function putBlockRecords(
  db: SiftDatabase,
  parts: readonly { codes: StoredVectorBlock; residuals: StoredResiduals | undefined }[],
): Promise<void> {
  await db.vectorBlocks.bulkPut(parts.map((p) => p.codes))
  await db.vectorResiduals.bulkPut(parts.flatMap((p) => (p.residuals ? [p.residuals] : [])))
  await db.vectorResiduals.bulkDelete(parts.flatMap((p) => (p.residuals ? [] : [p.codes.blockId])))
}

export async function deleteBlocks(db: SiftDatabase, blockIds: readonly number[]): Promise<void> {
  await db.vectorBlocks.bulkDelete([...blockIds])
  await db.vectorResiduals.bulkDelete([...blockIds])
}

/**
 * Every stored vector dropped and the watermark back at 0, in one transaction, so that the whole history is embedded
 * again; returns the state row so written. For a vector record that no longer decodes: vectors are derived data.
 */
export function dropVectors(db: SiftDatabase): Promise<StoreState> {
  return db.transaction('rw', [db.meta, db.vectorBlocks, db.vectorResiduals, db.coarseLists], async () => {
    await clearVectors(db)
    const state = { ...(await readState(db)), embeddedThrough: 0 }
    await db.meta.put(state)
    return state
  })
}

export async function clearVectors(db: SiftDatabase): Promise<void> {
  await db.vectorBlocks.clear()
  await db.vectorResiduals.clear()
  await db.coarseLists.clear()
}
