// What `createMemory` takes (`MemoryOptions`, with the embedding and the key it names) and the progress it reports;
// src/types.ts re-exports it with the memory's other public types.
import type { BackgroundFailure } from './stats-types'

/** Which backend `createMemory` asks for (`MemoryOptions.device`); `stats().backend` says which it got. */
export type Device = 'auto' | 'webgpu' | 'wasm'
/** The backend actually in use: `cpu` is onnxruntime-node. */
export type Backend = 'webgpu' | 'wasm' | 'cpu'

/** How a feature-extraction model's output becomes one vector per text. */
export interface EmbeddingOptions {
  /**
   * How the model's token vectors become one vector per text: `none` when the model already outputs one pooled vector
   * per text (the shipped model); `mean` for most sentence-transformers; `cls` for BGE-style models. Any other value
   * is refused with `INVALID_INPUT`. Changing it re-embeds the stored history.
   *
   * @defaultValue by the model's name: `'none'` for `use-lite`, `'cls'` for a name containing `bge`, else `'mean'`
   */
  pooling?: 'none' | 'mean' | 'cls'
  /**
   * L2-normalise vectors (cosine = dot product). Changing it re-embeds the stored history.
   *
   * @defaultValue `true`
   */
  normalize?: boolean
  /**
   * Prepended to requests, e.g. `'query: '` for E5 or BGE's instruction.
   *
   * @defaultValue by the model's name: `'query: '` for a name containing `e5`, BGE's retrieval instruction
   * (`'Represent this sentence for searching relevant passages: '`) for one containing `bge`, else `''`
   */
  queryPrefix?: string
  /**
   * Prepended to stored sentences, e.g. `'passage: '` for E5. Changing it re-embeds the stored history.
   *
   * @defaultValue `'passage: '` for a model whose name contains `e5`, else `''`
   */
  documentPrefix?: string
  /**
   * ONNX weights to load: `fp32` (`onnx/model.onnx`) or `q8` (`onnx/model_quantized.onnx`), or the other weights
   * transformers.js names (`fp16`, `int8`, `uint8`, `q4`); any other value is refused with `INVALID_INPUT`. Changing
   * it re-embeds the stored history.
   *
   * @defaultValue `'q8'` for the shipped model (the only weights its package ships), else `'fp32'`
   */
  dtype?: 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4'
  /**
   * The languages the model was trained on (ISO 639-1 codes, e.g. `['en']`), or `'all'` for a multilingual model:
   * `hybrid` lets the dense ranking reorder word matches only for a request in one of them
   * (`ContextStats.denseTrust`).
   *
   * @defaultValue `['en']` for the shipped model, `'all'` for any other
   */
  languages?: readonly string[] | 'all'
}

/** Progress of the embedding backlog, for progress bars. */
export interface IndexProgress {
  /** Sentences embedded so far in this drain. */
  done: number
  /** Sentences in this drain (done + still pending). */
  total: number
  /** Sentences still waiting for a vector. */
  pending: number
  /** The backend the model runs on. */
  backend: Backend
  /**
   * Set only on the event sent when a background task fails, the same record `MemoryStats.lastFailure` then
   * holds; the counts are the drain's at that moment (`done` 0 for a failure outside a drain).
   */
  failure?: BackgroundFailure
}

