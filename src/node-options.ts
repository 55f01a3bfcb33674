import type { MemoryOptions } from './types'

/** What only the Node entry takes: where IndexedDB comes from, and an optional on-disk embedding cache. */
export interface NodeHostOptions {
  /**
   * An IndexedDB implementation (such as `new IDBFactory()` from fake-indexeddb).
   *
   * @defaultValue a private in-memory fake-indexeddb instance
   */
  indexedDB?: IDBFactory
  /**
   * The `IDBKeyRange` of that implementation, needed beside any `indexedDB` but Sift's own copy of fake-indexeddb:
   * another copy (the app's own `fake-indexeddb`) does not take the bundled one, so `createMemory` then rejects with
   * `INVALID_INPUT`. Pass both from one import: `{ indexedDB: new IDBFactory(), IDBKeyRange }`.
   *
   * @defaultValue the one bundled with Sift
   */
  IDBKeyRange?: typeof IDBKeyRange
  /**
   * Folder for the on-disk embedding cache: a file per model setup, its vectors keyed by a hash of that setup and the
   * sentence's text, so that a history embedded once is not embedded again by the next process. `forget` rewrites it
   * without the forgotten texts, and `clear` deletes it.
   *
   * @defaultValue none: no cache
   */
  embeddingCacheDir?: string
}

/** Options of the Node entry: the browser options plus where IndexedDB comes from and an optional embedding cache. */
export interface NodeMemoryOptions extends MemoryOptions, NodeHostOptions {
  /**
   * @internal Not public API, and left out of the published declarations: the engine's retrieval constants by name
   * (its tuning tables), replacing the shipped values, for benchmarks and ablations (`npm run bench:recall -- --tune`).
   * An unknown name or a value out of its range is `INVALID_INPUT`. The names change with the engine.
   */
  tuning?: Readonly<Record<string, number | boolean>>
}
