/**
 * `sift-memory`: the browser entry. `createMemory` opens a memory whose engine runs in a Web Worker; the pure helpers
 * (`splitSentences`, `packBudget`, `renderContext`, `chatPrompt`…) and every public type come with it.
 *
 * @module sift-memory
 */
import { proxy, wrap } from 'comlink'
import { installSiftErrorTransfer } from './error-transfer'
import { askForPersistence, type StorageManagerLike } from './browser-storage'
import { asSiftError, SiftError } from './errors'
import { checkStorageLoss, markOpened, pageSources } from './storage-loss'
import { refuseUnsendable, WorkerMemory, type EngineConnection } from './memory'
import { readMemoryOptions } from './memory-options'
import type { EngineApi, EngineOptions } from './protocol'
import type { IndexProgress, KeyChange, Memory, MemoryOptions } from './types'
import { TabElection } from './tab-election'
import { uniqueWorkerName, whenWorkerEnds } from './worker-lifetime'
import { failureDetail, moduleLoaded } from './worker-start'

export * from './types'
export { SiftError, isSiftError, type SiftErrorCode } from './errors'
export * from './core/index'
export * from './chat-tools'

/**
 * A memory whose engine (store, embedder, indexes, context building) runs in a dedicated Web Worker. Should that
 * worker end (the browser stopped it, it crashed), the calls in flight reject with `WORKER_FAILED` and the memory
 * re-opens itself in a new worker with the same options: the returned `Memory` stays usable. Memories of one `name`
 * share one engine across the origin's tabs (src/tab-election.ts): the first one's options open it.
 */
export async function createMemory(options: MemoryOptions = {}): Promise<Memory> {
  installSiftErrorTransfer()
  const { onProgress, persist, ...engineOptions } = readMemoryOptions(options)
  // Only a page may ask (the API is not in workers); the answer is the browser's to give, so a refusal is not an
  // error. Asked alongside the open, not before it: a browser may wait for the user to answer, and one that never
  // answers (headless Firefox's unanswered prompt) costs a bounded wait after the open, not a memory that never opens.
  const asked = persist ? askForPersistence(navigator.storage as StorageManagerLike | undefined) : undefined
  const name = engineOptions.name ?? 'sift'
  const storage = pageSources()
  const evicted = await checkStorageLoss(name, storage)
  const memory = await openMemory(engineOptions, onProgress)
  memory.evicted = evicted
  markOpened(name, storage)
  await asked?.()
  return memory
}

/** The memory of `options.name`: its own engine worker, or the one another memory of that name runs in this origin. */
async function openMemory(
  engineOptions: EngineOptions,
  onProgress: MemoryOptions['onProgress'],
): Promise<WorkerMemory> {
  // After memory.changeKey, a worker started again (or by the next leader in this tab) opens with the new key.
  const keyChanged = (next: KeyChange) => {
    delete engineOptions.passphrase
    delete engineOptions.key
    Object.assign(engineOptions, next)
  }
  // The model's files are checked for the app once, as createMemory opens the memory: one that re-opens itself later
  // (a new worker, this tab taking over another's engine) keeps storing even if they went missing since.
  const opened = (connection: EngineConnection) => {
    engineOptions.requireModelFiles = false
    return connection
  }
  if (!TabElection.supported()) {
    const open = () => openEngineWorker(engineOptions, onProgress)
    return new WorkerMemory(opened(await open()), open, keyChanged)
  }
  const { passphrase, key, requireModelFiles, ...ownShape } = engineOptions
  const election = new TabElection(
    engineOptions.name ?? 'sift',
    ownShape,
    // A memory that takes the engine over from another tab opens it as that tab did: only the key is its own.
    (progress, shape) =>
      openEngineWorker(
        {
          ...shape,
          passphrase: engineOptions.passphrase,
          key: engineOptions.key,
          requireModelFiles: engineOptions.requireModelFiles,
        },
        progress,
      ),
    onProgress,
    () => ({ passphrase: engineOptions.passphrase, key: engineOptions.key }),
  )
  const open = () => election.connect()
  try {
    return new WorkerMemory(opened(await open()), open, keyChanged)
  } catch (error) {
    election.close()
    throw error
  }
}

/** Starts an engine worker and opens the memory in it; rejects with `WORKER_FAILED` if the worker does not load. */
async function openEngineWorker(
  options: EngineOptions,
  onProgress: ((progress: IndexProgress) => void) | undefined,
): Promise<EngineConnection> {
  // The unique name is also the worker's lifetime lock (src/worker-lifetime.ts).
  const name = uniqueWorkerName('sift-memory')
  const worker = new Worker(new URL('../worker/rpc/engine-worker.ts', import.meta.url), { type: 'module', name })
  const remote = wrap<EngineApi>(worker)
  try {
    await moduleLoaded(worker).catch((cause: unknown) => {
      throw workerFailure(cause)
    })
    // An error the worker does not catch while it opens would leave `open` unanswered: it fails the open instead.
    const uncaught = new Promise<never>((_, reject) =>
      worker.addEventListener('error', (event) => reject(workerFailure(event.error ?? new Error(event.message))), {
        once: true,
      }),
    )
    const opening = new Promise<void>((resolve) =>
      resolve(remote.open(options, onProgress ? proxy(onProgress) : undefined)),
    ).catch(refuseUnsendable('createMemory'))
    await Promise.race([opening, uncaught])
  } catch (error) {
    worker.terminate()
    throw asSiftError(error, 'createMemory')
  }
  return { remote, ended: whenWorkerEnds(name), terminate: () => worker.terminate(), lifetimeLock: name }
}

/** A worker that did not load or open, as the `WORKER_FAILED` error that names the underlying error (src/worker-start.ts). */
function workerFailure(cause: unknown): SiftError {
  return new SiftError(
    'WORKER_FAILED',
    `The Sift worker failed to start: ${failureDetail(cause)}. Check that the app's bundler emitted the worker's files and resolved its imports (in a dev server, a dependency it did not pre-bundle).`,
    { cause },
  )
}
