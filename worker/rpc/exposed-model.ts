// The embedding model in a Web Worker of its own, started by the engine's worker (`modelInWorker`) and imported by
// that worker's bootstrap (model-worker.ts): loading the model (WebAssembly compilation and session setup) and every
// batch then run beside the engine, which meanwhile reads the store, builds its indexes and answers requests.
import { expose, transfer } from 'comlink'
import { installSiftErrorTransfer } from '../../src/error-transfer'
import { SiftError } from '../../src/errors'
import { holdLifetimeLock } from '../../src/worker-lifetime'
import type { ModelOptions } from '../embed/model-runner'
import { TransformersModel } from '../embed/transformers-model'

let model: TransformersModel | undefined
// The engine named this worker uniquely and learns of its end through a lock of that name (src/worker-lifetime.ts).
const lifetime = holdLifetimeLock(self.name)

const modelApi = {
  /** Answers once this worker holds its lifetime lock, so the engine asks for it after this worker does. */
  async start(options: ModelOptions): Promise<void> {
    await lifetime
    model ??= new TransformersModel(options)
  },
  load: () => started().load(),
  /** The vectors, or, once the WebGPU device the model ran on was lost, why: the engine then replaces this worker. */
  async run(texts: string[]): Promise<Awaited<ReturnType<TransformersModel['run']>> | { deviceLost: string }> {
    const model = started()
    try {
      const result = await model.run(texts)
      return transfer(result, [result.data.buffer])
    } catch (error) {
      const { deviceLost } = model
      if (deviceLost !== undefined) return { deviceLost }
      throw error
    }
  },
  unknownShares: (texts: string[]) => started().unknownShares(texts),
  dispose: () => started().dispose(),
}

function started(): TransformersModel {
  if (!model)
    throw new SiftError('INTERNAL', "The embedding model's worker was called before start(); this is a bug in Sift.")
  return model
}

export type ModelWorkerApi = typeof modelApi

installSiftErrorTransfer()
expose(modelApi)
