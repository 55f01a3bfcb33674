import { SiftError } from '../../src/errors'
import type { VectorIndex } from '../index/vector/vector-index'
import type { FailureRecord } from './background-failure'
import { backgroundTimer } from './background-timer'
import { RESIDUAL_DELAY_MS } from './background-tuning'
import type { EngineStore } from './open-parts'

export interface ResidualLoadOptions {
  store: EngineStore
  /** The vector index the residuals go into, once any vector exists. */
  vectors: () => VectorIndex | undefined
  /** Puts the coarse lists read at open in use: done at the moment the residuals are read. */
  restoreSavedLists: () => void
  /** Where a failed read is recorded and reported. */
  failures: FailureRecord
  /** True once the engine stops: residuals read after it are not put in use. */
  stopped: () => boolean
}

/**
 * Reads the residuals (`SiftStore.residuals`) once: after the first request following open, after
 * `RESIDUAL_DELAY_MS`, or when `indexed()` asks, whichever comes first. Until they arrive the best rows are
 * re-scored from their int8 codes alone, which misses a little of the exact top. The coarse lists read at open are
 * put in use at the same moment, so neither delays open or the first request.
 */
export class ResidualLoad {
  /** Settles when the stored residuals are in the vector index, or failed to load; undefined until their read starts. */
  private loaded: Promise<void> | undefined
  /** The read a request asked for, which starts a turn after it (`requestAnswered`). */
  private requested: Promise<void> | undefined
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(private readonly options: ResidualLoadOptions) {}

  /** After open: reads the residuals after `RESIDUAL_DELAY_MS` unless something asks for them first. */
  arm(): void {
    // Not at once: the first request after open would share the thread with deserialising half the vector bytes.
    this.timer = backgroundTimer(() => this.load(), RESIDUAL_DELAY_MS)
  }

  /** After a request was answered: the read starts right after it, a turn later, so that the answer is sent first. */
  requestAnswered(): void {
    if (this.loaded) return
    this.requested ??= new Promise((resolve) => setTimeout(resolve, 0)).then(() => {
      if (!this.options.stopped()) return this.load()
    })
  }

  /** Reads the residuals now unless the read has started; resolves when it has ended (a failure is recorded). */
  load(): Promise<void> {
    clearTimeout(this.timer)
    this.options.restoreSavedLists()
    this.loaded ??= this.options.failures.attempt('load-residuals', this.read())
    return this.loaded
  }

  /** Resolves when the read asked for or started, if any, has ended. */
  async settled(): Promise<void> {
    await this.requested
    await this.loaded
  }

  /** Disarms the delayed read: call it when the engine stops. */
  cancel(): void {
    clearTimeout(this.timer)
  }

  private async read(): Promise<void> {
    const { residuals, damaged } = await this.options.store.residuals()
    if (this.options.stopped()) return
    for (const record of residuals)
      this.options.vectors()?.setResiduals(record.sids, record.residuals, record.residualScales)
    if (damaged.length > 0) throw damagedResiduals(damaged)
  }
}

/** What a read that left damaged residual records out reports: their rows rank by their int8 codes alone. */
function damagedResiduals(damaged: readonly string[]): SiftError {
  return new SiftError(
    'STORAGE_FAILED',
    `The ${damaged.join(', ')} of this memory did not read back (altered or damaged): their rows rank by their int8 codes alone until their block is next written. Nothing else is affected.`,
  )
}
