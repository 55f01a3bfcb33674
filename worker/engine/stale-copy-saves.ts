import type { LexicalIndex } from '../index/lexical/lexical-index'
import { LEXICAL_SNAPSHOT_FORMAT, snapshotIsStale } from '../index/lexical/lexical-snapshot'
import type { SentenceCatalog } from '../index/sentence-catalog'
import type { FailureRecord } from './background-failure'
import { backgroundTimer } from './background-timer'
import { SAVE_DELAY_MS } from './background-tuning'
import type { CoarseListsUpkeep } from './coarse-lists-upkeep'
import type { EngineStore } from './open-parts'
import type { WriteQueue } from './write-queue'

export interface StaleCopySavesOptions {
  store: EngineStore
  /** The sentences stored, which the lexical snapshot should cover. */
  catalog: SentenceCatalog
  /** The lexical index kept by the engine, saved from here when its snapshot is stale. */
  lexical: LexicalIndex
  /** The engine's write queue: a save waits there for the writes before it, so no forget falls inside it. */
  writes: WriteQueue
  /** The saved lexical snapshot covers every sentence below this sid (0: there is none). */
  lexicalSavedBelow: number
  /** The coarse lists' upkeep, once any vector exists; it tells when their saved copy is stale. */
  coarseLists: () => CoarseListsUpkeep | undefined
  /** Where a failed save is recorded and reported. */
  failures: FailureRecord
  /** True once the engine stops: no save is scheduled or started any more. */
  stopped: () => boolean
}

/**
 * The saved copies of the indexes (the lexical snapshot, the coarse lists) written again once enough is missing from
 * them: after writes have been quiet for `SAVE_DELAY_MS`, so a burst of writes saves each copy once, and at close.
 * A failed save leaves the old copy in place (or none); open then indexes what it misses.
 */
export class StaleCopySaves {
  /** The options it keeps: not the starting watermark, which lives on in a field of its own. */
  private readonly options: Omit<StaleCopySavesOptions, 'lexicalSavedBelow'>
  private lexicalSavedBelow: number
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor({ lexicalSavedBelow, ...options }: StaleCopySavesOptions) {
    this.options = options
    this.lexicalSavedBelow = lexicalSavedBelow
  }

  /** After a write: (re)starts the quiet time before the stale copies are written, if any copy is stale. */
  schedule(): void {
    clearTimeout(this.timer)
    const coarseLists = this.options.coarseLists()
    if (this.options.stopped() || (!this.lexicalSaveIsDue && !coarseLists?.saveIsDue)) return
    this.timer = backgroundTimer(() => {
      if (this.options.stopped()) return
      const { writes, failures } = this.options
      if (this.lexicalSaveIsDue)
        failures.attempt(
          'save-lexical-snapshot',
          writes.run(() => this.saveLexicalSnapshot()),
        )
      if (coarseLists?.saveIsDue)
        failures.attempt(
          'save-coarse-lists',
          writes.run(() => coarseLists.save()),
        )
    }, SAVE_DELAY_MS)
  }

  /** After a forget: the store deleted the saved snapshot with the messages (it holds the forgotten words). */
  lexicalForgotten(): void {
    this.lexicalSavedBelow = 0
  }

  /** Writes the stale copies now, one after the other. Call it once the write queue has settled. */
  async saveDueNow(): Promise<void> {
    const { failures } = this.options
    if (this.lexicalSaveIsDue) await failures.attempt('save-lexical-snapshot', this.saveLexicalSnapshot())
    const coarseLists = this.options.coarseLists()
    if (coarseLists?.saveIsDue) await failures.attempt('save-coarse-lists', coarseLists.save())
  }

  /** Disarms the scheduled save: call it when the engine stops. */
  cancel(): void {
    clearTimeout(this.timer)
  }

  private get lexicalSaveIsDue(): boolean {
    return snapshotIsStale(this.options.catalog, this.lexicalSavedBelow)
  }

  /**
   * Run inside the write queue (or after it settled), so no forget can fall between serialising and storing.
   * `serialize` compacts the index first, so no forgotten word is ever written to disk.
   */
  private async saveLexicalSnapshot(): Promise<void> {
    const { catalog, lexical, store } = this.options
    const nextSid = (catalog.scope().sids.at(-1) ?? 0) + 1
    await store.saveLexicalSnapshot({ format: LEXICAL_SNAPSHOT_FORMAT, nextSid, index: lexical.serialize() })
    this.lexicalSavedBelow = nextSid
  }
}
