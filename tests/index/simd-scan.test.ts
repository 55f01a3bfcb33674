import { describe, expect, it } from 'vitest'
import { seededRandom as random } from '../../worker/util/seeded-random'
import {
  dotKernelModule,
  jsDotKernel,
  jsGatherKernel,
  queryLimit,
  ROW_ALIGN,
  simdDotKernels,
} from '../../worker/index/vector/simd-scan'

describe('dot kernel', () => {
  it('assembles a module this runtime validates', () => {
    expect(WebAssembly.validate(dotKernelModule())).toBe(true)
  })

  it('SIMD and JS kernels equal a plain integer sum exactly, for odd row counts and padded dims, at the overflow limit', () => {
    const next = random(3)
    for (const dim of [1, 15, 16, 17, 100, 384, 512, 768, 1024]) {
      const stride = Math.ceil(dim / ROW_ALIGN) * ROW_ALIGN
      const limit = queryLimit(stride)
      for (const rows of [1, 7, 33]) {
        const memory = new WebAssembly.Memory({ initial: 2 })
        const codes = new Int8Array(memory.buffer, 0, rows * stride)
        for (let r = 0; r < rows; r++) {
          for (let d = 0; d < dim; d++) codes[r * stride + d] = r === 0 ? 127 : Math.round(next() * 254) - 127
        }
        const queryAt = rows * stride
        const query = new Int16Array(memory.buffer, queryAt, stride)
        for (let d = 0; d < dim; d++) query[d] = rows === 7 ? limit : Math.round((next() * 2 - 1) * limit)
        const expected = Array.from({ length: rows }, (_, r) => {
          let sum = 0
          for (let d = 0; d < dim; d++) sum += codes[r * stride + d] * query[d]
          return sum
        })
        const simdAt = queryAt + stride * 2
        const jsAt = simdAt + rows * 4
        simdDotKernels(memory)!.dots(0, rows, stride, queryAt, simdAt)
        jsDotKernel(memory)(0, rows, stride, queryAt, jsAt)
        expect(Array.from(new Int32Array(memory.buffer, simdAt, rows))).toEqual(expected)
        expect(Array.from(new Int32Array(memory.buffer, jsAt, rows))).toEqual(expected)
      }
    }
  })

  it('gather scores listed rows (any order, repeats, none) exactly as dots scores them, SIMD and JS alike', () => {
    const next = random(11)
    for (const dim of [16, 100, 512]) {
      const stride = Math.ceil(dim / ROW_ALIGN) * ROW_ALIGN
      const rows = 40
      const memory = new WebAssembly.Memory({ initial: 4 })
      const codes = new Int8Array(memory.buffer, 0, rows * stride)
      for (let r = 0; r < rows; r++)
        for (let d = 0; d < dim; d++) codes[r * stride + d] = Math.round(next() * 254) - 127
      const queryAt = rows * stride
      const query = new Int16Array(memory.buffer, queryAt, stride)
      const limit = queryLimit(stride)
      for (let d = 0; d < dim; d++) query[d] = Math.round((next() * 2 - 1) * limit)
      const allAt = queryAt + stride * 2
      const kernels = simdDotKernels(memory)!
      kernels.dots(0, rows, stride, queryAt, allAt)
      const all = Array.from(new Int32Array(memory.buffer, allAt, rows))
      for (const picked of [[], [0], [39, 3, 3, 17, 0, 38], Array.from({ length: rows }, (_, i) => rows - 1 - i)]) {
        const listAt = allAt + rows * 4
        new Int32Array(memory.buffer, listAt, picked.length).set(picked)
        const simdAt = listAt + rows * 4
        const jsAt = simdAt + rows * 4
        kernels.gather(0, listAt, picked.length, stride, queryAt, simdAt)
        jsGatherKernel(memory)(0, listAt, picked.length, stride, queryAt, jsAt)
        expect(Array.from(new Int32Array(memory.buffer, simdAt, picked.length))).toEqual(picked.map((r) => all[r]))
        expect(Array.from(new Int32Array(memory.buffer, jsAt, picked.length))).toEqual(picked.map((r) => all[r]))
      }
    }
  })
})
