import type { RecordCodec } from './record-codec'
import { messageSids } from './record-check'
import type { SiftDatabase } from './schema'
import type { StoredResiduals, StoredVectorBlock } from './stored-records'
import {
  isFloatBlock,
  joinResiduals,
  toInt8Block,
  type FloatVectorBlock,
  type VectorBlock,
  type VectorResiduals,
} from './vector-block'

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

/** The residuals a record holds; the codec's `damaged` error when it does not decode. */
export async function decodeResiduals(codec: RecordCodec, record: StoredResiduals): Promise<VectorResiduals> {
  const residuals = await codec.decodeResiduals(record)
  if (!residuals) throw codec.damaged(`vector residuals ${record.blockId}`)
  return residuals
}

/**
 * The stored blocks decoded whole, for rewriting them: each with its residual record (parallel to them) joined back,
 * and a float32 block quantised (it has none).
 */
export function decodeWithResiduals(
  codec: RecordCodec,
  blocks: readonly StoredVectorBlock[],
  residuals: readonly (StoredResiduals | undefined)[],
): Promise<VectorBlock[]> {
  return Promise.all(
    blocks.map(async (record, i) => {
      const block = await decodeBlock(codec, record)
      if (isFloatBlock(block)) return toInt8Block(block)
      const residual = residuals[i]
      return joinResiduals(block, residual && (await decodeResiduals(codec, residual)))
    }),
  )
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

export async function clearVectors(db: SiftDatabase): Promise<void> {
  await db.vectorBlocks.clear()
  await db.vectorResiduals.clear()
  await db.coarseLists.clear()
}
