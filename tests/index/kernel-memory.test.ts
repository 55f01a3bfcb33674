import { afterEach, describe, expect, it, vi } from 'vitest'
import { seededRandom } from '../../worker/util/seeded-random'
import { dotKernels, growKernelMemory, kernelMemory, type KernelMemory } from '../../worker/index/vector/kernel-memory'
import { queryLimit, ROW_ALIGN } from '../../worker/index/vector/simd-scan'
import { VectorIndex } from '../../worker/index/vector/vector-index'

/** `rows` int8 rows of `dim` at 0 and an int16 query after them, in `memory`; returns the query's offset. */
function writeRowsAndQuery(memory: KernelMemory, rows: number, dim: number, random: () => number): number {
  const stride = Math.ceil(dim / ROW_ALIGN) * ROW_ALIGN
  const codes = new Int8Array(memory.buffer, 0, rows * stride)
  for (let r = 0; r < rows; r++) for (let d = 0; d < dim; d++) codes[r * stride + d] = Math.round(random() * 254) - 127
  const queryAt = rows * stride
  const query = new Int16Array(memory.buffer, queryAt, stride)
  for (let d = 0; d < dim; d++) query[d] = Math.round((random() * 2 - 1) * queryLimit(stride))
  return queryAt
}

describe('kernel memory', () => {
  it.each([
    ['WebAssembly', () => kernelMemory(1000)],
    ['plain', () => ({ buffer: new ArrayBuffer(1000) })],
  ])('grows %s memory keeping its bytes at their offsets, the added bytes zero', (_, make) => {
    const memory = make()
    const before = memory.buffer.byteLength
    new Int8Array(memory.buffer).fill(7)
    expect(growKernelMemory(memory, before)).toBe(before)
    expect(memory.buffer.byteLength).toBe(before)
    expect(growKernelMemory(memory, before + 70_000)).toBe(before)
    const grown = new Int8Array(memory.buffer)
    expect(grown.length).toBeGreaterThanOrEqual(before + 70_000)
    expect(grown.subarray(0, before).every((b) => b === 7)).toBe(true)
    expect(grown.subarray(before).every((b) => b === 0)).toBe(true)
  })

  it('gives kernels that agree on WebAssembly memory (SIMD or not) and on a plain buffer', () => {
    const dim = 100
    const rows = 9
    const stride = Math.ceil(dim / ROW_ALIGN) * ROW_ALIGN
    const results = [true, false].map((simd) => {
      const memory = kernelMemory(64 * 1024)
      const queryAt = writeRowsAndQuery(memory, rows, dim, seededRandom(5))
      dotKernels(memory, simd).dots(0, rows, stride, queryAt, queryAt + stride * 2)
      return Array.from(new Int32Array(memory.buffer, queryAt + stride * 2, rows))
    })
    const plain = { buffer: new ArrayBuffer(64 * 1024) }
    const queryAt = writeRowsAndQuery(plain, rows, dim, seededRandom(5))
    const kernels = dotKernels(plain)
    kernels.dots(0, rows, stride, queryAt, queryAt + stride * 2)
    new Int32Array(plain.buffer, queryAt + stride * 2 + rows * 4, 3).set([8, 0, 3])
    kernels.gather(0, queryAt + stride * 2 + rows * 4, 3, stride, queryAt, queryAt + stride * 2 + rows * 8)
    const dots = Array.from(new Int32Array(plain.buffer, queryAt + stride * 2, rows))
    expect(results[0]).toEqual(results[1])
    expect(dots).toEqual(results[0])
    expect(Array.from(new Int32Array(plain.buffer, queryAt + stride * 2 + rows * 8, 3))).toEqual([
      dots[8],
      dots[0],
      dots[3],
    ])
  })
})

describe('VectorIndex without WebAssembly', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('searches, grows, trains and probes on plain buffers exactly as with WebAssembly', () => {
    const dim = 24
    const rows = 1500
    const random = seededRandom(12)
    // Around 30 directions, so the lists calibrate a share worth probing.
    const centres = Array.from({ length: 30 }, () => Float32Array.from({ length: dim }, () => random() * 2 - 1))
    const vectors = new Float32Array(rows * dim)
    for (let r = 0; r < rows; r++) {
      const centre = centres[Math.floor(random() * centres.length)]
      for (let d = 0; d < dim; d++) vectors[r * dim + d] = centre[d] + (random() * 2 - 1) * 0.3
    }
    const sids = Array.from({ length: rows }, (_, r) => r + 1)
    const run = () => {
      const index = new VectorIndex(dim, 16)
      index.add(sids, vectors, (sid) => `c${sid % 3}`)
      index.remove(sids.filter((sid) => sid % 10 === 0))
      for (const _ of index.trainCoarseLists(seededRandom(3)));
      const query = vectors.slice(0, dim)
      return {
        search: index.search(query, 20, { conversationId: 'c1' }),
        probe: index.probe(query),
        lists: index.serializeCoarseLists(),
      }
    }
    const withWasm = run()
    vi.stubGlobal('WebAssembly', undefined)
    const withoutWasm = run()
    expect(withoutWasm).toEqual(withWasm)
    expect(withWasm.probe).toBeDefined()
  })
})
