import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { onnxRuntimeFiles } from '../worker/embed/onnx-runtime-files'

describe('onnxRuntimeFiles', () => {
  it('points a WASM-only load at the plain build, and anything that may try WebGPU at the prefix (the WebGPU build)', () => {
    expect(onnxRuntimeFiles('http://app/ort/', ['wasm'])).toEqual({ mjs: 'http://app/ort/ort-wasm-simd-threaded.mjs', wasm: 'http://app/ort/ort-wasm-simd-threaded.wasm' })
    expect(onnxRuntimeFiles('http://app/ort/', ['webgpu', 'wasm'])).toBe('http://app/ort/')
    expect(onnxRuntimeFiles('http://app/ort/', ['webgpu'])).toBe('http://app/ort/')
  })

  it('names files that onnxruntime-web ships (and prepare copies to public/ort)', () => {
    const shipped = readdirSync(join(__dirname, '..', 'node_modules', 'onnxruntime-web', 'dist'))
    const { mjs, wasm } = onnxRuntimeFiles('', ['wasm']) as { mjs: string; wasm: string }
    expect(shipped).toContain(mjs)
    expect(shipped).toContain(wasm)
  })
})
