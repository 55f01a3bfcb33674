import type { Backend } from '../../src/types'

/**
 * Where ONNX Runtime loads its wasm from. transformers.js imports ONNX Runtime's WebGPU build, whose asyncify wasm
 * also runs the CPU backend; when only WASM will be tried, the plain build (about half the size, same kernels and
 * bit-identical scores) does the same work with less to load and compile, so the model competes less with the store
 * read at open (cold start: BENCHMARKS.md).
 */
export function onnxRuntimeFiles(prefix: string, backends: readonly Backend[]): string | { mjs: string; wasm: string } {
  if (backends.length !== 1 || backends[0] !== 'wasm') return prefix
  return { mjs: `${prefix}ort-wasm-simd-threaded.mjs`, wasm: `${prefix}ort-wasm-simd-threaded.wasm` }
}
