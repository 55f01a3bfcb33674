import type { Backend } from '../../src/types'

/** The two files ONNX Runtime loads: its Emscripten loader and the WebAssembly module. */
export interface OnnxRuntimeFiles {
  mjs: string
  wasm: string
}

/**
 * Where ONNX Runtime loads its wasm from, named file by file so that the files checked before the model is fetched
 * (model-files.ts) are exactly the ones it will load. transformers.js imports ONNX Runtime's WebGPU build, which loads
 * its asyncify pair (the WebGPU backend; it also runs the CPU backend); when only WASM will be tried, the plain build
 * (about half the size, same kernels and bit-identical scores) does the same work with less to load and compile, so
 * the model competes less with the store read at open (cold start: BENCHMARKS.md).
 */
export function onnxRuntimeFiles(prefix: string, backends: readonly Backend[]): OnnxRuntimeFiles {
  const build = backends.length === 1 && backends[0] === 'wasm' ? 'ort-wasm-simd-threaded' : 'ort-wasm-simd-threaded.asyncify'
  return { mjs: `${prefix}${build}.mjs`, wasm: `${prefix}${build}.wasm` }
}
