import type { IndexProgress, Memory, MemoryOptions } from './types'

/** Engine options as they cross to a host: everything in `MemoryOptions` except the callback, which crosses separately. */
export type EngineOptions = Omit<MemoryOptions, 'onProgress'>

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
