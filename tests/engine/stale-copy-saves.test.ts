// The saves of stale copies on their own (StaleCopySaves on a real store), with the lexical snapshot: written once
// writes have been quiet for SAVE_DELAY_MS, so a burst of writes saves it once, in the write queue after the writes
// before it; nothing armed while no copy is stale or once stopped; written at once at close; a failed save recorded.
// Timers are vitest's fake ones (setTimeout only: IndexedDB's own scheduling stays real).
import { IDBFactory } from 'fake-indexeddb'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { BackgroundFailure } from '../../src/types'
import { FailureRecord } from '../../worker/engine/background-failure'
import { SAVE_DELAY_MS } from '../../worker/engine/background-tuning'
import { StaleCopySaves } from '../../worker/engine/stale-copy-saves'
import { WriteQueue } from '../../worker/engine/write-queue'
import { addTexts, closeParts, notes, openSyntheticParts, removeNoModelFolder } from './background-parts'

afterAll(removeNoModelFolder)
afterEach(() => {
  vi.useRealTimers()
})

const everyText = () => true

/** Enough sentences for a memory without a snapshot to find it stale (`copyIsStale`). */
const STALE = 600

/** Saves over freshly opened parts of the memory `name` on `factory`, and what they did. */
async function savesOf(factory: IDBFactory, name: string) {
  const parts = await openSyntheticParts(factory, name, everyText)
  const writes = new WriteQueue()
  const failures: BackgroundFailure[] = []
  let stopped = false
  const saves = new StaleCopySaves({
    store: parts.store,
    catalog: parts.catalog,
    lexical: parts.lexical,
    writes,
    lexicalSavedBelow: parts.lexicalSavedBelow,
    coarseLists: () => undefined,
    failures: new FailureRecord((_, failure) => failures.push(failure)),
    stopped: () => stopped,
  })
  const written = vi.spyOn(parts.store, 'saveLexicalSnapshot')
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  return { parts, writes, saves, written, failures, stop: () => (stopped = true) }
}

describe('StaleCopySaves', () => {
  it('writes a stale lexical snapshot once, SAVE_DELAY_MS after the last of a burst of writes, behind the writes queued before it', async () => {
    const factory = new IDBFactory()
    const { parts, writes, saves, written, failures } = await savesOf(factory, 'saves-burst')
    for (const [i, count] of [STALE, 100, 100].entries()) {
      await addTexts(parts, writes, notes(count, 'burst', 1000 * i))
      saves.schedule()
      await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS / 2)
    }
    expect(written).not.toHaveBeenCalled()
    let release!: () => void
    const held = writes.run(() => new Promise<void>((resolve) => (release = resolve)))
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS / 2)
    // Due now, but queued behind the write in flight.
    await new Promise((resolve) => setImmediate(resolve))
    expect(written).not.toHaveBeenCalled()
    release()
    await held
    await writes.settled()
    expect(written).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(10 * SAVE_DELAY_MS)
    expect(written).toHaveBeenCalledTimes(1)
    expect(failures).toEqual([])
    const lastSid = parts.catalog.scope().sids.at(-1)!
    await closeParts(parts)

    vi.useRealTimers()
    const reopened = await openSyntheticParts(factory, 'saves-burst', everyText)
    expect(reopened.lexicalSavedBelow).toBe(lastSid + 1)
    await closeParts(reopened)
  })

  it('arms nothing while no copy is stale, and saves nothing once cancelled or stopped', async () => {
    const { parts, writes, saves, written, stop } = await savesOf(new IDBFactory(), 'saves-none')
    await addTexts(parts, writes, notes(10, 'few'))
    saves.schedule()
    expect(vi.getTimerCount()).toBe(0)

    await addTexts(parts, writes, notes(STALE, 'many'))
    saves.schedule()
    expect(vi.getTimerCount()).toBe(1)
    saves.cancel()
    await vi.advanceTimersByTimeAsync(2 * SAVE_DELAY_MS)
    expect(written).not.toHaveBeenCalled()

    saves.schedule()
    stop()
    await vi.advanceTimersByTimeAsync(2 * SAVE_DELAY_MS)
    await writes.settled()
    expect(written).not.toHaveBeenCalled()
    saves.schedule()
    expect(vi.getTimerCount()).toBe(0)
    await closeParts(parts)
  })

  it('writes a stale copy at once at close, finds the snapshot stale again after a forget, and records a failed save', async () => {
    const { parts, writes, saves, written, failures } = await savesOf(new IDBFactory(), 'saves-now')
    await addTexts(parts, writes, notes(STALE, 'close'))
    await saves.saveDueNow()
    expect(written).toHaveBeenCalledTimes(1)
    saves.schedule()
    expect(vi.getTimerCount()).toBe(0)

    saves.lexicalForgotten()
    saves.schedule()
    expect(vi.getTimerCount()).toBe(1)
    saves.cancel()

    parts.store.close()
    await saves.saveDueNow()
    expect(written).toHaveBeenCalledTimes(2)
    expect(failures).toMatchObject([{ task: 'save-lexical-snapshot', code: 'STORAGE_FAILED' }])
    await parts.embedder.dispose()
  })
})
