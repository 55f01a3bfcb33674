import type { Backend, MemoryStats } from '../../src/types'
import type { EmbedThroughput } from './embed-worker'
import type { PeerName, PeerSearchRuns } from './peer-worker'
import type { PeerBuild } from './peers/peer-index'
import type { SyntheticCacheCounts } from '../shared/synthetic-embedding-cache'
import type { UiBlocking } from './ui-heartbeat'

/** Raw measurements as the bench page returns them to the driver, which summarises them (medians, p95). */

export interface AutoBackendResult {
  /** The backend `device: 'auto'` ended up using, after its first embedding. */
  backend: Backend
  webgpuAdapter: boolean
}

export interface IngestResult {
  messages: number
  sentences: number
  /** From the first `add` until `indexed()` resolved. */
  ms: number
  /** Model load (first message + indexed), excluded from `ms`. */
  warmUpMs: number
  backend: Backend
  ui: UiBlocking
}

/** One `import()` of a whole history, given as an export's JSON text, into a new store. */
export interface ImportTiming {
  messages: number
  sentences: number
  /** Length of the export's JSON text. */
  chars: number
  /** From `import()` until it resolved: sent to the worker, parsed, checked and stored in one transaction. */
  storeMs: number
  /** Then `indexed()`: every sentence embedded (synthetic vectors via the cache) and indexed. */
  indexedMs: number
  /** Time the synthetic cache spent making vectors, the part of `indexedMs` that stands for the model. */
  generateMs: number
  ui: UiBlocking
  /** `performance.measureUserAgentSpecificMemory()` once indexed, the store still open, or why not. */
  memory: ColdStartResult['memory']
}

export interface LoadResult {
  /** The size asked for; `sentences` is what the store holds, fewer when the load stopped at its time limit. */
  size: number
  /** The load stopped at `--load-time-limit` before reaching `size`. */
  timeLimited: boolean
  /** Sentences stored after this load (the whole history so far). */
  sentences: number
  messages: number
  /** Sentences added by this load step, and how long `add` calls and then `indexed()` took. */
  added: number
  addMs: number
  indexedMs: number
  /** Opening the engine on the existing store before adding (0 for a new store). */
  openMs: number
  cache: SyntheticCacheCounts
  ui: UiBlocking
  /** How dense ranking finds candidates after this load (`MemoryStats.denseIndex`). */
  denseIndex: MemoryStats['denseIndex']
}

export interface ContextRun {
  /** `ctx.stats.ms` (inside the worker) and the round trip seen by the page. */
  ms: number
  roundTripMs: number
  queryMs: number
  candidates: number
  items: number
  used: number
}

export interface ContextResult {
  size: number
  strategy: 'hybrid' | 'dense'
  /** Query vectors from the synthetic cache (no model call). */
  synthetic: ContextRun[]
  /** Same requests embedded by the real model (WASM). */
  withQuery: ContextRun[]
  /** Per query: share of the exact top-50 among the 50 best-scored relevant items of the context. */
  recallAt50: number[]
  /** Per query: relevant items the context held (recall@50 counts only 50 of them). */
  relevantItems: number[]
}

/** buildContext at one size with one budget: a character budget, or a token budget and its tokenizer. */
export interface BudgetCostRun {
  budget: string
  /** `stats.ms − stats.queryMs` per request (hybrid, synthetic query vectors), and the fill of the budget's own unit. */
  ms: number[]
  fill: number[]
}

/** The same requests under a character budget and token budgets of about its size, taken in turn request by request. */
export interface BudgetCostResult {
  size: number
  runs: BudgetCostRun[]
}

export interface ColdStartRun {
  /** `createMemory()` until it resolved (store read, indexes rebuilt). */
  openMs: number
  /** Then the first `buildContext` (model load + query embedding + ranking). */
  firstContextMs: number
  totalMs: number
  /** The floor: the records open reads, read raw in the page in the same repeat (bench/perf/raw-read.ts); not taken in the encryption section. */
  rawReadMs?: number
}

export interface ColdStartResult {
  size: number
  runs: ColdStartRun[]
  /** `performance.measureUserAgentSpecificMemory()` after the last open: bytes per worker/page, or why not. */
  memory: { bytes: number; breakdown: { bytes: number; types: string[]; url: string }[] } | { unavailable: string }
}

export interface FootprintResult {
  size: number
  sentences: number
  /** UTF-8 bytes of all message contents: the text the app gave us. */
  textBytes: number
  /** `navigator.storage.estimate().usage` for the origin (IndexedDB + cached model files). */
  originUsage: number
}

export interface PeerResult {
  size: number
  peer: PeerName
  build: PeerBuild
  searches: PeerSearchRuns[]
}

export type { EmbedThroughput }

/** A store grown to `size` sentences with synthetic vectors through the bench worker (1,000 messages per `add`). */
export interface EncryptionLoad {
  /** `add` calls, then `indexed()`; the synthetic vectors' own making is `generateMs` of it. */
  addMs: number
  indexedMs: number
  generateMs: number
}

/** What encryption at rest costs, each figure measured on a plain store and on an encrypted one of the same history. */
export interface EncryptionCost {
  size: number
  load: { plain: EncryptionLoad; encrypted: EncryptionLoad }
  /** `createMemory()` on the store to the first context: plain, encrypted with a `CryptoKey`, with a passphrase (PBKDF2 included). */
  coldStart: { plain: ColdStartRun[]; key: ColdStartRun[]; passphrase: ColdStartRun[] }
  /** `changeKey` from the `CryptoKey` to a passphrase: every record of the store opened and sealed again. */
  changeKeyMs: number
  /** Real-model ingest, one `add` per message, runs alternating plain and encrypted (passphrase). */
  ingest: { plain: IngestResult[]; encrypted: IngestResult[] }
}
