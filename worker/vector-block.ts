import { quantizeRows } from './quantize-vector'

/**
 * One IndexedDB record holding many vectors: a few hundred records load 100K vectors far faster than
 * 100K records would. Sids inside a block are increasing; `firstSid`/`lastSid` let forget find the blocks it touches.
 * Vectors are per-vector int8 (`quantizeRows`): 516 bytes per 512-d vector instead of 2,048.
 */
export interface VectorBlock {
  blockId: number
  /** Fingerprint of the model that produced the vectors. */
  model: string
  dim: number
  firstSid: number
  lastSid: number
  sids: Float64Array
  /** `sids.length × dim` int8 codes, row-major. */
  codes: Int8Array
  /** One per row: value ≈ code × scale. */
  scales: Float32Array
}

/** A block as stored before int8 (float32 rows); `toInt8Block` converts it without re-embedding. */
export interface FloatVectorBlock extends Omit<VectorBlock, 'codes' | 'scales'> {
  vectors: Float32Array
}

/** Vectors per block, at most: merges stop at this size, so a full block is never rewritten by an append. */
export const BLOCK_CAPACITY = 1024

/** Whether a stored block still holds float32 vectors. */
export function isFloatBlock(block: VectorBlock | FloatVectorBlock): block is FloatVectorBlock {
  return 'vectors' in block
}

export function toInt8Block(block: FloatVectorBlock): VectorBlock {
  const { vectors, ...rest } = block
  const rows = block.sids.length
  const codes = new Int8Array(rows * block.dim)
  const scales = new Float32Array(rows)
  quantizeRows(vectors, rows, block.dim, codes, block.dim, scales)
  return { ...rest, codes, scales }
}

/**
 * Stores a batch as a new block, then merges it into the trailing blocks while the one before is no larger than it
 * (and the merge fits `BLOCK_CAPACITY`), like a binary counter: a row is rewritten about log₂(1024 / batch) times
 * instead of on every append to a 1,024-row block. `tail` is the last few stored blocks, in blockId order.
 * Returns the blocks to put, the blockIds to delete and the next free block id.
 */
export function appendToBlocks(
  tail: readonly VectorBlock[],
  sids: readonly number[],
  vectors: Float32Array,
  target: { model: string; dim: number; nextBlockId: number },
): { put: VectorBlock[]; remove: number[]; nextBlockId: number } {
  const { model, dim } = target
  let { nextBlockId } = target
  const put: VectorBlock[] = []
  const remove: number[] = []
  const open = tail.filter((b) => b.model === model && b.dim === dim)
  for (let row = 0; row < sids.length; ) {
    const take = Math.min(BLOCK_CAPACITY, sids.length - row)
    const codes = new Int8Array(take * dim)
    const scales = new Float32Array(take)
    quantizeRows(vectors.subarray(row * dim, (row + take) * dim), take, dim, codes, dim, scales)
    const blockSids = Float64Array.from(sids.slice(row, row + take))
    let block: VectorBlock = { blockId: nextBlockId++, model, dim, firstSid: blockSids[0], lastSid: blockSids[take - 1], sids: blockSids, codes, scales }
    for (let before = open.at(-1); before && before.sids.length <= block.sids.length && before.sids.length + block.sids.length <= BLOCK_CAPACITY; before = open.at(-1)) {
      open.pop()
      remove.push(block.blockId)
      block = concatBlocks(before, block)
    }
    const unsaved = put.findIndex((b) => b.blockId === block.blockId)
    if (unsaved >= 0) put.splice(unsaved, 1)
    put.push(block)
    open.push(block)
    row += take
  }
  return { put, remove: remove.filter((id) => !put.some((b) => b.blockId === id)), nextBlockId }
}

/** `a`'s rows then `b`'s, under `a`'s blockId. */
function concatBlocks(a: VectorBlock, b: VectorBlock): VectorBlock {
  const sids = new Float64Array(a.sids.length + b.sids.length)
  sids.set(a.sids)
  sids.set(b.sids, a.sids.length)
  const codes = new Int8Array(a.codes.length + b.codes.length)
  codes.set(a.codes)
  codes.set(b.codes, a.codes.length)
  const scales = new Float32Array(a.scales.length + b.scales.length)
  scales.set(a.scales)
  scales.set(b.scales, a.scales.length)
  return { ...a, firstSid: sids[0], lastSid: sids[sids.length - 1], sids, codes, scales }
}

/** The block without the rows whose sid is in `gone`: the same object if none matched, `undefined` if none is left. */
export function removeFromBlock(block: VectorBlock, gone: ReadonlySet<number>): VectorBlock | undefined {
  const keep: number[] = []
  block.sids.forEach((sid, row) => {
    if (!gone.has(sid)) keep.push(row)
  })
  if (keep.length === block.sids.length) return block
  if (keep.length === 0) return undefined
  const { dim } = block
  const sids = new Float64Array(keep.length)
  const codes = new Int8Array(keep.length * dim)
  const scales = new Float32Array(keep.length)
  keep.forEach((row, i) => {
    sids[i] = block.sids[row]
    codes.set(block.codes.subarray(row * dim, (row + 1) * dim), i * dim)
    scales[i] = block.scales[row]
  })
  return { ...block, firstSid: sids[0], lastSid: sids[sids.length - 1], sids, codes, scales }
}
