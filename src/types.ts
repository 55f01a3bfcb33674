import type { SiftErrorCode } from './errors'

/** Who said a message. Any string is accepted; `user`/`assistant`/`system` are the usual ones. */
export type Role = 'user' | 'assistant' | 'system' | (string & {})

/** A chat turn as the app hands it to `memory.add`. */
export interface MessageInput {
  role: Role
  /** The text of the turn. Must be a string; an empty string is stored but yields no sentences. */
  content: string
  /** Groups messages into one thread; default `'default'`. `buildContext` can be scoped to one. */
  conversationId?: string
  /** Stable id chosen by the app (e.g. its own message id). Default: a generated UUID. Adding an id twice is an error. */
  id?: string
  /**
   * When the turn happened: epoch milliseconds, an ISO string or a Date. Default: the time of `add`. Contexts are in
   * timestamp order (ties: the order of `add`), so a history imported out of order still reads in time order, and the
   * date is rendered so a reader can tell old from new.
   */
  timestamp?: number | string | Date
}

/** A stored message. `seq` is its position in the global history (insertion order, starting at 1). */
export interface StoredMessage {
  id: string
  seq: number
  role: Role
  content: string
  conversationId: string
  /** Epoch milliseconds. */
  timestamp: number
}

/** A sentence (or a ≤ 250-character chunk of a long one) of a stored message. */
export interface Sentence {
  /** Global, monotonically increasing sentence id. */
  sid: number
  messageId: string
  conversationId: string
  /** The message's `seq`. */
  seq: number
  /** Position of this sentence within its message (0-based). */
  index: number
  role: Role
  timestamp: number
  text: string
  /** Character offsets of `text` in the message content: `content.slice(start, end)` contains `text` (trimmed). */
  start: number
  end: number
}

export type Device = 'auto' | 'webgpu' | 'wasm'
/** The backend actually in use: `cpu` is onnxruntime-node. */
export type Backend = 'webgpu' | 'wasm' | 'cpu'

/** How a context is selected. `hybrid` (the default) fuses `dense` and `lexical` with reciprocal rank fusion; `head`, `tail` and `full` are reference baselines. */
export type Strategy = 'hybrid' | 'dense' | 'lexical' | 'head' | 'tail' | 'full'

/** How a feature-extraction model's output becomes one vector per text. */
export interface EmbeddingOptions {
  /** `none` when the model already outputs one pooled vector per text (the shipped model); `mean` for most sentence-transformers; `cls` for BGE-style models. */
  pooling?: 'none' | 'mean' | 'cls'
  /** L2-normalise vectors (cosine = dot product). Default true. */
  normalize?: boolean
  /** Prepended to requests, e.g. `'query: '` for E5 or BGE's instruction. */
  queryPrefix?: string
  /** Prepended to stored sentences, e.g. `'passage: '` for E5. */
  documentPrefix?: string
  /** ONNX weights to load: `fp32` (`onnx/model.onnx`) or `q8` (`onnx/model_quantized.onnx`). Default: the model's own default (`fp32` for the shipped model). */
  dtype?: 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4'
}

/** Progress of the embedding backlog, for progress bars. */
export interface IndexProgress {
  /** Sentences embedded so far in this drain. */
  done: number
  /** Sentences in this drain (done + still pending). */
  total: number
  /** Sentences still waiting for a vector. */
  pending: number
  backend: Backend
  /**
   * Set only on the event sent when a background task fails, the same record `MemoryStats.lastFailure` then
   * holds; the counts are the drain's at that moment (`done` 0 for a failure outside a drain).
   */
  failure?: BackgroundFailure
}

