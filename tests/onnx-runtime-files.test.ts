import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { onnxRuntimeFiles } from '../worker/embed/onnx-runtime-files'

describe('onnxRuntimeFiles', () => {
  it('points a WASM-only load at the plain build, and anything that may try WebGPU at the WebGPU build (asyncify)', () => {
    expect(onnxRuntimeFiles('http://app/ort/', ['wasm'])).toEqual({ mjs: 'http://app/ort/ort-wasm-simd-threaded.mjs', wasm: 'http://app/ort/ort-wasm-simd-threaded.wasm' })
    const webgpu = { mjs: 'http://app/ort/ort-wasm-simd-threaded.asyncify.mjs', wasm: 'http://app/ort/ort-wasm-simd-threaded.asyncify.wasm' }
    expect(onnxRuntimeFiles('http://app/ort/', ['webgpu', 'wasm'])).toEqual(webgpu)
    expect(onnxRuntimeFiles('http://app/ort/', ['webgpu'])).toEqual(webgpu)
  })

  it('names files that onnxruntime-web ships (and setup copies to public/ort)', () => {
    const shipped = readdirSync(join(__dirname, '..', 'node_modules', 'onnxruntime-web', 'dist'))
    for (const backends of [['wasm'], ['webgpu', 'wasm']] as const) {
      const { mjs, wasm } = onnxRuntimeFiles('', backends)
      expect(shipped).toContain(mjs)
      expect(shipped).toContain(wasm)
    }
  })

  it("names the build transformers.js's ONNX Runtime loads when not told otherwise", () => {
    // transformers.js imports onnxruntime-web/webgpu; the files its build names are the ones a prefix would load.
    const bundle = readFileSync(join(__dirname, '..', 'node_modules', 'onnxruntime-web', 'dist', 'ort.webgpu.bundle.min.mjs'), 'utf8')
    const { mjs, wasm } = onnxRuntimeFiles('', ['webgpu'])
    expect(bundle).toContain(mjs)
    expect(bundle).toContain(wasm)
  })
})
