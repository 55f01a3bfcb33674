import { SiftError } from '../../src/errors'

/**
 * `error`, thrown while embedding a request, as the `MODEL_UNAVAILABLE` error a strict `buildContext` rejects with
 * and whose message a degraded context reports. The model's own errors already are one; anything else from the
 * model (a failed run, its worker gone) is the model being unavailable too.
 */
export function requestEmbeddingError(error: unknown): SiftError {
  if (error instanceof SiftError && error.code === 'MODEL_UNAVAILABLE') return error
  return modelUnavailable(error, 'could not embed the request', '')
}

/**
 * Why a request was ranked by its words without waiting for the model, which has not loaded: its latest load failed
 * (`failure`, as the `MODEL_UNAVAILABLE` error a strict call would reject with), or it is still loading.
 */
export function modelNotLoaded(failure: unknown): string {
  if (failure !== undefined) return requestEmbeddingError(failure).message
  return 'The embedding model is still loading, so the request was ranked by its words without waiting for it; memory.ready() resolves once it has loaded (strictRanking: true waits instead).'
}

/** `error` from the model as a `MODEL_UNAVAILABLE` error saying what it was `doing` and that the other strategies still work. */
export function modelUnavailable(error: unknown, doing: string, then: string): SiftError {
  const detail = error instanceof Error ? error.message : String(error)
  return new SiftError(
    'MODEL_UNAVAILABLE',
    `The embedding model ${doing} (${detail}); lexical, head, tail and full contexts still work${then}.`,
    { cause: error },
  )
}

/**
 * The error `createMemory` rejects with when the model's files are not served (`requireModelFiles`): the check's own
 * `MODEL_UNAVAILABLE`, which names the option and the URL, plus how to open the memory without the model.
 */
export function modelFilesMissingAtOpen(error: unknown): SiftError {
  if (!(error instanceof SiftError) || error.code !== 'MODEL_UNAVAILABLE')
    return modelUnavailable(error, 'files could not be checked', '')
  return new SiftError(
    'MODEL_UNAVAILABLE',
    `${error.message} To open the memory without the model (messages stored, contexts ranked lexically), pass requireModelFiles: false.`,
    { cause: error },
  )
}
