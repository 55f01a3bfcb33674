// The public types of `stats()`: the memory's counts, its indexes' state, its storage and its failures.
import type { SiftErrorCode } from './errors'
import type { Backend } from './types'

/** What `Memory.stats()` tells of a memory. */
export interface MemoryStats {
  /** Messages stored. */
  messages: number
  /** Sentences of the stored messages. */
  sentences: number
  /** Sentences waiting for a vector. */
  pending: number
  /** The backend the model runs on (or will, while it loads). */
  backend: Backend
  /**
   * Why `backend`: what `device` asked for and, for `'auto'`, what the WebGPU adapter is (a software adapter such as
   * SwiftShader gets WASM, which runs the model far faster on the CPU), plus any backend that failed to load first.
   */
  backendReason: string
  /** The embedding model, as `MemoryOptions.model` named it. */
  model: string
  /**
   * The table of close English words (`word-neighbours/en-20k.bin` under `localModelPath`, shipped with the package)
   * that `hybrid` takes stand-ins from for a request's words the history never uses: read when the memory opens.
   * Without it contexts are still built, ranked without stand-ins; `'unavailable'` says why it is missing.
   */
  wordNeighbours: WordNeighboursState
  /**
   * Where the embedding model is: `'loading'` (its files downloading, or the model starting; `hybrid` and `dense`
   * contexts are ranked lexically meanwhile, unless `strictRanking`), `'ready'` (loaded: `memory.ready()` has
   * resolved), or `'unavailable'` (its latest load failed; `memory.ready()` rejects with why, and the next embedding
   * tries again).
   */
  modelState: 'loading' | 'ready' | 'unavailable'
  /**
   * How `dense` ranking finds its candidates: `exact` scans every vector; `coarse-lists` (from 20,000 vectors, once
   * trained in the background) scans only the `lists` nearest the request until it holds `probeShare` of the vectors,
   * a share calibrated on the data (sample rows as queries) for recall ≥ 0.99 of the exact top 50, when the lists were
   * trained on `trainedRows` vectors (they are trained again once the vectors double).
   */
  denseIndex:
    | {
        /** Every vector is scanned. */
        kind: 'exact'
      }
    | {
        /** The coarse lists nearest the request are scanned. */
        kind: 'coarse-lists'
        /** How many lists (centroids) the vectors are filed under. */
        lists: number
        /** The share of the vectors a request scans, below 1. */
        probeShare: number
        /** How many vectors the lists were trained on. */
        trainedRows: number
      }
  /**
   * The latest failure of the work the engine does in the background since this memory was opened, absent while
   * none has failed. It is recorded (and sent to `onProgress`) when it happens, because nothing else would show
   * it: a call that started the work has long returned. The work is retried (the backlog by the next `add` or
   * `indexed()`, a save at the next quiet moment or at `close()`, coarse-list training when vectors are next added
   * or at `indexed()`; the residuals are not, rows then rank by their int8 codes), and a later success does not
   * clear the record: `at` says when, `pending` whether the backlog is still waiting.
   */
  lastFailure?: BackgroundFailure
  /** What open found in the database not as Sift writes it, and worked around; absent when everything read back as written. */
  repairedAtOpen?: OpenRepairs
  /** The origin's storage (`navigator.storage`), in the browser; absent in Node. */
  storage?: StorageState
  /**
   * The threads ONNX Runtime's WASM backend runs the model on, and why (browser only; absent in Node). More than one
   * needs a cross-origin isolated page (COOP/COEP) with `SharedArrayBuffer`; without either the model runs on one
   * thread (WebKitGTK has no `SharedArrayBuffer` by default, even when isolated).
   */
  wasmThreads?: WasmThreads
}

/** The word-neighbour table's load (`MemoryStats.wordNeighbours`). */
export type WordNeighboursState =
  | {
      /** Being read: a `hybrid` context waits for it, for 10 seconds at the most. */
      state: 'loading'
    }
  | {
      /** Read: `hybrid` contexts take stand-ins from it. */
      state: 'ready'
    }
  | {
      /** Not read: `hybrid` contexts are ranked without stand-ins, until the memory is opened again or cleared. */
      state: 'unavailable'
      /** Which file, and why it was not read (not found, not a word-neighbour table, or not read within 10 seconds). */
      reason: string
    }

