import type { Backend } from '../../src/types'

/** The two files ONNX Runtime loads: its Emscripten loader and the WebAssembly module. */
export interface OnnxRuntimeFiles {
  mjs: string
  wasm: string
}

/** onnxruntime-web's plain build: the WASM backend only. */
const WASM_BUILD = 'ort-wasm-simd-threaded'
/** onnxruntime-web's asyncify build: the one its WebGPU build loads, which runs the WASM backend as well. */
const WEBGPU_BUILD = 'ort-wasm-simd-threaded.asyncify'

/**
 * Every file name `onnxRuntimeFiles` can give, in onnxruntime-web's `dist/`: what an app serves at `wasmPaths`
 * (`sift-memory/vite` serves and emits them, `npm run setup` copies them into `public/ort/`) so that any device loads.
 */
export const ONNX_RUNTIME_FILE_NAMES: readonly string[] = [WASM_BUILD, WEBGPU_BUILD].flatMap((build) => [
  `${build}.mjs`,
  `${build}.wasm`,
])

/**
 * Where ONNX Runtime loads its wasm from, named file by file so that the files checked before the model is fetched
 * (model-files.ts) are exactly the ones it will load. transformers.js imports ONNX Runtime's WebGPU build, which loads
 * its asyncify pair (the WebGPU backend; it also runs the CPU backend); when only WASM will be tried, the plain build
 * (about half the size, same kernels and bit-identical scores) does the same work with less to load and compile, so
 * the model competes less with the store read at open (cold start: BENCHMARKS.md).
 */
export function onnxRuntimeFiles(prefix: string, backends: readonly Backend[]): OnnxRuntimeFiles {
  const build = backends.length === 1 && backends[0] === 'wasm' ? WASM_BUILD : WEBGPU_BUILD
  return { mjs: `${prefix}${build}.mjs`, wasm: `${prefix}${build}.wasm` }
}
