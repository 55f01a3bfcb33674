import type { MirrorAdapter } from '../sync/sync-link'
import type { Backend, Device, StorageState, WasmThreads } from '../../src/types'
import type { EmbeddingCache } from '../embed/embedding-cache'
import type { StartModel } from '../embed/model-runner'
import type { IndexedDBSource } from '../store/store'

/** Which backends to try for a `device`, in order, and why (reported by `stats().backendReason`). */
export interface BackendChoice {
  backends: Backend[]
  reason: string
}

/**
 * What differs between the browser worker and Node: where IndexedDB, the model files and ONNX Runtime come from.
 * The engine itself never asks which environment it is in.
 */
export interface EngineHost {
  indexedDB: IndexedDBSource
  /** Default folder of model folders when `MemoryOptions.localModelPath` is not given. */
  localModelPath: string
  /** Absolute URL prefix of ONNX Runtime's `.wasm` files (browser only). */
  wasmPaths?: string
  /** Threads for ONNX Runtime's WASM backend, and why (browser only); more than one needs cross-origin isolation. */
  wasmThreads?: WasmThreads
  /** Backends to try for `device`, in order; the first that loads and runs is used. */
  backends(device: Device): Promise<BackendChoice>
  openEmbeddingCache?(fingerprint: string): Promise<EmbeddingCache>
  /** Where the embedding model runs: the engine's own thread (Node) or a worker of its own (the browser). */
  startModel: StartModel
  /** A file below `localModelPath` (`path` relative to it; an absolute path or URL as it is), e.g. the word-neighbour table or a token budget's tokenizer.json; rejects when it cannot be read. */
  readModelFile(localModelPath: string, path: string): Promise<ArrayBuffer>
  /** The origin's storage usage, quota and persistence, where the host has them (the browser). */
  storage?(): Promise<StorageState>
  /** The PouchDB adapter that keeps a synced memory's mirror (`MemoryOptions.sync`), loaded only when sync is on. */
  syncMirrorAdapter(): Promise<MirrorAdapter>
}
