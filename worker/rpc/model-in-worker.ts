import { wrap, type Remote } from 'comlink'
import { installSiftErrorTransfer } from '../../src/error-transfer'
import { SiftError } from '../../src/errors'
import { UnansweredCalls, uniqueWorkerName, whenWorkerEnds } from '../../src/worker-lifetime'
import { failureDetail, moduleLoaded } from '../../src/worker-start'
import { modelFiles } from '../embed/model-files'
import type { ModelOptions, ModelRunner } from '../embed/model-runner'
import { assertFilesServed } from '../embed/served-files'
import type { ModelWorkerApi } from './exposed-model'

/** One model worker: its remote once started, and the calls it has not answered. */
interface ModelWorker {
  remote: Remote<ModelWorkerApi>
  /** Resolves once the worker runs; rejects with `MODEL_UNAVAILABLE`, naming the underlying error, if its module does not load. */
  started: Promise<void>
  unanswered: UnansweredCalls
  /** Whether the worker ended after it had started (a restartable end, unlike a script that did not load). */
  readonly ended: boolean
  terminate(): void
}

/**
 * A `ModelRunner` whose model lives in a nested Web Worker (`model-worker.ts`); `dispose` ends the worker. A worker
 * that ends after it started (the browser stopped it, it crashed) fails the calls in flight with
 * `MODEL_UNAVAILABLE`, and the next call starts a new one, which loads the model again. Its files are checked from
 * this thread (HEAD requests), so that the check does not wait for the worker's script.
 */
export function modelInWorker(options: ModelOptions): ModelRunner {
  installSiftErrorTransfer()
  let current: ModelWorker | undefined
  const worker = (): ModelWorker => {
    if (!current || current.ended) current = startModelWorker(options)
    return current
  }
  const call = async <T>(work: (remote: Remote<ModelWorkerApi>) => Promise<T>): Promise<T> => {
    const { remote, started, unanswered } = worker()
    await started
    return unanswered.track(
      work(remote),
      () => new SiftError('MODEL_UNAVAILABLE', "The embedding model's worker stopped; the next call starts a new one."),
    )
  }
  return {
    checkFiles: () => {
      // The worker starts meanwhile: its script (transformers.js) loads while the files are checked.
      worker()
      return assertFilesServed(modelFiles(options, self.location.href))
    },
    load: () => call((remote) => remote.load()),
    run: (texts) => call((remote) => remote.run(texts)),
    unknownShares: (texts) => call((remote) => remote.unknownShares(texts)),
    dispose: async () => {
      if (!current) return
      const { remote, started, unanswered, terminate } = current
      await started.then(() => unanswered.track(remote.dispose(), () => new Error('ended'))).catch(() => undefined)
      terminate()
    },
  }
}

function startModelWorker(options: ModelOptions): ModelWorker {
  // The unique name is also the worker's lifetime lock (src/worker-lifetime.ts).
  const name = uniqueWorkerName('sift-memory-model')
  const worker = new Worker(new URL('./model-worker.ts', import.meta.url), { type: 'module', name })
  const remote = wrap<ModelWorkerApi>(worker)
  // A worker that fails to load answers no call: without this, every call would wait forever. Reported as
  // MODEL_UNAVAILABLE, not WORKER_FAILED: the memory itself works, only dense ranking does not, and that code is what
  // tells a caller to fall back to `lexical`.
  const loaded = moduleLoaded(worker).catch((cause: unknown) => {
    throw new SiftError(
      'MODEL_UNAVAILABLE',
      `The embedding model's worker failed to start (${failureDetail(cause)}). Check that the app's bundler emitted and resolved the worker's files.`,
      { cause },
    )
  })
  const unanswered = new UnansweredCalls()
  let ended = false
  // `start` answers once the worker holds its lifetime lock.
  const started = loaded
    .then(() => remote.start(options))
    .then(() => {
      void whenWorkerEnds(name).then(() => {
        ended = true
        unanswered.end()
      })
    })
  started.catch(() => undefined)
  return {
    remote,
    started,
    unanswered,
    get ended() {
      return ended
    },
    terminate: () => worker.terminate(),
  }
}
