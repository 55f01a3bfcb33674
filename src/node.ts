import { Engine } from '../worker/engine/engine'
import { nodeHost, type NodeHostOptions } from '../worker/hosts/node/node-host'
import type { Memory, MemoryOptions } from './types'

export * from './types'
export { SiftError, isSiftError, type SiftErrorCode } from './errors'
export * from './core/index'

/** Options of the Node entry: the browser options plus where IndexedDB comes from and an optional embedding cache. */
export interface NodeMemoryOptions extends MemoryOptions, NodeHostOptions {}

/** A memory whose engine runs in this process (onnxruntime-node, fake-indexeddb by default). */
export async function createMemory(options: NodeMemoryOptions = {}): Promise<Memory> {
  const { indexedDB, IDBKeyRange, embeddingCacheDir, ...memoryOptions } = options
  // src/ (tsx) and dist/ (built) both sit one level below the package root.
  const engine = await Engine.open(memoryOptions, nodeHost({ indexedDB, IDBKeyRange, embeddingCacheDir }, new URL(/* @vite-ignore */ '../', import.meta.url)))
  return engine
}