/** The origin's storage as the browser reports it (`MemoryStats.storage`). */
export interface StorageState {
  /**
   * Bytes the origin uses, as `navigator.storage.estimate()` says: every store of the origin, not only this memory.
   * That includes the copy of the model's files transformers.js keeps in Cache Storage (about the model's size, so a
   * memory that is still empty already counts it) and any other database, cache or file of the app's; `indexedDB` and
   * `caches` split it where the browser tells. Absent where the browser does not say (no `navigator.storage.estimate`,
   * as in WebKitGTK by default).
   */
  usage?: number
  /** Of `usage`, the bytes in IndexedDB: this memory's database, and the origin's other databases (Chromium only). */
  indexedDB?: number
  /** Of `usage`, the bytes in Cache Storage: transformers.js's copy of the model's files, and the app's own caches (Chromium only). */
  caches?: number
  /** Bytes the origin may use; past it writes fail with `QUOTA_EXCEEDED`. Absent where the browser does not say. */
  quota?: number
  /**
   * Whether the browser keeps the origin's storage under storage pressure (`navigator.storage.persisted()`) rather than
   * evicting it; `'unknown'` where the browser does not say (no `navigator.storage`, as in WebKitGTK by default, or no
   * answer within a bounded wait): treat it as not persistent, and keep an export.
   */
  persisted: boolean | 'unknown'
  /**
   * Browser only: whether the database this device held under the memory's name was gone when this memory opened
   * (`true`: the browser evicted it, or something outside Sift deleted it, and the memory opened empty), or was there
   * (`false`). Absent where the page cannot tell: the memory's first open on this device, no `localStorage` or no
   * `indexedDB.databases()`, and an eviction that took `localStorage` with it (Safari's deletion after seven days
   * without a visit, the user clearing the site's data). A mark in `localStorage` (src/storage-loss.ts) is how it knows.
   */
  evicted?: boolean
}

/** The WASM backend's threads (`MemoryStats.wasmThreads`). */
export interface WasmThreads {
  /** How many threads: half the device's cores, 1 to 4, on a cross-origin isolated page with `SharedArrayBuffer`; else 1. */
  count: number
  /** Why `count`, e.g. `one thread: SharedArrayBuffer is not available`. */
  reason: string
}

/** Damage open worked around (`MemoryStats.repairedAtOpen`), so a damaged or shared database still opens. */
export interface OpenRepairs {
  /**
   * Ids of message records not in Sift's layout (a field missing or of the wrong type, sentence spans that do not fit
   * the content), left in the database untouched but in no index or context. `forget` by their id or conversation
   * deletes them.
   */
  skippedMessages: string[]
  /**
   * The state row (counters and the embedding watermark) was missing, malformed or behind the stored records and was
   * rebuilt from the messages; the stored vectors and saved indexes were dropped with it, and are rebuilt.
   */
  stateRebuilt: boolean
  /**
   * The stored vector records that did not read back (altered, damaged or torn: `"vector block 3"`), when any did.
   * Vectors are derived data, so every stored vector was dropped and the whole history is embedded again
   * (`indexed()`); the messages are untouched.
   */
  droppedVectors?: string[]
}

/** A failure of the engine's background work (`MemoryStats.lastFailure`, `IndexProgress.failure`). */
export interface BackgroundFailure {
  /**
   * What failed: `embed` the model on the backlog, `store-vectors` writing the backlog's vectors,
   * `load-residuals` reading the residuals after open, `train-coarse-lists` training the coarse lists (and their
   * first save), `save-lexical-snapshot` / `save-coarse-lists` rewriting a saved copy of an index.
   */
  task:
    | 'embed'
    | 'store-vectors'
    | 'load-residuals'
    | 'train-coarse-lists'
    | 'save-lexical-snapshot'
    | 'save-coarse-lists'
  /** The `SiftError` code: `MODEL_UNAVAILABLE` for the model, `STORAGE_FAILED` or `QUOTA_EXCEEDED` for the database, `INTERNAL` for anything unexpected. */
  code: SiftErrorCode
  /** What failed and what to do, as `SiftError.message` says it. */
  message: string
  /** When it failed, in epoch milliseconds. */
  at: number
}
