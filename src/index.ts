import { proxy, wrap } from 'comlink'
import { installSiftErrorTransfer } from './error-transfer'
import { asSiftError, SiftError } from './errors'
import { WorkerMemory, type EngineConnection } from './memory'
import type { EngineApi, EngineOptions } from './protocol'
import type { IndexProgress, Memory, MemoryOptions } from './types'
import { TabElection } from './tab-election'
import { uniqueWorkerName, whenWorkerEnds } from './worker-lifetime'

export * from './types'
export { SiftError, isSiftError, type SiftErrorCode } from './errors'
export * from './core/index'

/**
 * A memory whose engine (store, embedder, indexes, context building) runs in a dedicated Web Worker. Should that
 * worker end (the browser stopped it, it crashed), the calls in flight reject with `WORKER_FAILED` and the memory
 * re-opens itself in a new worker with the same options: the returned `Memory` stays usable. Memories of one `name`
 * share one engine across the origin's tabs (src/tab-election.ts): the first one's options open it.
 */
export async function createMemory(options: MemoryOptions = {}): Promise<Memory> {
  installSiftErrorTransfer()
  const { onProgress, persist, ...engineOptions } = options
  // Only a page may ask (the API is not in workers); the answer is the browser's to give, so a refusal is not an
  // error. Asked alongside the open, not before it: a browser may wait for the user to answer.
  const asked = persist ? navigator.storage?.persist?.().catch(() => false) : undefined
  const memory = await openMemory(engineOptions, onProgress)
  await asked
  return memory
}

/** The memory of `options.name`: its own engine worker, or the one another memory of that name runs in this origin. */
async function openMemory(engineOptions: EngineOptions, onProgress: MemoryOptions['onProgress']): Promise<Memory> {
  if (!TabElection.supported()) {
    const open = () => openEngineWorker(engineOptions, onProgress)
    return new WorkerMemory(await open(), open)
  }
  const election = new TabElection(engineOptions.name ?? 'sift', (progress) => openEngineWorker(engineOptions, progress), onProgress)
  const open = () => election.connect()
  try {
    return new WorkerMemory(await open(), open)
  } catch (error) {
    election.close()
    throw error
  }
}

/** Starts an engine worker and opens the memory in it; rejects with `WORKER_FAILED` if the worker does not load. */
async function openEngineWorker(options: EngineOptions, onProgress: ((progress: IndexProgress) => void) | undefined): Promise<EngineConnection> {
  // The unique name is also the worker's lifetime lock (src/worker-lifetime.ts).
  const name = uniqueWorkerName('sift-memory')
  const worker = new Worker(new URL('../worker/rpc/engine-worker.ts', import.meta.url), { type: 'module', name })
  const remote = wrap<EngineApi>(worker)
  // A worker that fails to load never answers; its error event is the only sign.
  const loadFailure = new Promise<never>((_, reject) =>
    worker.addEventListener('error', (event) => reject(workerFailure(event)), { once: true }),
  )
  try {
    await Promise.race([remote.open(options, onProgress ? proxy(onProgress) : undefined), loadFailure])
  } catch (error) {
    worker.terminate()
    throw asSiftError(error, 'createMemory')
  }
  return { remote, ended: whenWorkerEnds(name), terminate: () => worker.terminate(), lifetimeLock: name }
}

/** The error event of a worker that did not load: its message when the event has one (a script that threw), else a script that did not load. */
function workerFailure(event: ErrorEvent): SiftError {
  const underlying: unknown = event.error
  const reason = event.message || (underlying instanceof Error ? underlying.message : '') || 'script error'
  return new SiftError('WORKER_FAILED', `The Sift worker failed to start: ${reason}. Check that the bundler emitted worker files.`, underlying === undefined ? undefined : { cause: underlying })
}
