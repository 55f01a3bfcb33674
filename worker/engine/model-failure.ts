import { SiftError } from '../../src/errors'

/**
 * `error`, thrown while embedding a request, as the `MODEL_UNAVAILABLE` error a strict `buildContext` rejects with
 * and whose message a degraded context reports. The model's own errors already are one; anything else from the
 * model (a failed run, its worker gone) is the model being unavailable too.
 */
export function requestEmbeddingError(error: unknown): SiftError {
  if (error instanceof SiftError && error.code === 'MODEL_UNAVAILABLE') return error
  const detail = error instanceof Error ? error.message : String(error)
  return new SiftError('MODEL_UNAVAILABLE', `The embedding model could not embed the request (${detail}); lexical, head, tail and full contexts still work.`, { cause: error })
}
