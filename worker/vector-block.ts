/**
 * One IndexedDB record holding many vectors: a few hundred records load 100K vectors far faster than
 * 100K records would. Sids inside a block are increasing; `firstSid`/`lastSid` let forget find the blocks it touches.
 */
export interface VectorBlock {
  blockId: number
  /** Fingerprint of the model that produced the vectors. */
  model: string
  dim: number
  firstSid: number
  lastSid: number
  sids: Float64Array
  /** `sids.length × dim`, row-major. */
  vectors: Float32Array
}

/** Vectors per block. The last block fills up by rewrite, so a larger block costs more per append. */
export const BLOCK_CAPACITY = 1024

/**
 * Appends rows to the last block (rewritten while it has room), then to new blocks.
 * Returns the blocks to put and the next free block id.
 */
export function appendToBlocks(
  last: VectorBlock | undefined,
  sids: readonly number[],
  vectors: Float32Array,
  target: { model: string; dim: number; nextBlockId: number },
): { blocks: VectorBlock[]; nextBlockId: number } {
  const { model, dim } = target
  let { nextBlockId } = target
  const blocks: VectorBlock[] = []
  let row = 0
  let open = last && last.model === model && last.dim === dim && last.sids.length < BLOCK_CAPACITY ? last : undefined
  while (row < sids.length) {
    const base = open ?? { blockId: nextBlockId++, model, dim, firstSid: sids[row], lastSid: sids[row], sids: new Float64Array(0), vectors: new Float32Array(0) }
    const take = Math.min(BLOCK_CAPACITY - base.sids.length, sids.length - row)
    const blockSids = new Float64Array(base.sids.length + take)
    blockSids.set(base.sids)
    blockSids.set(sids.slice(row, row + take), base.sids.length)
    const blockVectors = new Float32Array(blockSids.length * dim)
    blockVectors.set(base.vectors)
    blockVectors.set(vectors.subarray(row * dim, (row + take) * dim), base.vectors.length)
    blocks.push({ ...base, firstSid: blockSids[0], lastSid: blockSids[blockSids.length - 1], sids: blockSids, vectors: blockVectors })
    row += take
    open = undefined
  }
  return { blocks, nextBlockId }
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
  const vectors = new Float32Array(keep.length * dim)
  keep.forEach((row, i) => {
    sids[i] = block.sids[row]
    vectors.set(block.vectors.subarray(row * dim, (row + 1) * dim), i * dim)
  })
  return { ...block, firstSid: sids[0], lastSid: sids[sids.length - 1], sids, vectors }
}
