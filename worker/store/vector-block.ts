import { quantizeVectors } from '../index/vector/quantize-vector'

/**
 * One IndexedDB record holding many vectors: a few hundred records load 100K vectors far faster than
 * 100K records would. Sids inside a block are increasing; `firstSid`/`lastSid` let forget find the blocks it touches.
 * Vectors are per-vector int8 (`quantizeRows`), 516 bytes per 512-d vector instead of 2,048, plus (format 2) the
 * int8 residual of each (`quantizeResiduals`), another 516 bytes, with which the top of a ranking is re-scored exactly.
 * The store keeps the residuals in a separate record (`VectorResiduals`), so open does not wait for them.
 */
export interface VectorBlock {
  blockId: number
  /**
   * Layout of the record: absent (format 1) holds codes and scales only — those rows rank by their int8 score, as if
   * their residual were zero, until re-embedded; `VECTOR_BLOCK_FORMAT` adds `residuals` and `residualScales`.
   */
  format?: number
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
  /** `sids.length × dim` int8 codes of each row's rounding error: value ≈ code × scale + residual × residualScale. */
  residuals?: Int8Array
  residualScales?: Float32Array
}

/** The current block layout: codes plus residuals. */
export const VECTOR_BLOCK_FORMAT = 2

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
  return { ...rest, ...quantizeBlockRows(vectors, block.sids.length, block.dim) }
}

/** Both int8 layers of `rows` float vectors. */
export function quantizeBlockRows(
  vectors: Float32Array,
  rows: number,
  dim: number,
): Pick<VectorBlock, 'format' | 'codes' | 'scales' | 'residuals' | 'residualScales'> {
  return { format: VECTOR_BLOCK_FORMAT, ...quantizeVectors(vectors, rows, dim) }
}

/**
 * Stores a batch as a new block, then merges it into the trailing blocks while the one before is no larger than it,
 * like a binary counter: a row is rewritten about log₂(1024 / batch) times instead of on every append to a
 * 1,024-row block. When such a merge would pass `BLOCK_CAPACITY` (batches of other sizes), the trailing partial
 * blocks and the new one are re-cut into full blocks and one remainder, so no partial block is ever left behind a
 * full one, where it could never grow.
 * `tail` is the last few stored blocks, in blockId order. Returns the blocks to put, the blockIds to delete and the
 * next free block id.
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
  const save = (block: VectorBlock) => {
    const unsaved = put.findIndex((b) => b.blockId === block.blockId)
    if (unsaved >= 0) put.splice(unsaved, 1)
    put.push(block)
  }
  const open = tail.filter((b) => b.model === model && b.dim === dim)
  for (let row = 0; row < sids.length; ) {
    const take = Math.min(BLOCK_CAPACITY, sids.length - row)
    const blockSids = Float64Array.from(sids.slice(row, row + take))
    const layers = quantizeBlockRows(vectors.subarray(row * dim, (row + take) * dim), take, dim)
    let block: VectorBlock = {
      blockId: nextBlockId++,
      model,
      dim,
      firstSid: blockSids[0],
      lastSid: blockSids[take - 1],
      sids: blockSids,
      ...layers,
    }
    for (
      let before = open.at(-1);
      before && before.sids.length < BLOCK_CAPACITY && before.sids.length <= block.sids.length;
      before = open.at(-1)
    ) {
      if (before.sids.length + block.sids.length <= BLOCK_CAPACITY) {
        open.pop()
        remove.push(block.blockId)
        block = concatBlocks(before, block)
        continue
      }
      // Too big to merge: every trailing partial block and this one are re-cut into full blocks and one remainder.
      const partial: VectorBlock[] = []
      while (open.length > 0 && open[open.length - 1].sids.length < BLOCK_CAPACITY) partial.unshift(open.pop()!)
      const joined = [...partial, block].reduce(concatBlocks)
      const ids = [...partial.map((b) => b.blockId), block.blockId]
      let at = 0
      for (; joined.sids.length - at > BLOCK_CAPACITY; at += BLOCK_CAPACITY) {
        const full = { ...sliceBlock(joined, at, at + BLOCK_CAPACITY), blockId: ids.shift()! }
        save(full)
        open.push(full)
      }
      block = { ...sliceBlock(joined, at, joined.sids.length), blockId: ids.shift()! }
      remove.push(...ids)
      break
    }
    save(block)
    open.push(block)
    row += take
  }
  return { put, remove: remove.filter((id) => !put.some((b) => b.blockId === id)), nextBlockId }
}

/** `a`'s rows then `b`'s, under `a`'s blockId; residuals are kept when either has them (zero for the other's rows). */
function concatBlocks(a: VectorBlock, b: VectorBlock): VectorBlock {
  const rows = a.sids.length + b.sids.length
  const sids = new Float64Array(rows)
  sids.set(a.sids)
  sids.set(b.sids, a.sids.length)
  const codes = new Int8Array(a.codes.length + b.codes.length)
  codes.set(a.codes)
  codes.set(b.codes, a.codes.length)
  const scales = new Float32Array(rows)
  scales.set(a.scales)
  scales.set(b.scales, a.scales.length)
  const joined: VectorBlock = { ...a, firstSid: sids[0], lastSid: sids[rows - 1], sids, codes, scales }
  if (!a.residuals && !b.residuals) return joined
  const residuals = new Int8Array(codes.length)
  const residualScales = new Float32Array(rows)
  if (a.residuals && a.residualScales) {
    residuals.set(a.residuals)
    residualScales.set(a.residualScales)
  }
  if (b.residuals && b.residualScales) {
    residuals.set(b.residuals, a.codes.length)
    residualScales.set(b.residualScales, a.sids.length)
  }
  return { ...joined, format: VECTOR_BLOCK_FORMAT, residuals, residualScales }
}

