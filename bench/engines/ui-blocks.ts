// How long the page's main thread is blocked while Sift works, in any engine: a 5 ms timer in the page (as
// bench/perf/ui-heartbeat.ts, which Chromium's bench page also reads with its longtask entries; Firefox and WebKit
// have no longtask entries, so the timer alone measures here), installed through the engine's driver.
import type { PageSession } from '../../e2e/browsers/session'

/** Issue 32's goal: no main-thread block over this while loading, importing or ingesting. */
export const UI_BLOCK_GOAL_MS = 50

/** The longest block and the time of each step, ms. */
export interface UiBlocks {
  /** The floor: the longest gap while the page does nothing for `IDLE_MS` (a busy machine delays the timer too). */
  idleBlockMs: number
  /** The longest task the browser reported over 50 ms in the whole run (Chromium's longtask entries); absent elsewhere. */
  longestTaskMs?: number | null
  importMs: number
  importBlockMs: number
  indexedMs: number
  indexedBlockMs: number
  openMs: number
  openBlockMs: number
}

/** How long the idle phase lasts: long enough to meet the machine's scheduling delays. */
const IDLE_MS = 3000

/** What the page keeps between evaluations: the timer's state, read phase by phase. */
interface PageHeartbeat {
  last: number
  longest: number
  running: boolean
  /** Durations of the longtask entries seen, where the engine reports them. */
  tasks?: number[]
  tick(): void
  /** The longest gap since the last phase began, less the timer's interval; starts the next phase. */
  phase(): number
}

declare global {
  interface Window {
    siftHeartbeat?: PageHeartbeat
  }
}

/** Starts the page's timer. Written without named inner functions: the driver sends the function's source to the page. */
function startHeartbeat(page: PageSession): Promise<void> {
  return page.evaluate(() => {
    const beat: PageHeartbeat = {
      last: performance.now(),
      longest: 0,
      running: true,
      tick() {
        const now = performance.now()
        beat.longest = Math.max(beat.longest, now - beat.last)
        beat.last = now
        if (beat.running) setTimeout(() => beat.tick(), 5)
      },
      phase() {
        beat.tick()
        const longest = Math.max(0, beat.longest - 5)
        beat.longest = 0
        return longest
      },
    }
    window.siftHeartbeat = beat
    setTimeout(() => beat.tick(), 5)
    if (PerformanceObserver.supportedEntryTypes?.includes('longtask')) {
      const tasks: number[] = []
      beat.tasks = tasks
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) tasks.push(entry.duration)
      }).observe({ type: 'longtask' })
    }
  })
}

/** The longest block since the last phase began, and the longest task the engine reported since the timer started. */
export interface UiBlock {
  blockMs: number
  /** Absent (null over WebDriver) where the engine reports no longtask entries. */
  longestTaskMs?: number | null
}

/** Stops the page's timer and answers what it saw. */
function stopHeartbeat(page: PageSession): Promise<UiBlock> {
  return page.evaluate(() => {
    const beat = window.siftHeartbeat!
    beat.running = false
    return { blockMs: beat.phase(), longestTaskMs: beat.tasks && Math.max(0, ...beat.tasks) }
  })
}

/** The longest main-thread block while `work` (driver steps against the page) runs. */
export async function uiBlockDuring(page: PageSession, work: () => Promise<void>): Promise<UiBlock> {
  await startHeartbeat(page)
  await work()
  return stopHeartbeat(page)
}

/**
 * In a page that has `window.sift` (the demo), as an app calls the library: `import()` of `file` into a new memory
 * named `name`, its `indexed()` (the real model embedding every sentence), then, after `close()`, the memory opened
 * again up to its first context. The memory is cleared at the end.
 */
export async function uiBlocksInLibraryCalls(page: PageSession, name: string, file: string): Promise<UiBlocks> {
  await startHeartbeat(page)
  const blocks = await page.evaluate(
    async ({ name, file, idleMs }) => {
      const beat = window.siftHeartbeat!
      beat.phase()
      await new Promise((resolve) => setTimeout(resolve, idleMs))
      const idleBlockMs = beat.phase()
      const importStarted = performance.now()
      let memory = await window.sift.createMemory({ name, device: 'wasm' })
      await memory.import(file)
      const importMs = performance.now() - importStarted
      const importBlockMs = beat.phase()
      await memory.indexed()
      const indexedMs = performance.now() - importStarted - importMs
      const indexedBlockMs = beat.phase()
      await memory.close()
      beat.phase()
      const openStarted = performance.now()
      memory = await window.sift.createMemory({ name, device: 'wasm' })
      await memory.ready()
      await memory.buildContext('What did we plan for the weekend?', { budget: 2000 })
      const openMs = performance.now() - openStarted
      const openBlockMs = beat.phase()
      await memory.clear()
      await memory.close()
      const longestTaskMs = beat.tasks && Math.max(0, ...beat.tasks)
      return { idleBlockMs, longestTaskMs, importMs, importBlockMs, indexedMs, indexedBlockMs, openMs, openBlockMs }
    },
    { name, file, idleMs: IDLE_MS },
  )
  await stopHeartbeat(page)
  return blocks
}
