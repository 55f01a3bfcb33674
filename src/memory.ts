import type { Remote } from 'comlink'
import { SiftError, withSiftErrors } from './errors'
import { RELAYED_METHODS, type EngineApi, type RelayedMethod } from './protocol'
import { UnansweredCalls } from './worker-lifetime'
import type { KeyChange, Memory, MemoryStats } from './types'

/** One engine worker with its memory open. */
export interface EngineConnection {
  remote: Remote<EngineApi>
  /** Resolves when the worker has ended, however it ended; never where the browser cannot tell (see `whenWorkerEnds`). */
  ended: Promise<void>
  /** Ends the worker. */
  terminate(): void
  /** The worker's lifetime lock (src/worker-lifetime.ts), by which other tabs following this engine learn of its end. */
  lifetimeLock?: string
  /**
   * Whether the engine is another tab's (src/tab-election.ts): its end says nothing about this memory's own health,
   * so the memory reconnects at once, to the next leader or as it.
   */
  followsAnotherTab?: boolean
}

// The class declares the methods that do more than forward (`changeKey`, `stats`, `close`); the constructor adds the
// others, which this interface declares.
export interface WorkerMemory extends Memory {}

/**
 * The main-thread side of a memory whose engine runs in a Web Worker: each call is forwarded; `close` then ends the
 * worker.
 *
 * When the worker ends on its own (the browser stopped it, it crashed), the calls it had not answered reject with
 * `WORKER_FAILED`, and a new worker re-opens the same memory with the same options (`reopen`): the stored history is
 * all there, the backlog resumes, and later calls work. Restarting here rather than asking the app to call
 * `createMemory` again keeps the app's `Memory` object valid, so a chat keeps working without any code of its own
 * for this. A worker that ends before answering any call is not restarted at once (it would likely end again): the
 * next call starts the new one.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the constructor sets every forwarding method the interface adds.
export class WorkerMemory {
  private closing: Promise<void> | undefined
  /** The worker calls go to; undefined after a restart failed or was deferred, until the next call starts one. */
  private connection: Promise<EngineConnection> | undefined
  /** Whether the current worker answered a call since it opened: a worker that never did is not restarted unasked. */
  private answered = false
  private readonly unanswered = new WeakMap<EngineConnection, UnansweredCalls>()
  /** What the page found of this memory's database as it opened (`stats().storage.evicted`, src/storage-loss.ts). */
  evicted: boolean | undefined

  constructor(
    first: EngineConnection,
    private readonly reopen: () => Promise<EngineConnection>,
    /** Told the new key once `changeKey` succeeded, so that `reopen` opens the memory with it from then on. */
    private readonly keyChanged?: (next: KeyChange) => void,
  ) {
    this.connection = Promise.resolve(first)
    this.watch(first)
    // Every other method of `Memory` only forwards to the engine: made here from the one list of them.
    const self = this as unknown as Record<RelayedMethod, unknown>
    for (const method of RELAYED_METHODS)
      if (!(method in this))
        self[method] = (...args: unknown[]) => this.call(method, (remote) => forward(remote, method, args))
  }

  async changeKey(next: KeyChange): Promise<void> {
    await this.call('changeKey', (remote) => remote.changeKey(next))
    this.keyChanged?.(next)
  }

  async stats(): Promise<MemoryStats> {
    const stats = await this.call('stats', (remote) => remote.stats())
    if (stats.storage && this.evicted !== undefined) stats.storage.evicted = this.evicted
    return stats
  }

  close(): Promise<void> {
    this.closing ??= withSiftErrors('close', async () => {
      const connection = await this.connection?.catch(() => undefined)
      if (!connection) return
      try {
        // A worker that ended has nothing left to close.
        await Promise.race([connection.remote.close(), connection.ended])
      } finally {
        connection.terminate()
      }
    })
    return this.closing
  }

  /**
   * A terminated worker never answers, so calls after close must be refused here rather than forwarded. What
   * fails on this side of the channel (an argument that cannot be cloned) reaches the caller as a `SiftError` too.
   */
  private async call<T>(method: keyof Memory, forward: (remote: Remote<EngineApi>) => Promise<T>): Promise<T> {
    if (this.closing) throw new SiftError('CLOSED', 'This memory is closed; create a new one with createMemory().')
    return withSiftErrors(method, async () => {
      const connection = await (this.connection ?? this.restart())
      const unanswered = this.unanswered.get(connection)!
      const result = await unanswered.track(
        // A promise of the call, so that what comlink throws at once (reading a Proxy argument) is refused as well.
        new Promise<T>((resolve) => resolve(forward(connection.remote))).catch(refuseUnsendable(method)),
        () =>
          new SiftError(
            'WORKER_FAILED',
            `The Sift worker stopped before ${method}() finished; the memory is re-opened in a new worker, so retry the call. ` +
              'An add() may have been stored already: give messages an id, and a retry that gets DUPLICATE_ID was stored.',
          ),
      )
      this.answered = true
      return result
    })
  }

  private restart(): Promise<EngineConnection> {
    const started = this.reopen()
    this.connection = started
    this.answered = false
    started.then(
      (connection) => this.watch(connection),
      () => {
        // The next call tries again.
        if (this.connection === started) this.connection = undefined
      },
    )
    return started
  }

  private watch(connection: EngineConnection): void {
    const unanswered = new UnansweredCalls()
    this.unanswered.set(connection, unanswered)
    void connection.ended.then(async () => {
      unanswered.end()
      if (this.closing || (await this.connection?.catch(() => undefined)) !== connection) return
      if (this.answered || connection.followsAnotherTab) this.restart().catch(() => undefined)
      else this.connection = undefined
    })
  }
}

/**
 * What fails on this side of the channel, before the call reaches the engine: comlink (or, for a memory another tab
 * runs, the tab channel) clones the arguments, and structured clone refuses functions, symbols, DOM nodes and the
 * like (`DataCloneError`), runs the app's getters and Proxy traps (which may throw), and gives up on nesting too deep
 * (`RangeError`). Everything the engine rejects with is a `SiftError`; anything else here is an argument that cannot be
 * sent, refused as the app's input: `INVALID_IMPORT` for `import`, else `INVALID_INPUT`.
 */
export function refuseUnsendable(method: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof SiftError) throw error
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    throw new SiftError(
      method === 'import' ? 'INVALID_IMPORT' : 'INVALID_INPUT',
      `An argument of ${method}() cannot be sent to the Sift worker (${detail}): pass plain data (strings, numbers, Dates, plain objects and arrays), not functions, objects with methods or throwing getters, Proxies, or structures nested thousands deep. Nothing was stored.`,
      { cause: error },
    )
  }
}

/** `remote[method](...args)`: comlink's proxy has every method, each taking what `Memory`'s takes. */
function forward(remote: Remote<EngineApi>, method: RelayedMethod, args: unknown[]): Promise<unknown> {
  return (remote[method] as (...args: unknown[]) => Promise<unknown>)(...args)
}