/** What `createMemory` opens, and how: every option is optional, and a memory opened with none works. */
export interface MemoryOptions {
  /**
   * IndexedDB database name: two memories with different names are fully separate, and memories of one name share
   * one engine across the origin's tabs. A non-empty string.
   *
   * @defaultValue `'sift'`
   */
  name?: string
  /**
   * transformers.js feature-extraction model: a folder name under `localModelPath` (`'use-lite'`, the shipped
   * Universal Sentence Encoder Lite), or a Hub id such as `'Xenova/all-MiniLM-L6-v2'` served from
   * `localModelPath/<id>/` on the app's own origin (or fetched remotely only if `allowRemoteModels`). A non-empty
   * string; changing it re-embeds the stored history.
   *
   * @defaultValue `'use-lite'`
   */
  model?: string
  /**
   * Pooling, normalisation and prefixes for `model`; known models get the right defaults, and a field given here
   * replaces only that default.
   *
   * @defaultValue the defaults for `model`'s name (`EmbeddingOptions`)
   */
  embedding?: EmbeddingOptions
  /**
   * `'auto'`: WebGPU on a hardware adapter (falling back to WASM if it fails to load), WASM otherwise, including on
   * a software adapter such as Chromium's SwiftShader, which runs this model far slower than WASM (BENCHMARKS.md;
   * `stats().backendReason` says which and why). `'webgpu'` uses WebGPU on whatever adapter there is; `'wasm'` never
   * tries WebGPU. Any other value is refused with `INVALID_INPUT`. Ignored in Node (onnxruntime-node CPU).
   *
   * @defaultValue `'auto'`
   */
  device?: Device
  /**
   * Where model folders live: in the browser a URL, or a path on the page's origin (`'/models/'`); in Node a folder.
   *
   * @defaultValue `'/models/'` on the page's origin in the browser; the package's `public/models/` in Node
   */
  localModelPath?: string
  /**
   * Where ONNX Runtime's `.wasm` files are served from (browser only): a URL, or a path on the page's origin.
   *
   * @defaultValue `'/ort/'` on the page's origin
   */
  wasmPaths?: string
  /**
   * Let transformers.js download a model from the Hugging Face Hub when it is not found under `localModelPath`.
   *
   * @defaultValue `false`: nothing leaves the origin
   */
  allowRemoteModels?: boolean
  /**
   * Called as the embedding backlog drains, and when a background task fails (`IndexProgress.failure`).
   *
   * @defaultValue none
   */
  onProgress?: (progress: IndexProgress) => void
  /**
   * Longest `content` one message may have, in characters (a summary's text too); `add` refuses a longer one with
   * `INVALID_INPUT` naming this option, and stores nothing of its batch. A message is split, stored in one transaction
   * and indexed in one pass while every other call waits, at a cost that grows faster than its length, and its
   * sentences are one embedding backlog. Split longer texts into several messages, or raise the limit for an app that
   * accepts that wait.
   *
   * Range: an integer ≥ 1, or `Infinity` for no limit; anything else is refused with `INVALID_INPUT`.
   *
   * @defaultValue `100_000` (a long pasted document)
   */
  maxMessageChars?: number
  /**
   * Longest `buildContext` request, in characters, counting its extra `queries` too, and longest `findForgettable`
   * text; a longer one is refused with `INVALID_INPUT` naming this option. A request is embedded and searched while
   * the engine answers nothing else.
   *
   * Range: an integer ≥ 1, or `Infinity` for no limit; anything else is refused with `INVALID_INPUT`.
   *
   * @defaultValue `100_000`: a pasted document as the next message still fits
   */
  maxRequestChars?: number
  /**
   * What `buildContext` (and `findForgettable`) do with `hybrid` or `dense` while the model has not loaded, or when it
   * cannot embed the request (its files missing or corrupt, its worker gone). False: the request is ranked
   * lexically at once instead of waiting for the model's download and load, and `stats.ranking` and `stats.degraded`
   * say so and why, so a chat never waits for the model nor loses its context to it (`memory.ready()` says when it
   * is there). True: the call waits for the model to load, and rejects with `MODEL_UNAVAILABLE` when it cannot embed,
   * for apps that would rather wait or show the failure than send a context ranked another way.
   *
   * @defaultValue `false`
   */
  strictRanking?: boolean
  /**
   * Browser only: what `createMemory` does when the server answers that a file the model needs is not there (an error
   * status, or an HTML page in its place) under `wasmPaths` (ONNX Runtime) or `localModelPath` (the model's folder),
   * checked with HEAD requests while the store is read, before any of the model is downloaded. True: it
   * rejects with `MODEL_UNAVAILABLE` naming the option and the URL, so a deployment without them fails where the app
   * starts rather than in a context ranked without the model. False: the memory opens, stores messages and ranks
   * contexts lexically, the same error is in `stats().lastFailure`, and the model is looked for again as the
   * embedding backlog is retried. A check that gets no clear answer (the network down, a server error) never rejects,
   * and a memory that re-opens itself (a new worker, another tab taking over) does not check again.
   *
   * @defaultValue `true`
   */
  requireModelFiles?: boolean
  /**
   * Browser only: ask for persistent storage (`navigator.storage.persist()`) when the memory is created. Without it
   * the browser may evict the origin's storage, history included, when the disk runs low; with it, only the user can
   * clear it. The browser decides (it may grant it to an installed or often-used site, or ask the user);
   * `stats().storage.persisted` says what it decided. A refusal is not an error, nor is a browser
   * without the API (WebKitGTK by default); an answer that does not come (a prompt left unanswered) holds
   * `createMemory` up at most 3 s after the memory opens, and the request stays pending.
   *
   * @defaultValue `false`
   */
  persist?: boolean
  /**
   * Encrypt the memory at rest (AES-GCM, a fresh nonce per record) with a key derived from this passphrase
   * (PBKDF2-SHA-256, 600,000 iterations, a random salt stored beside it): message text, sentence spans, vectors and
   * saved indexes are sealed; ids, conversation ids, timestamps and counts stay in clear (docs/privacy.md,
   * "Encryption at rest"). Opening the memory again needs the same passphrase: another one, or none, fails with
   * `WRONG_KEY` before anything is read. Given for a memory stored without encryption, it encrypts that memory in one
   * go. The derivation costs each open a fraction of a second on purpose (it costs someone guessing passphrases as
   * much per guess), and every read and write of the memory costs more (BENCHMARKS.md). A non-empty string; giving
   * `key` too is refused with `INVALID_INPUT`.
   *
   * @defaultValue none: the memory is stored in clear
   */
  passphrase?: string
  /**
   * Encrypt the memory at rest with this key instead of a passphrase: a 256-bit AES-GCM `CryptoKey` with the usages
   * `['encrypt', 'decrypt']`, which may be non-extractable (Sift only encrypts and decrypts with it); another key is
   * refused with `INVALID_INPUT`. For apps that keep their own key (in IndexedDB as a `CryptoKey`, from a server, from
   * WebAuthn); the same key must be passed on every open. Otherwise as `passphrase`.
   *
   * @defaultValue none: the memory is stored in clear
   */
  key?: CryptoKey
  /**
   * Sync this memory between the user's devices through a server that speaks CouchDB's replication protocol (CouchDB
   * in production; docs/sync.md). Each message travels as one document sealed with a key derived from `passphrase`
   * and the database's name, under an id that is an HMAC of the message's id: the server stores no text, role,
   * conversation, id or vector, and learns only how many records there are, their sizes to the next 256 bytes and
   * when devices wrote them. Every device of the memory opens it with the same `passphrase`; a device with another
   * one is refused with `WRONG_KEY` and sends nothing. A forget on any device reaches every device and the server's
   * copy. Needs `passphrase` (not `key`); refused with `INVALID_INPUT` without it.
   *
   * @defaultValue none: nothing leaves the device
   */
  sync?: SyncOptions
}

/** Where a memory syncs (`MemoryOptions.sync`). */
export interface SyncOptions {
  /**
   * The URL of the user's database on the server, `http:` or `https:` (e.g. `https://couch.example.com/userdb-6a6f65`,
   * one database per user); credentials may be in it (`https://user:password@…`) or in a cookie the server set. Its
   * last path segment is the database's name, which salts the sync key: every device must use the same name.
   */
  url: string
}

/** A new key for an encrypted memory (`memory.changeKey`): a passphrase, or an AES-GCM `CryptoKey`, as in `MemoryOptions`. */
export type KeyChange =
  | {
      /** The new passphrase: a non-empty string (`MemoryOptions.passphrase`). */
      passphrase: string
    }
  | {
      /** The new key: a 256-bit AES-GCM `CryptoKey` allowed to encrypt and decrypt (`MemoryOptions.key`). */
      key: CryptoKey
    }
