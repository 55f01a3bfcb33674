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

/**
 * The latest failure of a background task: recorded and reported when it happens (`failed`), kept for
 * `stats().lastFailure` until another failure replaces it.
 */
export class FailureRecord {
  private latest: BackgroundFailure | undefined

  /** `report` sends a recorded failure on (to `onProgress`), with the sentences embedded so far in a drain. */
  constructor(private readonly report: (done: number, failure: BackgroundFailure) => void) {}

  /** The latest failure of a background task, if any failed. */
  get last(): BackgroundFailure | undefined {
    return this.latest
  }

  /** Records `error` as the latest failure, reports it, and returns it as the `SiftError` it was recorded as. */
  failed(task: BackgroundTask, error: unknown, done = 0): SiftError {
    const recorded = backgroundError(task, error)
    this.latest = toBackgroundFailure(task, recorded, Date.now())
    this.report(done, this.latest)
    return recorded
  }

  /** `work`, with a failure recorded rather than thrown: for tasks nobody awaits for their result. */
  async attempt(task: BackgroundTask, work: Promise<void>): Promise<void> {
    try {
      await work
    } catch (error) {
      this.failed(task, error)
    }
  }
}
