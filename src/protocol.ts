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

/** Every relayed method, once: a method `EngineApi` gains is a type error here until it is listed. */
export const RELAYED_METHODS = [
  'add',
  'indexed',
  'ready',
  'buildContext',
  'forget',
  'findForgettable',
  'messages',
  'pin',
  'unpin',
  'pins',
  'setSummary',
  'summary',
  'clearSummary',
  'clear',
  'export',
  'import',
  'changeKey',
  'stats',
] as const satisfies readonly RelayedMethod[]

type Unlisted = Exclude<RelayedMethod, (typeof RELAYED_METHODS)[number]>
// Fails to compile while an engine method is missing from RELAYED_METHODS.
const everyMethodListed: Unlisted extends never ? true : Unlisted = true
void everyMethodListed
