import { wrap } from 'comlink'
import { installSiftErrorTransfer } from '../../src/error-transfer'
import { SiftError } from '../../src/errors'
import type { ModelOptions, ModelRunner } from '../embed/model-runner'
import type { ModelWorkerApi } from './model-worker'

/** A `ModelRunner` whose model lives in a nested Web Worker (`model-worker.ts`); `dispose` ends the worker. */
export function modelInWorker(options: ModelOptions): ModelRunner {
  installSiftErrorTransfer()
  const worker = new Worker(new URL('./model-worker.ts', import.meta.url), { type: 'module', name: 'sift-memory-model' })
  // A worker script that fails to load answers no message: without this, every call would wait forever. Reported
  // as MODEL_UNAVAILABLE, not WORKER_FAILED: the memory itself works, only dense ranking does not, and that code
  // is what tells a caller to fall back to `lexical`.
  const failed = new Promise<never>((_, reject) => {
    worker.addEventListener('error', (event) => {
      reject(new SiftError('MODEL_UNAVAILABLE', `The embedding model's worker failed to start (${event.message || 'its script did not load'}).`))
    })
  })
  failed.catch(() => undefined)
  const remote = wrap<ModelWorkerApi>(worker)
  const started = Promise.race([remote.start(options), failed])
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    await started
    return Promise.race([work(), failed])
  }
  return {
    load: () => call(() => remote.load()),
    run: (texts) => call(() => remote.run(texts)),
    dispose: async () => {
      await Promise.race([remote.dispose(), failed]).catch(() => undefined)
      worker.terminate()
    },
  }
}
