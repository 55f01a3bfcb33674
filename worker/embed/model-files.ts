import type { ModelOptions } from './model-runner'
import { onnxRuntimeFiles } from './onnx-runtime-files'

/** A file the model needs from the app's server, and the option that says where it is served. */
export interface ModelFile {
  url: string
  /** The `MemoryOptions` field whose folder should hold the file. */
  option: 'wasmPaths' | 'localModelPath'
}

/**
 * transformers.js's file name suffix for each weight type (`onnx/model${suffix}.onnx`), as its
 * `DEFAULT_DTYPE_SUFFIX_MAPPING` has it for the types `EmbeddingOptions.dtype` accepts.
 */
const WEIGHTS_SUFFIX: Record<ModelOptions['embedding']['dtype'], string> = {
  fp32: '',
  fp16: '_fp16',
  int8: '_int8',
  uint8: '_uint8',
  q8: '_quantized',
  q4: '_q4',
}

/**
 * The files loading `options`' model fetches, ONNX Runtime's first (a missing runtime should stop the load before
 * the model's weights, the largest download, start). The model's own files are left out when it may come from the
 * Hugging Face Hub instead (`allowRemoteModels`). `base` resolves relative paths, as the model's worker's `fetch`
 * would: both workers' scripts are served from one folder.
 */
export function modelFiles(options: ModelOptions, base: string): ModelFile[] {
  const files: ModelFile[] = []
  if (options.wasmPaths !== undefined) {
    const { mjs, wasm } = onnxRuntimeFiles(options.wasmPaths, options.backends)
    files.push(
      { url: new URL(mjs, base).href, option: 'wasmPaths' },
      { url: new URL(wasm, base).href, option: 'wasmPaths' },
    )
  }
  if (!options.allowRemoteModels) {
    const folder = new URL(`${options.model}/`, new URL(withTrailingSlash(options.localModelPath), base))
    for (const path of [
      'config.json',
      'tokenizer.json',
      'tokenizer_config.json',
      `onnx/model${WEIGHTS_SUFFIX[options.embedding.dtype]}.onnx`,
    ]) {
      files.push({ url: new URL(path, folder).href, option: 'localModelPath' })
    }
  }
  return files
}

/** transformers.js joins `localModelPath` and the model id with a slash whether or not the path ends with one. */
export function withTrailingSlash(path: string): string {
  return path.endsWith('/') ? path : `${path}/`
}
