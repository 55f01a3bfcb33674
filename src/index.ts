import { proxy, wrap } from 'comlink'
import { installSiftErrorTransfer } from './error-transfer'
import { asSiftError, SiftError } from './errors'
import { WorkerMemory } from './memory'
import type { EngineApi } from './protocol'
import type { Memory, MemoryOptions } from './types'

export * from './types'
export { SiftError, isSiftError, type SiftErrorCode } from './errors'
export * from './core/index'

/** A memory whose engine (store, embedder, indexes, context building) runs in a dedicated Web Worker. */
export async function createMemory(options: MemoryOptions = {}): Promise<Memory> {
  installSiftErrorTransfer()
  const worker = new Worker(new URL('../worker/rpc/engine-worker.ts', import.meta.url), { type: 'module', name: 'sift-memory' })
  const remote = wrap<EngineApi>(worker)
  const { onProgress, ...engineOptions } = options
  // A worker that fails to load never answers; its error event is the only sign.
  const loadFailure = new Promise<never>((_, reject) =>
    worker.addEventListener('error', (event) => reject(workerFailure(event)), { once: true }),
  )
  try {
    await Promise.race([remote.open(engineOptions, onProgress ? proxy(onProgress) : undefined), loadFailure])
  } catch (error) {
    worker.terminate()
    throw asSiftError(error, 'createMemory')
  }
  return new WorkerMemory(remote, () => worker.terminate())
}

/** The error event of a worker that did not load: its message when the event has one (a script that threw), else a script that did not load. */
function workerFailure(event: ErrorEvent): SiftError {
  const underlying: unknown = event.error
  const reason = event.message || (underlying instanceof Error ? underlying.message : '') || 'script error'
  return new SiftError('WORKER_FAILED', `The Sift worker failed to start: ${reason}. Check that the bundler emitted worker files.`, underlying === undefined ? undefined : { cause: underlying })
}
