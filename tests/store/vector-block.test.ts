import { describe, expect, it } from 'vitest'
import {
  appendToBlocks,
  BLOCK_CAPACITY,
  isFloatBlock,
  removeFromBlock,
  toInt8Block,
  VECTOR_BLOCK_FORMAT,
  type VectorBlock,
} from '../../worker/store/vector-block'

describe('vector blocks', () => {
  it('appends 32-row batches like a binary counter: few small trailing blocks, full blocks never rewritten', () => {
    const dim = 4
    const stored = new Map<number, VectorBlock>()
    let nextBlockId = 1
    let rowsWritten = 0
    for (let batch = 0; batch < 70; batch++) {
      const sids = Array.from({ length: 32 }, (_, i) => batch * 32 + i + 1)
      const tail = [...stored.values()].sort((a, b) => a.blockId - b.blockId).slice(-8)
      const result = appendToBlocks(
        tail,
        sids,
        Float32Array.from({ length: 32 * dim }, (_, i) => Math.sin(i + batch)),
        { model: 'm', dim, nextBlockId },
      )
      for (const id of result.remove) stored.delete(id)
      for (const block of result.put) stored.set(block.blockId, block)
      rowsWritten += result.put.reduce((sum, b) => sum + b.sids.length, 0)
      nextBlockId = result.nextBlockId
    }
    const blocks = [...stored.values()].sort((a, b) => a.blockId - b.blockId)
    expect(blocks.map((b) => b.sids.length)).toEqual([BLOCK_CAPACITY, BLOCK_CAPACITY, 128, 64])
    expect(blocks.flatMap((b) => Array.from(b.sids))).toEqual(Array.from({ length: 70 * 32 }, (_, i) => i + 1))
    // Each row is rewritten log2(1024 / 32) = 5 times at most, against ~16 times when the last 1,024-row block is rewritten per batch.
    expect(rowsWritten / (70 * 32)).toBeLessThanOrEqual(6)
  })

  it('quantises a float32 block from an older store without changing its rows', () => {
    const block = {
      blockId: 3,
      model: 'm',
      dim: 2,
      firstSid: 5,
      lastSid: 6,
      sids: Float64Array.from([5, 6]),
      vectors: Float32Array.from([0.6, -0.8, 0, 0]),
    }
    expect(isFloatBlock(block)).toBe(true)
    const int8 = toInt8Block(block)
    expect(isFloatBlock(int8)).toBe(false)
    expect(Array.from(int8.codes)).toEqual([95, -127, 0, 0])
    expect(Array.from(int8.scales)).toEqual([Math.fround(0.8 / 127), 0])
    expect(int8).toMatchObject({ blockId: 3, firstSid: 5, lastSid: 6, format: VECTOR_BLOCK_FORMAT })
    // The residual layer holds what the codes miss: 0.6 − 95 × (0.8 / 127) ≈ 0.00157.
    expect(int8.residuals![0] * int8.residualScales![0] + 95 * int8.scales[0]).toBeCloseTo(0.6, 6)
  })

  /** Appends batches of the given sizes; returns the stored blocks in blockId order. */
  function appendBatches(sizes: readonly number[], start: VectorBlock[] = []): VectorBlock[] {
    const dim = 3
    const stored = new Map(start.map((b) => [b.blockId, b]))
    let nextBlockId = Math.max(0, ...stored.keys()) + 1
    let sid = Math.max(0, ...start.map((b) => b.lastSid)) + 1
    for (const size of sizes) {
      const sids = Array.from({ length: size }, () => sid++)
      const tail = [...stored.values()].sort((a, b) => a.blockId - b.blockId).slice(-8)
      const result = appendToBlocks(
        tail,
        sids,
        Float32Array.from({ length: size * dim }, (_, i) => Math.cos(i + sid)),
        { model: 'm', dim, nextBlockId },
      )
      for (const id of result.remove) stored.delete(id)
      for (const block of result.put) stored.set(block.blockId, block)
      nextBlockId = result.nextBlockId
    }
    return [...stored.values()].sort((a, b) => a.blockId - b.blockId)
  }

  it('never leaves a partial block behind a full one, whatever the batch sizes', () => {
    for (const sizes of [
      [1100, 2000],
      [1100, ...Array(40).fill(128)],
      [300, 700, 50, 5000, 3, 1021, 77],
    ]) {
      const blocks = appendBatches(sizes)
      const lengths = blocks.map((b) => b.sids.length)
      const firstPartial = lengths.findIndex((n) => n < BLOCK_CAPACITY)
      if (firstPartial >= 0) expect(lengths.slice(firstPartial).every((n) => n < BLOCK_CAPACITY)).toBe(true)
      expect(lengths.every((n) => n <= BLOCK_CAPACITY)).toBe(true)
      const total = sizes.reduce((a, b) => a + b, 0)
      expect(blocks.flatMap((b) => Array.from(b.sids))).toEqual(Array.from({ length: total }, (_, i) => i + 1))
      expect(
        blocks.every(
          (b) => b.firstSid === b.sids[0] && b.lastSid === b.sids.at(-1) && b.residuals?.length === b.codes.length,
        ),
      ).toBe(true)
    }
  })

  it('merges a block stored without residuals with new rows, giving its rows zero residuals', () => {
    const dim = 3
    const old: VectorBlock = {
      blockId: 1,
      model: 'm',
      dim,
      firstSid: 1,
      lastSid: 2,
      sids: Float64Array.from([1, 2]),
      codes: Int8Array.from([1, 2, 3, 4, 5, 6]),
      scales: Float32Array.from([0.1, 0.2]),
    }
    const [merged] = appendBatches([4], [old])
    expect(merged).toMatchObject({ blockId: 1, format: VECTOR_BLOCK_FORMAT, firstSid: 1, lastSid: 6 })
    expect(Array.from(merged.codes.subarray(0, 6))).toEqual([1, 2, 3, 4, 5, 6])
    expect(Array.from(merged.residuals!.subarray(0, 6))).toEqual([0, 0, 0, 0, 0, 0])
    expect(Array.from(merged.residualScales!.subarray(0, 2))).toEqual([0, 0])
    const rest = removeFromBlock(merged, new Set([1, 4]))!
    expect(Array.from(rest.sids)).toEqual([2, 3, 5, 6])
    expect(Array.from(rest.residuals!.subarray(3, 6))).toEqual(Array.from(merged.residuals!.subarray(6, 9)))
    expect(removeFromBlock(old, new Set([1]))!.residuals).toBeUndefined()
  })
})
