import { describe, expect, it } from 'vitest'
import { appendToBlocks, BLOCK_CAPACITY, isFloatBlock, toInt8Block, type VectorBlock } from '../worker/vector-block'

describe('vector blocks', () => {
  it('appends 32-row batches like a binary counter: few small trailing blocks, full blocks never rewritten', () => {
    const dim = 4
    const stored = new Map<number, VectorBlock>()
    let nextBlockId = 1
    let rowsWritten = 0
    for (let batch = 0; batch < 70; batch++) {
      const sids = Array.from({ length: 32 }, (_, i) => batch * 32 + i + 1)
      const tail = [...stored.values()].sort((a, b) => a.blockId - b.blockId).slice(-8)
      const result = appendToBlocks(tail, sids, Float32Array.from({ length: 32 * dim }, (_, i) => Math.sin(i + batch)), { model: 'm', dim, nextBlockId })
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
    const block = { blockId: 3, model: 'm', dim: 2, firstSid: 5, lastSid: 6, sids: Float64Array.from([5, 6]), vectors: Float32Array.from([0.6, -0.8, 0, 0]) }
    expect(isFloatBlock(block)).toBe(true)
    const int8 = toInt8Block(block)
    expect(isFloatBlock(int8)).toBe(false)
    expect(Array.from(int8.codes)).toEqual([95, -127, 0, 0])
    expect(Array.from(int8.scales)).toEqual([Math.fround(0.8 / 127), 0])
    expect(int8).toMatchObject({ blockId: 3, firstSid: 5, lastSid: 6 })
  })
})