export interface MemoryOptions {
  /** IndexedDB database name. Default `'sift'`. Two memories with different names are fully separate. */
  name?: string
  /**
   * transformers.js feature-extraction model: a folder name under `localModelPath` (default `'use-lite'`, the
   * shipped Universal Sentence Encoder Lite), or a Hub id such as `'Xenova/all-MiniLM-L6-v2'` served from
   * `localModelPath/<id>/` on the app's own origin (or fetched remotely only if `allowRemoteModels`).
   */
  model?: string
  /** Pooling, normalisation and prefixes for `model`; known models get the right defaults. */
  embedding?: EmbeddingOptions
  /**
   * `'auto'`: WebGPU on a hardware adapter (falling back to WASM if it fails to load), WASM otherwise, including on
   * a software adapter such as Chromium's SwiftShader, which runs this model far slower than WASM (BENCHMARKS.md;
   * `stats().backendReason` says which and why). `'webgpu'` uses WebGPU on whatever adapter there is.
   * Ignored in Node (onnxruntime-node CPU).
   */
  device?: Device
  /** Where model folders live. Browser default: `'/models/'` on the page's origin. Node default: the package's `public/models/`. */
  localModelPath?: string
  /** Where ONNX Runtime's `.wasm` files are served from (browser only). Default `'/ort/'` on the page's origin. */
  wasmPaths?: string
  /** Let transformers.js download a model from the Hugging Face Hub when it is not found locally. Default false: nothing leaves the origin. */
  allowRemoteModels?: boolean
  /** Called as the embedding backlog drains. */
  onProgress?: (progress: IndexProgress) => void
  /**
   * Longest `content` one message may have, in characters; `add` refuses a longer one with `INVALID_INPUT` naming
   * this option, and stores nothing of its batch. Default 100,000 (a long pasted document): a message is split, stored
   * in one transaction and indexed in one pass while every other call waits, at a cost that grows faster than its
   * length, and its sentences are one embedding backlog. Split longer texts into several messages, or raise the limit
   * (`Infinity`: none) for an app that accepts that wait.
   */
  maxMessageChars?: number
  /**
   * Longest `buildContext` request, in characters, counting its extra `queries` too; a longer one is refused with
   * `INVALID_INPUT` naming this option. Default 100,000: a request is embedded and searched while the engine answers
   * nothing else, and a pasted document as the next message still fits.
   */
  maxRequestChars?: number
  /**
   * What `buildContext` does with `hybrid` or `dense` when the model cannot embed the request (its files missing or
   * corrupt, its worker gone). Default false: the context is ranked lexically instead, and `stats.ranking` and
   * `stats.degraded` say so and why, so a chat never loses its context to the model. True: the call rejects with
   * `MODEL_UNAVAILABLE`, for apps that would rather show the failure than send a context ranked another way.
   */
  strictRanking?: boolean
  /**
   * Browser only: ask for persistent storage (`navigator.storage.persist()`) when the memory is created. Without it
   * the browser may evict the origin's storage, history included, when the disk runs low; with it, only the user can
   * clear it. The browser decides (it may grant it to an installed or often-used site, or ask the user);
   * `stats().storage.persisted` says what it decided. Default false. A refusal is not an error.
   */
  persist?: boolean
}

export interface BuildContextOptions {
  /** Character budget for `ctx.text` (labels and gap markers included). Default 8000. Never exceeded, except by `strategy: 'full'`. */
  budget?: number
  /** Default `'hybrid'`. */
  strategy?: Strategy
  /**
   * Only use this conversation's history. Default: all conversations. A conversation with nothing stored (a new chat's
   * first request) is not an error: the context is empty and `stats.historySentences` is 0.
   */
  conversationId?: string
  /**
   * Include the last N turns (messages) of the scope verbatim, inside the same budget: the latest by `timestamp` (ties:
   * the later added). All of them when N exceeds the scope's turns. Default 0.
   */
  recentTurns?: number
  /** Extra queries; candidates from each query are taken round-robin so no single query monopolises the budget. */
  queries?: string[]
  /**
   * Stop before the budget is full when relevance falls off a cliff: the next few ranked sentences score below
   * half the mean of the best few (`stats.stoppedBy` is then `'cliff'`). Default false. Saves characters (and the
   * model's attention) when only a few sentences are relevant, at the cost of recall when the answer sits below
   * the cliff (weakly worded evidence, or questions whose words match only chit-chat); on LoCoMo it halves the
   * characters hybrid uses at 8,000 for a few points of recall, and lexical stops far too early (BENCHMARKS.md).
   * Ignored by head, tail and full.
   */
  adaptiveStop?: boolean
  /**
   * Follow each retrieved sentence with the newest later sentence by the same speaker on the same subject (half its
   * content words shared, something new said; `reason: 'update'`), so a superseded value ("I moved to Porto") comes
   * with what replaced it ("we moved to Lisbon"). Default false: the same-subject test is lexical and loose, and on
   * LoCoMo (few updates) the extra sentences cost recall (BENCHMARKS.md, opt-in options); turn it on
   * when histories revise facts often. Ignored by head, tail and full.
   */
  followUpdates?: boolean
}

/** One selected sentence, in chronological order within `Context.items`. */
export interface ContextItem {
  messageId: string
  conversationId: string
  seq: number
  role: Role
  text: string
  /** Relevance score used for ranking (strategy-dependent; 0 for head/tail/full/recent). */
  score: number
  /** Offsets of `text` in the message's content. */
  start: number
  end: number
  timestamp: number
  /**
   * Why this sentence is in the context: retrieved for relevance, one of the `recentTurns`, a head/tail/full pick,
   * the neighbour of a retrieved one (the answer to a retrieved question), or a later statement by the same speaker
   * on the same subject as a retrieved one (`'update'`: "we moved to Lisbon" after "I moved to Porto").
   */
  reason: 'relevant' | 'recent' | 'neighbour' | 'position' | 'update'
}

