// The embedding backlog on its own (BacklogDrain on a real store): chunk by chunk into the store, a small backlog
// waiting for more sentences, and a failed drain retried on its own with a delay that doubles up to its cap and
// starts again from the first after a drain succeeds. Timers are vitest's fake ones (setTimeout only: IndexedDB's
// own scheduling stays real), so the delays are exact and the test does not wait minutes.
import { IDBFactory } from 'fake-indexeddb'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { BackgroundFailure } from '../../src/types'
import { FailureRecord } from '../../worker/engine/background-failure'
import {
  BACKLOG_CHUNK,
  GATHER_BELOW,
  GATHER_MS,
  RETRY_FIRST_MS,
  RETRY_MAX_MS,
} from '../../worker/engine/background-tuning'
import { BacklogDrain, type StoredVectors } from '../../worker/engine/backlog-drain'
import type { OpenedParts } from '../../worker/engine/open-parts'
import { WriteQueue } from '../../worker/engine/write-queue'
import { toForgetSelector } from '../../worker/input/forget-selector'
import { addTexts, closeParts, notes, openSyntheticParts, removeNoModelFolder } from './background-parts'

afterAll(removeNoModelFolder)
afterEach(() => {
  vi.useRealTimers()
})

/** A drain over `parts` and what it reported: failures, the chunks stored, the vectors handed to the index. */
function drainOf(parts: OpenedParts, writes: WriteQueue) {
  const failures: BackgroundFailure[] = []
  let failureSeen: () => void = () => undefined
  const record = new FailureRecord((_, failure) => {
    failures.push(failure)
    failureSeen()
  })
  const chunks: number[] = []
  const stored: StoredVectors[] = []
  /** Resolves at the next failure reported from now on. */
  const nextFailure = () => new Promise<void>((resolve) => (failureSeen = resolve))
  let stopped = false
  const drain = new BacklogDrain({
    catalog: parts.catalog,
    embedder: parts.embedder,
    store: parts.store,
    writes,
    embeddedThrough: parts.embeddedThrough,
    failures: record,
    stopped: () => stopped,
    vectorsStored: (kept) => stored.push(kept),
    chunkStored: (done) => chunks.push(done),
  })
  return {
    drain,
    failures,
    chunks,
    stored,
    stop: () => (stopped = true),
    nextFailure,
    /** Drains in the background, resolved when that drain's failure is reported. */
    drainFailing: () => {
      const failed = nextFailure()
      drain.inBackground()
      return failed
    },
  }
}

/** Texts with 'cached' in them get vectors from the cache; those with 'fresh' go to the missing model. */
const known = (input: string) => input.includes('cached')

/**
 * Switches to fake timers once the model's first load has failed on real ones (loading transformers.js arms timers of
 * its own); resolves with a spy on the embedder's `embed`, which a drain calls as soon as it starts a chunk.
 */
async function fakeTimersWithoutModel(parts: OpenedParts) {
  await expect(parts.embedder.embed(['fresh'], 'document')).rejects.toMatchObject({ code: 'MODEL_UNAVAILABLE' })
  const embed = vi.spyOn(parts.embedder, 'embed')
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  return embed
}

