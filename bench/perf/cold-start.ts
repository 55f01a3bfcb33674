import { createMemory } from '../../src/index'
import type { ColdStartResult, ColdStartRun } from './perf-results'
import { rawRead } from './raw-read'
import { measureUserAgentMemory } from './user-agent-memory'

/**
 * The product path: `createMemory()` (the real engine worker) on the existing store `name`, to the first context,
 * `repeats` times, each beside the raw-read floor of the same records. `measureMemory`: the page's and its workers'
 * JS memory after the last repeat's first context, the memory still open.
 */
export async function coldStart(
  name: string,
  requests: readonly string[],
  size: number,
  repeats: number,
  measureMemory: boolean,
): Promise<ColdStartResult> {
  const runs: ColdStartRun[] = []
  let memoryResult: ColdStartResult['memory'] = { unavailable: 'not requested' }
  for (let r = 0; r < repeats; r++) {
    // The floor before the open in even repeats and after it in odd ones, so that neither always reads a warmer disk.
    const rawReadMs = r % 2 === 0 ? await timedRawRead(name) : 0
    const started = performance.now()
    const memory = await createMemory({ name })
    const openMs = performance.now() - started
    await memory.buildContext(requests[r % requests.length])
    const totalMs = performance.now() - started
    if (measureMemory && r === repeats - 1) memoryResult = await measureUserAgentMemory()
    await memory.close()
    runs.push({ openMs, firstContextMs: totalMs - openMs, totalMs, rawReadMs: rawReadMs || (await timedRawRead(name)) })
  }
  return { size, runs, memory: memoryResult }
}

/** The raw-read floor (bench/perf/raw-read.ts) of the store a cold start opens, in milliseconds. */
async function timedRawRead(name: string): Promise<number> {
  const started = performance.now()
  await rawRead(name)
  return performance.now() - started
}
