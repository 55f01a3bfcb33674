/**
 * The tuning of the engine's background work: the backlog drain (`backlog-drain.ts`), the residual read after open
 * (`residual-load.ts`), the saves of stale copies (`stale-copy-saves.ts`) and the slices that training runs in
 * (`run-sliced.ts`). The figures behind them are in BENCHMARKS.md, "Figures behind constants in the code", under
 * "Embedding" and "Background work".
 */

/**
 * Sentences taken from the backlog per round (sentences), embedded in length-sorted batches (`Embedder`) and stored
 * in one transaction. A larger chunk pads less and writes less often, but its vectors become searchable later and a
 * request waits longer for the model (Embedding: the time a chunk of this size takes on WASM). No other value is
 * recorded; it replaced one model call of 32 sentences per round when batches became length-sorted.
 */
export const BACKLOG_CHUNK = 128

/**
 * A backlog smaller than `GATHER_BELOW` sentences (one model batch, the `Embedder`'s largest) waits `GATHER_MS`
 * (milliseconds) for more sentences first: while a batch runs, the worker cannot take new `add`s, so a chat adding
 * turns one by one would otherwise feed the model batches of one or two sentences, which cost far more per sentence
 * (Embedding: throughput by batch size; Background work: ingest without the wait and with it). Tried: no wait, 40.
 */
export const GATHER_MS = 40
export const GATHER_BELOW = 32

/**
 * Residuals (half the stored vector bytes) are read this long after open (milliseconds) unless a request or
 * `indexed()` comes first: read at open, they shared the thread with the first request (Background work: the first
 * context when they were read at open). Tried: at open, 1500.
 */
export const RESIDUAL_DELAY_MS = 1500

/**
 * Quiet time after the last write before a stale saved copy (lexical snapshot, coarse lists) is written again
 * (milliseconds), so a bulk import saves it once; the performance benchmark waits past it before timing requests.
 * No other value is recorded.
 */
export const SAVE_DELAY_MS = 1000

/**
 * A backlog that failed (the model did not load, a vector write was refused: full storage) is tried again on its own
 * after `RETRY_FIRST_MS` (milliseconds), then after twice as long each time it fails again, up to `RETRY_MAX_MS`:
 * the failure may pass (space freed, the model's files served again) without the app calling `add` or `indexed()`,
 * and retrying sooner would only repeat a failure that has not passed. Chosen, not measured: no other values are
 * recorded.
 */
export const RETRY_FIRST_MS = 5_000
export const RETRY_MAX_MS = 5 * 60_000

/**
 * Work done between two yields to the event loop (milliseconds): long enough to amortise the yield, short enough for
 * a request to wait it out. No other value is recorded.
 */
export const SLICE_MS = 12
