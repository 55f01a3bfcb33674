import { wrap, type Remote } from 'comlink'
import { installSiftErrorTransfer } from '../../src/error-transfer'
import { SiftError } from '../../src/errors'
import { UnansweredCalls, uniqueWorkerName, whenWorkerEnds } from '../../src/worker-lifetime'
import { failureDetail, moduleLoaded } from '../../src/worker-start'
import { modelFiles } from '../embed/model-files'
import type { LoadedBackend, ModelOptions, ModelRunner } from '../embed/model-runner'
import { assertFilesServed } from '../embed/served-files'
import type { ModelWorkerApi } from './exposed-model'

/** What the model worker's `run` answers: the vectors, or why its WebGPU device is gone. */
type ModelRun = Awaited<ReturnType<ModelWorkerApi['run']>>

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
 *
 * A WebGPU device lost mid-session ends the worker that ran on it: the model goes on in a new worker on the backends
 * after WebGPU (WASM when none is left), which loads ONNX Runtime's plain build and so never touches WebGPU, whatever
 * state the old worker's runtime was left in (`TransformersModel`).
 */
export function modelInWorker(options: ModelOptions): ModelRunner {
  installSiftErrorTransfer()
  let current: ModelWorker | undefined
  /** Set once a WebGPU device was lost: the options every later worker starts with, and the failure it reports. */
  let fallback: { options: ModelOptions; failures: string[] } | undefined
  const worker = (): ModelWorker => {
    if (!current || current.ended) current = startModelWorker(fallback?.options ?? options)
    return current
  }
  /** What a worker reports, with the loss that made it the fallback ahead of its own failures. */
  const reported = <T extends LoadedBackend>(loaded: T): T =>
    fallback ? { ...loaded, failures: [...fallback.failures, ...loaded.failures] } : loaded
  const call = async <T>(work: (remote: Remote<ModelWorkerApi>) => Promise<T>, from = worker()): Promise<T> => {
    const { remote, started, unanswered } = from
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
    load: async () => reported(await call((remote) => remote.load())),
    run: async function run(texts) {
      const used = worker()
      const result = await call((remote) => remote.run(texts) as Promise<ModelRun>, used)
      if (!('deviceLost' in result)) return { ...result, ranOn: reported(result.ranOn) }
      // Runs in flight when the device went share one fallback; the fallback's backends hold no WebGPU.
      const after = options.backends.slice(options.backends.indexOf('webgpu') + 1)
      fallback ??= {
        options: { ...options, backends: after.length > 0 ? after : ['wasm'] },
        failures: [`webgpu: device lost mid-session (${result.deviceLost})`],
      }
      used.terminate()
      if (current === used) current = undefined
      return run(texts)
    },
    unknownShares: (texts) => call((remote) => remote.unknownShares(texts)),
    discard: () => {
      current?.terminate()
      current = undefined
    },
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
