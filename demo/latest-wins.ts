/** What `latestWins` reports as it works. */
export interface LatestWinsHandlers<P, R> {
  /** A finished call's result; results arrive in the order they were asked for. */
  show(result: R, params: P): void
  fail(error: unknown, params: P): void
  /** True when a call starts with none running, false when the latest asked-for call has finished. */
  busy(isBusy: boolean): void
}

/**
 * Runs `run` for the latest parameters only: one call at a time, and while one runs, each new request replaces the
 * one waiting, so a slider dragged through a hundred values costs the call in flight plus one more, and the page
 * ends on the latest value. Each finished call is shown at once (it is newer than what is on screen), so the view
 * changes from one complete result to the next without ever being cleared.
 */
export function latestWins<P, R>(
  run: (params: P) => Promise<R>,
  handlers: LatestWinsHandlers<P, R>,
): (params: P) => void {
  let running = false
  let waiting: { params: P } | undefined
  async function drain(params: P): Promise<void> {
    running = true
    handlers.busy(true)
    for (let next: P | undefined = params; next !== undefined; ) {
      const current: P = next
      try {
        handlers.show(await run(current), current)
      } catch (error) {
        handlers.fail(error, current)
      }
      next = waiting?.params
      waiting = undefined
    }
    running = false
    handlers.busy(false)
  }
  return (params) => {
    if (running) waiting = { params }
    else void drain(params)
  }
}

/**
 * Wraps a read whose result replaces what is on screen (the status line, the history list), for reads that may
 * overlap: two messages added in quick succession each ask again, and the first ask can finish last. Only the
 * newest call's result is shown, so the screen never goes back to an older count. Each returned promise settles
 * when its own call does, shown or not.
 */
export function newestShown<R>(read: () => Promise<R>, show: (result: R) => void): () => Promise<void> {
  let asked = 0
  return async () => {
    const call = ++asked
    const result = await read()
    if (call === asked) show(result)
  }
}
