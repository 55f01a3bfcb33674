// The residual read after open on its own (ResidualLoad on a real store that holds vectors): after
// RESIDUAL_DELAY_MS, a turn after the first answered request, or at once when indexed() asks, whichever comes first,
// once; the saved coarse lists put in use at the same moment; nothing read or put in use once stopped; a failed read
// recorded. Timers are vitest's fake ones (setTimeout only: IndexedDB's own scheduling stays real).
import { IDBFactory } from 'fake-indexeddb'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { BackgroundFailure } from '../../src/types'
import { FailureRecord } from '../../worker/engine/background-failure'
import { RESIDUAL_DELAY_MS } from '../../worker/engine/background-tuning'
import { Engine } from '../../worker/engine/engine'
import type { OpenedParts } from '../../worker/engine/open-parts'
import { ResidualLoad } from '../../worker/engine/residual-load'
import { VectorIndex } from '../../worker/index/vector/vector-index'
import {
  SYNTHETIC_DIM,
  closeParts,
  noModelOptions,
  notes,
  openSyntheticParts,
  removeNoModelFolder,
  syntheticHost,
} from './background-parts'

const NAME = 'residuals'
const factory = new IDBFactory()
const everyText = () => true

beforeAll(async () => {
  const engine = await Engine.open(noModelOptions(NAME), syntheticHost(factory, everyText))
  await engine.add(notes(40, 'stored').map((content) => ({ role: 'user', content })))
  await engine.indexed()
  await engine.close()
})
afterAll(removeNoModelFolder)
afterEach(() => {
  vi.useRealTimers()
})

/** A residual load over freshly opened parts, with the vector index built from their blocks as open builds it. */
async function residualLoadOf() {
  const parts = await openSyntheticParts(factory, NAME, everyText)
  const vectors = new VectorIndex(SYNTHETIC_DIM)
  vectors.addBlocks(parts.vectorBlocks, (sid) => parts.catalog.get(sid)?.conversationId)
  const failures: BackgroundFailure[] = []
  let restoredLists = 0
  let stopped = false
  const load = new ResidualLoad({
    store: parts.store,
    vectors: () => vectors,
    restoreSavedLists: () => restoredLists++,
    failures: new FailureRecord((_, failure) => failures.push(failure)),
    stopped: () => stopped,
  })
  const reads = vi.spyOn(parts.store, 'residuals')
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  return {
    parts,
    load,
    reads,
    failures,
    restoredLists: () => restoredLists,
    stop: () => (stopped = true),
    /** The largest error of the index's rows against the vectors they were stored from. */
    rowError: () => largestRowError(parts, vectors),
  }
}

async function largestRowError(parts: OpenedParts, vectors: VectorIndex): Promise<number> {
  let largest = 0
  for (const sid of parts.catalog.scope().sids) {
    const stored = await parts.embedder.embed([parts.catalog.get(sid)!.text], 'document')
    const row = vectors.vectorOf(sid)!
    for (let i = 0; i < SYNTHETIC_DIM; i++) largest = Math.max(largest, Math.abs(row[i] - stored[i]))
  }
  return largest
}

describe('ResidualLoad', () => {
  it('reads the residuals RESIDUAL_DELAY_MS after it is armed, once, and puts them and the saved lists in use then', async () => {
    const { parts, load, reads, restoredLists, rowError, failures } = await residualLoadOf()
    const codesOnly = await rowError()
    load.arm()
    await vi.advanceTimersByTimeAsync(RESIDUAL_DELAY_MS - 1)
    expect(reads).not.toHaveBeenCalled()
    expect(restoredLists()).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(reads).toHaveBeenCalledTimes(1)
    expect(restoredLists()).toBe(1)
    await load.settled()
    const withResiduals = await rowError()
    expect(withResiduals).toBeLessThan(codesOnly / 10)
    await load.load()
    load.requestAnswered()
    await vi.advanceTimersByTimeAsync(10 * RESIDUAL_DELAY_MS)
    expect(reads).toHaveBeenCalledTimes(1)
    expect(failures).toEqual([])
    await closeParts(parts)
  })

  it('reads them a turn after an answered request, long before the delay, and not again when the delay ends', async () => {
    const { parts, load, reads, restoredLists, rowError } = await residualLoadOf()
    const codesOnly = await rowError()
    load.arm()
    load.requestAnswered()
    load.requestAnswered()
    // Not within the request's own turn, nor in a microtask of it: the answer is sent first.
    await new Promise((resolve) => setImmediate(resolve))
    expect(reads).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(0)
    expect(reads).toHaveBeenCalledTimes(1)
    expect(restoredLists()).toBe(1)
    // The delayed read is disarmed.
    expect(vi.getTimerCount()).toBe(0)
    await load.settled()
    expect(await rowError()).toBeLessThan(codesOnly / 10)
    await vi.advanceTimersByTimeAsync(RESIDUAL_DELAY_MS)
    expect(reads).toHaveBeenCalledTimes(1)
    await closeParts(parts)
  })

  it('reads them at once when asked (indexed()), and reads nothing once cancelled or stopped', async () => {
    const first = await residualLoadOf()
    const reading = first.load.load()
    expect(first.reads).toHaveBeenCalledTimes(1)
    expect(first.load.load()).toBe(reading)
    await reading
    await closeParts(first.parts)

    const cancelled = await residualLoadOf()
    cancelled.load.arm()
    cancelled.load.cancel()
    await vi.advanceTimersByTimeAsync(2 * RESIDUAL_DELAY_MS)
    expect(cancelled.reads).not.toHaveBeenCalled()
    await closeParts(cancelled.parts)

    const stopped = await residualLoadOf()
    stopped.load.requestAnswered()
    stopped.stop()
    await vi.advanceTimersByTimeAsync(0)
    await stopped.load.settled()
    expect(stopped.reads).not.toHaveBeenCalled()
    await closeParts(stopped.parts)
  })

  it('leaves residuals that arrive after a stop out of the index, and records a failed read as load-residuals', async () => {
    const late = await residualLoadOf()
    const codesOnly = await late.rowError()
    const reading = late.load.load()
    late.stop()
    await reading
    expect(await late.rowError()).toBe(codesOnly)
    await closeParts(late.parts)

    const failing = await residualLoadOf()
    failing.parts.store.close()
    await failing.load.load()
    expect(failing.failures).toMatchObject([{ task: 'load-residuals', code: 'STORAGE_FAILED' }])
    await failing.parts.embedder.dispose()
  })
})
