import type { SerializedCoarseLists, VectorIndex } from '../index/vector/vector-index'
import type { EngineStore } from './open-parts'
import { seededRandom } from '../util/seeded-random'
import { copyIsStale } from '../util/stale-copy'
import type { BackgroundTask } from './background-failure'
import { runSliced } from './run-sliced'
import type { WriteQueue } from './write-queue'

export interface CoarseListsUpkeepOptions {
  /** The index whose lists these are. */
  vectors: VectorIndex
  store: EngineStore
  /** The engine's write queue, so no forget can fall between serialising the lists and storing them. */
  writes: WriteQueue
  /**
   * The lists read at open. They are put in use by `restoreSaved`, not at once: re-filing and re-laying out every
   * row would otherwise delay open or the first request.
   */
  saved?: SerializedCoarseLists
  /** True once the engine closes: a training stops at its next slice and nothing new starts. */
  stopped: () => boolean
  /** Reports a failed training (or its save); the upkeep itself carries on without the lists. */
  onFailure: (task: BackgroundTask, error: unknown) => void
}

/**
 * The vector index's coarse lists over an engine's life: the saved lists put in use after open, trained in the
 * background whenever the index asks for them, re-centred after a forget, and saved again once the saved copy misses
 * enough rows. Dense ranking scans every row while no lists are in use.
 */
export class CoarseListsUpkeep {
  private readonly vectors: VectorIndex
  /** The options it keeps: not `saved`, which it lets go once restored. */
  private readonly options: Omit<CoarseListsUpkeepOptions, 'saved'>
  /** The lists read at open while they are not in use yet; training waits for them. */
  private savedAtOpen: SerializedCoarseLists | undefined
  /** The training running in the background, if any. */
  private training: Promise<void> | undefined
  /** Rows of the index the saved copy of the lists does not hold. */
  private rowsNotSaved = 0

  constructor({ saved, ...options }: CoarseListsUpkeepOptions) {
    this.options = options
    this.vectors = options.vectors
    this.savedAtOpen = saved
  }

  /** Puts the lists read at open in use (once), then trains if the rows have grown enough since they were trained. */
  restoreSaved(): void {
    const saved = this.savedAtOpen
    this.savedAtOpen = undefined
    if (this.options.stopped()) return
    if (saved) {
      this.vectors.restoreCoarseLists(saved)
      this.rowsNotSaved = Math.max(0, this.vectors.size - saved.sids.length)
    }
    this.trainWhenDue()
  }

  /**
   * Trains the lists when the index asks for them (`VectorIndex.wantsCoarseLists`: from `COARSE_MIN_ROWS` rows, and
   * again each time the rows double), in slices between requests (`runSliced`), then saves them.
   */
  trainWhenDue(): void {
    if (this.training || this.options.stopped() || this.savedAtOpen || !this.vectors.wantsCoarseLists()) return
    this.training = this.train()
  }

  /** Counts rows just added to the index: the lists file them, the saved copy does not hold them. */
  rowsAdded(count: number): void {
    this.rowsNotSaved += count
  }

  /**
   * After a forget: the store deleted the saved lists with the messages (their centroids are means over the
   * forgotten vectors too), so the lists in use are re-centred and no row is in a saved copy any more.
   */
  forgotten(): void {
    this.vectors.recentreCoarseLists()
    this.rowsNotSaved = this.vectors.size
  }

  /** Whether lists are in use and their saved copy misses enough rows to be written again (`copyIsStale`). */
  get saveIsDue(): boolean {
    return this.vectors.hasCoarseLists && copyIsStale(this.rowsNotSaved, this.vectors.size)
  }

  /** Saves the lists in use, if any. Run it inside the write queue, or after it settled. */
  async save(): Promise<void> {
    const lists = this.vectors.serializeCoarseLists()
    if (!lists) return
    await this.options.store.saveCoarseLists(lists)
    this.rowsNotSaved = 0
  }

  /** Resolves when the training in flight, if any, has ended (trained, stopped or failed). */
  async settled(): Promise<void> {
    await this.training
  }

  private async train(): Promise<void> {
    const { vectors, options } = this
    try {
      // Seeded by the row count: the same history trains the same lists, so runs and benchmarks repeat.
      const finished = await runSliced(vectors.trainCoarseLists(seededRandom(vectors.size)), options.stopped)
      if (finished && !options.stopped()) {
        this.rowsNotSaved = vectors.size
        await options.writes.run(() => this.save())
      }
    } catch (error) {
      // The lists only speed dense ranking up: without them it scans every row, and the next call here tries again.
      options.onFailure('train-coarse-lists', error)
    } finally {
      this.training = undefined
    }
  }
}
