/** What the main thread went through while a heartbeat ran. */
export interface UiBlocking {
  /** Longest gap between two heartbeat ticks, minus the tick interval: how long the UI could not respond. */
  longestBlockMs: number
  /** Longest 'longtask' entry (tasks over 50 ms) reported by the browser, 0 if none. */
  longestTaskMs: number
  longTasks: number
}

/**
 * Watches the main thread: a setTimeout heartbeat every `intervalMs` (a blocked thread delays it) and a
 * PerformanceObserver for 'longtask' entries. Stop it to read the result.
 */
export function startUiHeartbeat(intervalMs = 5): { stop(): UiBlocking } {
  let longestGap = 0
  let last = performance.now()
  let running = true
  let timer: ReturnType<typeof setTimeout> | undefined
  const tick = () => {
    const now = performance.now()
    longestGap = Math.max(longestGap, now - last)
    last = now
    if (running) timer = setTimeout(tick, intervalMs)
  }
  timer = setTimeout(tick, intervalMs)
  const tasks: number[] = []
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push(entry.duration)
  })
  try {
    observer.observe({ type: 'longtask', buffered: false })
  } catch {
    // Without longtask support the heartbeat alone measures blocking.
  }
  return {
    stop() {
      running = false
      clearTimeout(timer)
      tick()
      for (const entry of observer.takeRecords()) tasks.push(entry.duration)
      observer.disconnect()
      return {
        longestBlockMs: Math.max(0, longestGap - intervalMs),
        longestTaskMs: tasks.length ? Math.max(...tasks) : 0,
        longTasks: tasks.length,
      }
    },
  }
}
