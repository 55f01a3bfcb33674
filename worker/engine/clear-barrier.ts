/**
 * What `clear` promises the calls around it: a call made after a clear (in the order calls reach the engine, from
 * this tab, another tab or Node alike) starts only once that clear has settled, so it finds the memory empty and
 * reaches the parts the clear opened, not the ones it closed; a call made before it starts at once, and is answered
 * first or cleared with the rest. A clear that fails releases the calls behind it as one that succeeds does: the
 * engine then refuses them itself (`CLOSED`), rather than leave them waiting forever. A clear made while another waits
 * to finish, with no call between them, is that clear: it would find nothing more to remove.
 */
export class ClearBarrier {
  /** Settles (never rejects) once the latest clear has settled; undefined when none is under way. */
  private pending: Promise<void> | undefined
  /** The latest clear, while no call has been made after it. */
  private latest: Promise<number> | undefined

  /** Runs `call` now, or once the clear made before it has settled. */
  after<T>(call: () => Promise<T>): Promise<T> {
    this.latest = undefined
    return this.pending ? this.pending.then(call) : call()
  }

  /** Runs `clear` once the clear made before it (if any) has settled, and holds every later call until it settles. */
  clear(clear: () => Promise<number>): Promise<number> {
    if (this.latest) return this.latest
    const cleared = this.after(clear)
    const pending = cleared.then(
      () => undefined,
      () => undefined,
    )
    this.pending = pending
    this.latest = cleared
    void pending.then(() => {
      if (this.pending !== pending) return
      this.pending = undefined
      this.latest = undefined
    })
    return cleared
  }
}
