import type { IndexProgress, Memory, MemoryOptions } from './types'

/**
 * The database schema this Sift writes (worker/store/schema.ts has what each version changed). Memories share an
 * engine across tabs only with memories of the same schema: a tab running a newer Sift opens the database itself,
 * upgrading it, and the older tabs' engine stops (it is told by IndexedDB's `versionchange`) instead of writing records
 * the newer one would not read.
 */
export const SCHEMA_VERSION = 6

/**
 * Engine options as they cross to a host: everything in `MemoryOptions` except the callback, which crosses separately,
 * and the Node entry's internal `tuning` (`NodeMemoryOptions.tuning`), which the engine checks when it opens.
 */
export type EngineOptions = Omit<MemoryOptions, 'onProgress'> & { tuning?: unknown }

/**
 * The engine's RPC surface, the contract between the page and the engine's Web Worker (over comlink) and the
 * object the Node entry uses in-process: `open` once, then the `Memory` methods of the engine it opened. Every
 * rejection is a `SiftError` (`asSiftError` at the boundary).
 */
export interface EngineApi extends Memory {
  /**
   * Opens the memory `options` describe; rejects if this endpoint already holds one. `onProgress` is a separate
   * argument because a function must be wrapped (comlink's `proxy`) to cross to a worker.
   */
  open(options: EngineOptions, onProgress?: (progress: IndexProgress) => void): Promise<void>
}

/** The engine methods a memory of another tab calls through the tab that runs the engine (src/tab-election.ts). */
export type RelayedMethod = Exclude<keyof EngineApi, 'open' | 'close'>

/**
 * Every relayed method, once, with whether its success changes what the memory holds (its messages, pins or
 * summaries): the React hook's memory tells every component using it after such a call (src/react/shared-memory.ts).
 * A method `EngineApi` gains is a type error here until it is listed; the relay between tabs and the hook's memory
 * then forward it with no more code.
 */
export const CHANGES_CONTENTS = {
  add: true,
  indexed: false,
  ready: false,
  buildContext: false,
  forget: true,
  findForgettable: false,
  findForgetRequest: false,
  messages: false,
  pin: true,
  unpin: true,
  pins: false,
  setSummary: true,
  summary: false,
  clearSummary: true,
  clear: true,
  export: false,
  import: true,
  // The same contents, encrypted again.
  changeKey: false,
  stats: false,
  // What arrived from other devices is in the memory once it resolves.
  synced: true,
} as const satisfies Record<RelayedMethod, boolean>

/** Every relayed method, once (`CHANGES_CONTENTS`). */
export const RELAYED_METHODS = Object.keys(CHANGES_CONTENTS) as RelayedMethod[]
