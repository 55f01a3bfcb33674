import { proxy, wrap } from 'comlink'
import { installSiftErrorTransfer } from '../worker/rpc/sift-error-transfer'
import type { WorkerApi } from '../worker/rpc/engine-api'
import { SiftError } from './errors'
import { WorkerMemory } from './memory'
import type { Memory, MemoryOptions } from './types'

export * from './types'
export { SiftError, isSiftError, type SiftErrorCode } from './errors'
export * from './core/index'

/** A memory whose engine (store, embedder, indexes, context building) runs in a dedicated Web Worker. */
export async function createMemory(options: MemoryOptions = {}): Promise<Memory> {
  installSiftErrorTransfer()
  const worker = new Worker(new URL('../worker/rpc/engine-worker.ts', import.meta.url), { type: 'module', name: 'sift-memory' })
  const remote = wrap<WorkerApi>(worker)
  const { onProgress, ...engineOptions } = options
  // A worker that fails to load never answers; its error event is the only sign.
  const loadFailure = new Promise<never>((_, reject) =>
    worker.addEventListener('error', (event) => reject(new SiftError('STORAGE_FAILED', `The Sift worker failed to start: ${event.message || 'script error'}. Check that the bundler emitted worker files.`)), { once: true }),
  )
  try {
    await Promise.race([remote.open(engineOptions, onProgress ? proxy(onProgress) : undefined), loadFailure])
  } catch (error) {
    worker.terminate()
    throw error
  }
  return new WorkerMemory(remote, () => worker.terminate())
}
