import { Embedder } from '../../worker/embed/embedder'
import { resolveEmbedding } from '../../worker/embed/embedding-presets'
import { modelInThisThread } from '../../worker/embed/model-in-this-thread'

/** An embedder for `model` read from `modelsDir` only, in this thread, on ONNX Runtime's CPU backend. */
export function localEmbedder(
  model: string,
  modelsDir: string,
  overrides: Parameters<typeof resolveEmbedding>[1] = {},
): Embedder {
  return new Embedder({
    model,
    embedding: resolveEmbedding(model, overrides),
    localModelPath: modelsDir,
    allowRemoteModels: false,
    backends: ['cpu'],
    startModel: modelInThisThread,
  })
}
