import { messageSids } from './record-check'
import type { SiftDatabase } from './schema'
import type { SealedResiduals, SealedVectorBlock } from './sealed-records'
import { joinResiduals, removeFromBlock, splitResiduals, type VectorBlock, type VectorResiduals } from './vector-block'

/**
 * The vector tables' reads and writes that the store's transactions share, plain or sealed. Every function runs inside
 * the caller's transaction and reads only what stays in clear in an encrypted memory (keys, sid ranges).
 */

/** Trailing vector blocks an append may merge with (a binary counter of 32-row batches up to 1,024 rows needs 6). */
const MERGE_TAIL = 8

/** The last blocks, in blockId order: those an append may merge with. */
export async function tailBlocks<Block extends VectorBlock | SealedVectorBlock>(db: SiftDatabase): Promise<Block[]> {
  return (
    (await db.vectorBlocks.orderBy('blockId').reverse().limit(MERGE_TAIL).toArray()) as unknown as Block[]
  ).reverse()
}

/** The blocks that may hold any of `sids` (increasing), by their sid ranges. */
export async function touchedBlocks<Block extends VectorBlock | SealedVectorBlock>(
  db: SiftDatabase,
  sids: readonly number[],
): Promise<Block[]> {
  const blocks = (await db.vectorBlocks.where('lastSid').aboveOrEqual(sids[0]).toArray()) as unknown as Block[]
  return blocks.filter((b) => b.firstSid <= sids[sids.length - 1])
}

/** The residual records of `blocks`, parallel to them (`undefined` where a block has none). */
export async function residualRecords<Residuals extends VectorResiduals | SealedResiduals>(
  db: SiftDatabase,
  blocks: readonly { blockId: number }[],
): Promise<(Residuals | undefined)[]> {
  return (await db.vectorResiduals.bulkGet(blocks.map((b) => b.blockId))) as unknown as (Residuals | undefined)[]
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

/** The blocks with their residual records joined back (for rewriting them). */
export async function withResiduals(db: SiftDatabase, blocks: readonly VectorBlock[]): Promise<VectorBlock[]> {
  const records = await residualRecords<VectorResiduals>(db, blocks)
  return blocks.map((block, i) => joinResiduals(block, records[i]))
}

/** Writes each block as its codes record and, when it has residuals, its residual record (else deletes a stale one). */
export async function putBlocks(db: SiftDatabase, blocks: readonly VectorBlock[]): Promise<void> {
  await putBlockRecords(db, blocks.map(splitResiduals))
}

/** Writes blocks already split into their two records (`splitResiduals`, or sealed by `sealBlock`). */
export async function putBlockRecords(
  db: SiftDatabase,
  parts: readonly {
    codes: VectorBlock | SealedVectorBlock
    residuals: VectorResiduals | SealedResiduals | undefined
  }[],
): Promise<void> {
  await db.vectorBlocks.bulkPut(parts.map((p) => p.codes as VectorBlock))
  await db.vectorResiduals.bulkPut(parts.flatMap((p) => (p.residuals ? [p.residuals as VectorResiduals] : [])))
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

/** Removes the rows of `sids` (increasing) from the plain blocks holding them: rewritten without them, or deleted once empty. */
export async function removeVectors(db: SiftDatabase, sids: readonly number[]): Promise<void> {
  const gone = new Set(sids)
  for (const block of await withResiduals(db, await touchedBlocks<VectorBlock>(db, sids))) {
    const rest = removeFromBlock(block, gone)
    if (rest === block) continue
    if (rest) await putBlocks(db, [rest])
    else await deleteBlocks(db, [block.blockId])
  }
}
