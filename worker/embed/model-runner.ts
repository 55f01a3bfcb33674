import type { Backend } from '../../src/types'
import type { ResolvedEmbedding } from './embedding-presets'

/** Everything needed to load one embedding model: plain data, so it can be posted to a worker of its own. */
export interface ModelOptions {
  model: string
  embedding: ResolvedEmbedding
  localModelPath: string
  allowRemoteModels: boolean
  /** Absolute URL prefix of ONNX Runtime's wasm files (browser only). */
  wasmPaths?: string
  /** Backends to try in order; the first that loads and runs wins. */
  backends: Backend[]
  /** ONNX Runtime WASM threads (browser only); unset leaves ONNX Runtime's default. */
  wasmThreads?: number
}

/** The backend a model loaded on, and the failures of the backends tried before it. */
export interface LoadedBackend {
  backend: Backend
  failures: string[]
}

/**
 * Runs the model itself: texts in, pooled vectors out (no prefixes, no cache). In-process (`TransformersModel`)
 * or in a worker of its own (`modelInWorker`), where loading and running it leave the engine's thread free.
 */
export interface ModelRunner {
  /**
   * Rejects with `MODEL_UNAVAILABLE` naming the option and the URL when the server answers that a file the model
   * needs is not there; cheap (no download). Absent where the files are not fetched over HTTP (Node).
   */
  checkFiles?(): Promise<void>
  /** Loads the model (once; a failed load may be retried) and proves it runs. */
  load(): Promise<LoadedBackend>
  /**
   * One row per text, `texts.length × dim`, in one model call, and the backend it ran on: not always the one
   * `load` reported, as a model whose WebGPU device was lost runs on WASM from then on.
   */
  run(texts: string[]): Promise<{ data: Float32Array; dim: number; ranOn: LoadedBackend }>
  /**
   * Per text, the share of its letters the model's tokenizer does not know (`unknownLetterShare`). Absent where the
   * runner cannot tell (a test's stand-in model): every text then counts as known.
   */
  unknownShares?(texts: string[]): Promise<number[]>
  dispose(): Promise<void>
  /**
   * Ends the runner at once, releasing nothing through it: for one whose model trapped, whose heap can no longer be
   * trusted to answer a `dispose` (`restartingOnTrap`). Absent where the model shares this thread.
   */
  discard?(): void
}

export type StartModel = (options: ModelOptions) => ModelRunner
