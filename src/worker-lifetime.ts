/**
 * How a thread learns that a Web Worker it started has ended. A worker that is terminated, closes itself or is
 * stopped by the browser sends no event, and comlink leaves every call it had not answered waiting forever. So the
 * worker holds a Web Lock named after itself for its whole life, and its starter asks for the same lock: the browser
 * grants it exactly when the worker's context is gone, however it went.
 */

/** A name no other worker of this origin holds, for a worker's `name` option and its lifetime lock. */
export function uniqueWorkerName(prefix: string): string {
  const id =
    typeof crypto.randomUUID === 'function'
      ? crypto.randomUUID()
      : `${Date.now()}-${Math.random().toString(36).slice(2)}`
  return `${prefix} ${id}`
}

/**
 * Inside the worker: takes the lock `name` and keeps it until the worker ends. Resolves once it is held, so the
 * starter's `whenWorkerEnds` cannot be granted the lock first. Resolves at once where Web Locks are missing
 * (a page that is not a secure context).
 */
export async function holdLifetimeLock(name: string): Promise<void> {
  const locks = lockManager()
  if (!locks) return
  await new Promise<void>((held) => {
    void locks.request(name, () => {
      held()
      return new Promise<never>(() => undefined)
    })
  })
}

/**
 * In the starter, after the worker answered that it holds its lifetime lock `name`: resolves when the worker has
 * ended. Never resolves where Web Locks are missing: then only an `error` event tells of a failure.
 */
export function whenWorkerEnds(name: string): Promise<void> {
  const locks = lockManager()
  if (!locks) return new Promise<void>(() => undefined)
  return locks.request(name, () => undefined)
}

function lockManager(): LockManager | undefined {
  return typeof navigator === 'object' ? navigator.locks : undefined
}

/**
 * The calls a worker has not answered yet, so they can be failed when it ends. A race against a promise that
 * settles only at the worker's end would keep one reaction per call until then; here an answered call leaves nothing.
 */
export class UnansweredCalls {
  private readonly failures = new Set<() => void>()
  private hasEnded = false

  /** `call`'s outcome, or the error `onEnd` makes if the worker ends first. */
  track<T>(call: Promise<T>, onEnd: () => Error): Promise<T> {
    if (this.hasEnded) return Promise.reject(onEnd())
    return new Promise<T>((resolve, reject) => {
      const fail = () => reject(onEnd())
      this.failures.add(fail)
      call.then(resolve, reject).finally(() => this.failures.delete(fail))
    })
  }

  /** The worker ended: every call it had not answered fails, and so does every later one. */
  end(): void {
    this.hasEnded = true
    for (const fail of this.failures) fail()
    this.failures.clear()
  }
}
