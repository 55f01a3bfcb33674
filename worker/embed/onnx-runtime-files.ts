import type { Backend } from '../../src/types'

/**
 * Where ONNX Runtime loads its wasm from. transformers.js imports ONNX Runtime's WebGPU build, whose asyncify wasm
 * (27 MB) also runs the CPU backend; when only WASM will be tried, the plain build (14 MB, same kernels: bit-identical
 * scores in Chromium) does the same work with less to load and compile — cold start at 100K sentences 1.41–1.60 s →
 * about 1.0 s in `bench:perf --sizes 100000 --sizes-only`, the model no longer competing as long with the store read.
 */
export function onnxRuntimeFiles(prefix: string, backends: readonly Backend[]): string | { mjs: string; wasm: string } {
  if (backends.length !== 1 || backends[0] !== 'wasm') return prefix
  return { mjs: `${prefix}ort-wasm-simd-threaded.mjs`, wasm: `${prefix}ort-wasm-simd-threaded.wasm` }
}
