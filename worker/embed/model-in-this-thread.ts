import { SiftError } from '../../src/errors'
import type { ModelOptions, ModelRunner } from './model-runner'

/**
 * The model in this thread (Node, benchmarks), transformers.js imported on first use. The browser host runs it in a
 * worker of its own instead (`modelInWorker`), so this import, and the library behind it, stay out of the engine's
 * worker bundle.
 */
export function modelInThisThread(options: ModelOptions): ModelRunner {
  let model: Promise<ModelRunner> | undefined
  const started = () =>
    (model ??= import('./transformers-model').then(
      ({ TransformersModel }) => new TransformersModel(options),
      missingLibrary,
    ))
  return {
    load: async () => (await started()).load(),
    run: async (texts) => (await started()).run(texts),
    unknownShares: async (texts) => (await started()).unknownShares?.(texts) ?? texts.map(() => 0),
    dispose: async () => {
      if (model) await (await model.catch(() => undefined))?.dispose()
    },
  }
}

/**
 * `sift-memory/node` leaves transformers.js (and the native ONNX Runtime it brings) to the app as an optional peer
 * dependency, so that browser apps never install them: a Node app without it learns what to install.
 */
function missingLibrary(error: unknown): never {
  const { code, message } = (error ?? {}) as { code?: string; message?: string }
  if (code === 'ERR_MODULE_NOT_FOUND' && message?.includes('@huggingface/transformers')) {
    throw new SiftError(
      'MODEL_UNAVAILABLE',
      'sift-memory/node embeds with @huggingface/transformers, which is not installed: run `npm install @huggingface/transformers`.',
      { cause: error },
    )
  }
  throw error
}
