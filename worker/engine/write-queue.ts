/**
 * Runs writes one at a time. Each write commits a transaction and then updates the in-memory indexes; running
 * them in sequence means a forget can never slip between a batch's commit and its index update.
 */
export class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve()

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work)
    this.tail = result.catch(() => undefined)
    return result
  }

  /** Resolves once every write queued so far has finished. */
  settled(): Promise<void> {
    return this.tail.then(() => undefined)
  }
}