/** Rows [from, to) of `block`, under its blockId. */
function sliceBlock(block: VectorBlock, from: number, to: number): VectorBlock {
  return pickRows(
    block,
    Array.from({ length: to - from }, (_, i) => from + i),
  )
}

/** The block without the rows whose sid is in `gone`: the same object if none matched, `undefined` if none is left. */
export function removeFromBlock(block: VectorBlock, gone: ReadonlySet<number>): VectorBlock | undefined {
  const keep: number[] = []
  block.sids.forEach((sid, row) => {
    if (!gone.has(sid)) keep.push(row)
  })
  if (keep.length === block.sids.length) return block
  if (keep.length === 0) return undefined
  return pickRows(block, keep)
}

/** The block holding only the given rows, in that order. */
function pickRows(block: VectorBlock, keep: readonly number[]): VectorBlock {
  const { dim, residuals, residualScales } = block
  const sids = new Float64Array(keep.length)
  const codes = new Int8Array(keep.length * dim)
  const scales = new Float32Array(keep.length)
  const kept =
    residuals && residualScales
      ? { residuals: new Int8Array(keep.length * dim), residualScales: new Float32Array(keep.length) }
      : undefined
  keep.forEach((row, i) => {
    sids[i] = block.sids[row]
    codes.set(block.codes.subarray(row * dim, (row + 1) * dim), i * dim)
    scales[i] = block.scales[row]
    if (kept && residuals && residualScales) {
      kept.residuals.set(residuals.subarray(row * dim, (row + 1) * dim), i * dim)
      kept.residualScales[i] = residualScales[row]
    }
  })
  return { ...block, firstSid: sids[0], lastSid: sids[sids.length - 1], sids, codes, scales, ...kept }
}

/**
 * The residual layer of a format-2 block, stored as its own record under the block's id: open reads only the codes
 * (half the bytes, the part every query scans) and loads residuals afterwards, in the background.
 */
export interface VectorResiduals {
  blockId: number
  sids: Float64Array
  residuals: Int8Array
  residualScales: Float32Array
}

/** The block as its two records: codes (what `vectorBlocks` holds) and, for format 2, its residuals. */
export function splitResiduals(block: VectorBlock): { codes: VectorBlock; residuals: VectorResiduals | undefined } {
  const { residuals, residualScales, ...codes } = block
  return {
    codes,
    residuals:
      residuals && residualScales ? { blockId: block.blockId, sids: block.sids, residuals, residualScales } : undefined,
  }
}

/** The block with its residual record put back (left without residuals when the record is missing). */
export function joinResiduals(block: VectorBlock, record: VectorResiduals | undefined): VectorBlock {
  return record ? { ...block, residuals: record.residuals, residualScales: record.residualScales } : block
}
