import { SLICE_MS } from './background-tuning'

/**
 * Runs `work` (a generator that yields at safe points) in slices of about `SLICE_MS`, giving the event loop a turn
 * between slices, so requests to the same worker are answered while it runs. Stops early, closing the generator,
 * once `stopped()` is true; resolves true if the work ran to its end.
 */
export async function runSliced(work: Generator<void, void>, stopped: () => boolean): Promise<boolean> {
  try {
    for (;;) {
      if (stopped()) return false
      const started = performance.now()
      while (performance.now() - started < SLICE_MS) if (work.next().done) return true
      await new Promise((resolve) => setTimeout(resolve, 0))
    }
  } finally {
    work.return()
  }
}
