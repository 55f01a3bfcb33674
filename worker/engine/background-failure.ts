import { asSiftError, SiftError } from '../../src/errors'
import type { BackgroundFailure } from '../../src/types'
import { modelUnavailable } from './model-failure'

/** A job the engine runs in the background, named as `BackgroundFailure.task` reports it. */
export type BackgroundTask = BackgroundFailure['task']

/**
 * `error` as the `SiftError` a failed `task` is recorded with. The store already throws `SiftError`s
 * (`STORAGE_FAILED`, `QUOTA_EXCEEDED`); anything else from `embed` comes from the model (a failed run, an
 * unexpected output), so it is `MODEL_UNAVAILABLE` like a failed load; anything else elsewhere is unexpected.
 */
export function backgroundError(task: BackgroundTask, error: unknown): SiftError {
  if (task === 'embed' && !(error instanceof SiftError))
    return modelUnavailable(error, 'failed on the backlog', ', and the next add or indexed() tries again')
  return asSiftError(error, `Background task ${task}`)
}

/** The record of `error` failing `task` at `at` (epoch ms). */
export function toBackgroundFailure(task: BackgroundTask, error: SiftError, at: number): BackgroundFailure {
  return { task, code: error.code, message: error.message, at }
}