/** Why packing stopped: the budget reached ≥ 90% fill, candidates ran out (history thinner than the budget, or nothing relevant left), or relevance fell off a cliff. */
export type StopReason = 'budget' | 'exhausted' | 'cliff'

export interface ContextStats {
  budget: number
  /** `text.length`. */
  used: number
  /** used / budget. */
  fill: number
  /** Characters of all message contents in scope. */
  historyChars: number
  /** Sentences in scope. */
  historySentences: number
  strategy: Strategy
  /** The ranking that chose the sentences: `strategy`, or `'lexical'` when `hybrid`/`dense` could not embed the request (`degraded` says why). */
  ranking: Strategy
  /** Set only when `ranking` differs from `strategy`: why the model could not embed the request (the `MODEL_UNAVAILABLE` message). */
  degraded?: string
  backend: Backend
  stoppedBy: StopReason
  /** Ranked candidates looked at while packing. */
  candidatesConsidered: number
  /** Sentences not yet embedded when the context was built (dense/hybrid missed them). */
  pending: number
  /** Wall-clock milliseconds spent in buildContext, and the part spent embedding the request. */
  ms: number
  queryMs: number
}

export interface Context {
  /** Rendered context: chronological, role-labelled, gaps marked with `[…]`. */
  text: string
  items: ContextItem[]
  stats: ContextStats
}

export type ForgetSelector = { id: string } | { conversationId: string } | { before: number | string | Date }

export interface MemoryStats {
  messages: number
  sentences: number
  /** Sentences waiting for a vector. */
  pending: number
  backend: Backend
  /**
   * Why `backend`: what `device` asked for and, for `'auto'`, what the WebGPU adapter is (a software adapter such as
   * SwiftShader gets WASM, which runs the model far faster on the CPU), plus any backend that failed to load first.
   */
  backendReason: string
  model: string
  /**
   * How `dense` ranking finds its candidates: `exact` scans every vector; `coarse-lists` (from 20,000 vectors, once
   * trained in the background) scans only the `lists` nearest the request until it holds `probeShare` of the vectors,
   * a share calibrated on the data (sample rows as queries) for recall ≥ 0.99 of the exact top 50, when the lists were
   * trained on `trainedRows` vectors (they are trained again once the vectors double).
   */
  denseIndex: { kind: 'exact' } | { kind: 'coarse-lists'; lists: number; probeShare: number; trainedRows: number }
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
}

/** The origin's storage as the browser reports it (`MemoryStats.storage`). */
export interface StorageState {
  /** Bytes the origin uses (every store of the origin, not only this memory), as `navigator.storage.estimate()` says. */
  usage: number
  /** Bytes the origin may use; past it writes fail with `QUOTA_EXCEEDED`. */
  quota: number
  /** Whether the browser keeps the origin's storage under storage pressure (`navigator.storage.persisted()`) rather than evicting it. */
  persisted: boolean
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
}

/** A failure of the engine's background work (`MemoryStats.lastFailure`, `IndexProgress.failure`). */
export interface BackgroundFailure {
  /**
   * What failed: `embed` the model on the backlog, `store-vectors` writing the backlog's vectors,
   * `load-residuals` reading the residuals after open, `train-coarse-lists` training the coarse lists (and their
   * first save), `save-lexical-snapshot` / `save-coarse-lists` rewriting a saved copy of an index.
   */
  task: 'embed' | 'store-vectors' | 'load-residuals' | 'train-coarse-lists' | 'save-lexical-snapshot' | 'save-coarse-lists'
  /** The `SiftError` code: `MODEL_UNAVAILABLE` for the model, `STORAGE_FAILED` or `QUOTA_EXCEEDED` for the database, `INTERNAL` for anything unexpected. */
  code: SiftErrorCode
  /** What failed and what to do, as `SiftError.message` says it. */
  message: string
  /** When it failed, in epoch milliseconds. */
  at: number
}

export interface Memory {
  /** Store one or more messages. Resolves with their ids once they are durable; embedding follows in the background. */
  add(message: MessageInput | MessageInput[]): Promise<string[]>
  /** Resolves when every stored sentence is embedded and indexed. */
  indexed(): Promise<void>
  buildContext(request: string, options?: BuildContextOptions): Promise<Context>
  /** Remove messages and everything derived from them. Resolves with the number of messages removed. */
  forget(selector: ForgetSelector): Promise<number>
  stats(): Promise<MemoryStats>
  close(): Promise<void>
}