describe('BacklogDrain', () => {
  it('stores the backlog in chunks of BACKLOG_CHUNK, hands each chunk to the index and moves the watermark', async () => {
    const parts = await openSyntheticParts(new IDBFactory(), 'drain-chunks', known)
    const writes = new WriteQueue()
    const { drain, chunks, stored, failures } = drainOf(parts, writes)
    const count = 2 * BACKLOG_CHUNK + 44
    await addTexts(parts, writes, notes(count, 'cached'))
    expect(drain.pending).toBe(count)
    await drain.drain()
    expect(failures).toEqual([])
    expect(chunks).toEqual([BACKLOG_CHUNK, 2 * BACKLOG_CHUNK, count])
    expect(stored.map((kept) => kept.sids.length)).toEqual([BACKLOG_CHUNK, BACKLOG_CHUNK, 44])
    const sids = parts.catalog.scope().sids
    expect(stored.flatMap((kept) => kept.sids)).toEqual([...sids])
    expect(drain.embeddedThrough).toBe(sids.at(-1))
    expect(drain.pending).toBe(0)
    expect((await parts.store.residuals()).residuals.reduce((n, record) => n + record.sids.length, 0)).toBe(count)
    await closeParts(parts)
  })

  it('lets a backlog smaller than one model batch wait GATHER_MS for more sentences, so they are embedded together', async () => {
    const parts = await openSyntheticParts(new IDBFactory(), 'drain-gather', known)
    const writes = new WriteQueue()
    const { drain, chunks } = drainOf(parts, writes)
    const embed = vi.spyOn(parts.embedder, 'embed')
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    await addTexts(parts, writes, notes(1, 'cached'))
    drain.inBackground()
    await addTexts(parts, writes, notes(GATHER_BELOW - 10, 'cached', 1))
    await vi.advanceTimersByTimeAsync(GATHER_MS - 1)
    expect(embed).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    await drain.drain()
    expect(embed).toHaveBeenCalledTimes(1)
    expect(chunks).toEqual([GATHER_BELOW - 9])

    // A backlog of a whole batch goes to the model at once.
    await addTexts(parts, writes, notes(GATHER_BELOW, 'cached', 100))
    drain.inBackground()
    expect(embed).toHaveBeenCalledTimes(2)
    await drain.drain()
    expect(chunks).toEqual([GATHER_BELOW - 9, GATHER_BELOW])
    await closeParts(parts)
  })

  it('tries a failed backlog again after RETRY_FIRST_MS, twice as long after each failure up to RETRY_MAX_MS, and not once stopped', async () => {
    const parts = await openSyntheticParts(new IDBFactory(), 'drain-retry', known)
    const writes = new WriteQueue()
    const { drain, failures, nextFailure, drainFailing, stop } = drainOf(parts, writes)
    // A whole batch, so no gather wait falls between a retry and its embedding.
    await addTexts(parts, writes, notes(GATHER_BELOW, 'fresh'))
    const embed = await fakeTimersWithoutModel(parts)
    await drainFailing()
    const delays = [5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]
    expect(delays[0]).toBe(RETRY_FIRST_MS)
    expect(delays.at(-1)).toBe(RETRY_MAX_MS)
    for (const [i, delay] of delays.entries()) {
      await vi.advanceTimersByTimeAsync(delay - 1)
      expect(embed).toHaveBeenCalledTimes(i + 1)
      const failed = nextFailure()
      await vi.advanceTimersByTimeAsync(1)
      expect(embed).toHaveBeenCalledTimes(i + 2)
      await failed
    }
    expect(failures).toHaveLength(delays.length + 1)
    expect(failures.every((failure) => failure.task === 'embed' && failure.code === 'MODEL_UNAVAILABLE')).toBe(true)
    await expect(drain.drain()).rejects.toMatchObject({ code: 'MODEL_UNAVAILABLE' })

    // Disarmed, the retry does not come.
    drain.cancelRetry()
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(2 * RETRY_MAX_MS)
    expect(embed).toHaveBeenCalledTimes(delays.length + 2)
    // Stopped while a chunk is being embedded: its failure arms no retry.
    const failed = drainFailing()
    stop()
    await failed
    await vi.advanceTimersByTimeAsync(0)
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(2 * RETRY_MAX_MS)
    expect(embed).toHaveBeenCalledTimes(delays.length + 3)
    await closeParts(parts)
  })

  it('starts the delay from RETRY_FIRST_MS again after a drain succeeds, and a drain asked for before a retry replaces it', async () => {
    const parts = await openSyntheticParts(new IDBFactory(), 'drain-retry-reset', known)
    const writes = new WriteQueue()
    const { drain, chunks, nextFailure, drainFailing } = drainOf(parts, writes)
    const [fresh] = await addTexts(parts, writes, [notes(GATHER_BELOW, 'fresh').join(' ')])
    const embed = await fakeTimersWithoutModel(parts)
    await drainFailing()
    let failed = nextFailure()
    await vi.advanceTimersByTimeAsync(RETRY_FIRST_MS)
    await failed
    // Asked for before the retry (due 2 × RETRY_FIRST_MS later): drained now, and its failure arms the next delay.
    await drainFailing()
    expect(embed).toHaveBeenCalledTimes(3)
    await vi.advanceTimersByTimeAsync(4 * RETRY_FIRST_MS - 1)
    expect(embed).toHaveBeenCalledTimes(3)

    // The message the model cannot embed is forgotten: the next drain succeeds.
    await writes.run(async () => {
      const forgotten = await parts.store.forget(toForgetSelector({ id: fresh }))
      parts.catalog.remove(forgotten.messageIds)
    })
    await addTexts(parts, writes, notes(GATHER_BELOW, 'cached'))
    drain.inBackground()
    await drain.drain()
    expect(chunks).toEqual([GATHER_BELOW])
    expect(drain.pending).toBe(0)

    await addTexts(parts, writes, notes(GATHER_BELOW, 'fresh', 1000))
    await drainFailing()
    const calls = embed.mock.calls.length
    await vi.advanceTimersByTimeAsync(RETRY_FIRST_MS - 1)
    expect(embed).toHaveBeenCalledTimes(calls)
    failed = nextFailure()
    await vi.advanceTimersByTimeAsync(1)
    expect(embed).toHaveBeenCalledTimes(calls + 1)
    await failed
    await closeParts(parts)
  })
})
