import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Backend } from '../../src/types'
import { ONNX_RUNTIME_FILE_NAMES, onnxRuntimeFiles } from '../../worker/embed/onnx-runtime-files'

/** Every backend list a load can try: each order of each non-empty choice of backends. */
function backendLists(backends: readonly Backend[] = ['webgpu', 'wasm', 'cpu']): Backend[][] {
  return backends.flatMap((first) => {
    const rest = backends.filter((backend) => backend !== first)
    return [[first], ...(rest.length > 0 ? backendLists(rest).map((tail) => [first, ...tail]) : [])]
  })
}

describe('onnxRuntimeFiles', () => {
  it('points a WASM-only load at the plain build, and anything that may try WebGPU at the WebGPU build (asyncify)', () => {
    expect(onnxRuntimeFiles('http://app/ort/', ['wasm'])).toEqual({
      mjs: 'http://app/ort/ort-wasm-simd-threaded.mjs',
      wasm: 'http://app/ort/ort-wasm-simd-threaded.wasm',
    })
    const webgpu = {
      mjs: 'http://app/ort/ort-wasm-simd-threaded.asyncify.mjs',
      wasm: 'http://app/ort/ort-wasm-simd-threaded.asyncify.wasm',
    }
    expect(onnxRuntimeFiles('http://app/ort/', ['webgpu', 'wasm'])).toEqual(webgpu)
    expect(onnxRuntimeFiles('http://app/ort/', ['webgpu'])).toEqual(webgpu)
  })

  it('lists exactly the files a load can name (what sift-memory/vite serves and setup copies), each shipped by onnxruntime-web', () => {
    const named = new Set(backendLists().flatMap((backends) => Object.values(onnxRuntimeFiles('', backends))))
    expect(new Set(ONNX_RUNTIME_FILE_NAMES)).toEqual(named)
    expect(ONNX_RUNTIME_FILE_NAMES).toHaveLength(named.size)
    const shipped = readdirSync(join(__dirname, '..', '..', 'node_modules', 'onnxruntime-web', 'dist'))
    for (const name of ONNX_RUNTIME_FILE_NAMES) expect(shipped).toContain(name)
  })

  it("names the build transformers.js's ONNX Runtime loads when not told otherwise", () => {
    // transformers.js imports onnxruntime-web/webgpu; the files its build names are the ones a prefix would load.
    const bundle = readFileSync(
      join(__dirname, '..', '..', 'node_modules', 'onnxruntime-web', 'dist', 'ort.webgpu.bundle.min.mjs'),
      'utf8',
    )
    const { mjs, wasm } = onnxRuntimeFiles('', ['webgpu'])
    expect(bundle).toContain(mjs)
    expect(bundle).toContain(wasm)
  })
})
