import { SiftError } from './errors'
import { revivedError, serializedError, type SerializedError } from './error-transfer'
import type { EngineConnection } from './memory'
import { RELAYED_METHODS, SCHEMA_VERSION, type RelayedMethod } from './protocol'
import type { IndexProgress, MemoryOptions } from './types'
import { uniqueWorkerName, whenWorkerEnds } from './worker-lifetime'

/** Starts an engine worker with the memory open, reporting progress to `onProgress`. */
type StartEngine = (onProgress: (progress: IndexProgress) => void) => Promise<EngineConnection>

/** The passphrase or key this memory was given, which a follower checks against the leader's engine before using it. */
type KeyOptions = Pick<MemoryOptions, 'passphrase' | 'key'>

/** What the memories of one name say to each other over their `BroadcastChannel`. */
type TabMessage =
  | { type: 'who' }
  | { type: 'leader'; worker: string }
  | { type: 'call'; id: string; method: RelayedMethod; args: unknown[] }
  | { type: 'result'; id: string; value?: unknown; error?: SerializedError }
  | { type: 'progress'; progress: IndexProgress }

/**
 * One engine per database name per origin, across tabs: the memories of one name elect a leader with a Web Lock.
 * The leader runs the engine in its dedicated worker, as a lone tab would; every other memory of that name (in other
 * tabs, or the same one) forwards its calls to the leader over a `BroadcastChannel` and gets the leader's progress
 * events. Followers watch the leader's worker through its lifetime lock (src/worker-lifetime.ts): when the leader's
 * tab closes or its worker ends, their unanswered calls reject with `WORKER_FAILED`, the waiting lock request of one
 * of them is granted, and it opens the engine again, backlog and all; the others follow it.
 *
 * A Web Lock rather than a SharedWorker: SharedWorker is missing on Chrome for Android, and the dedicated worker
 * keeps its nested model worker and its end detection exactly as in a single tab. Memories of another schema version
 * (another release of Sift in another tab) elect apart: the newer one upgrades the database, and the engine of the
 * older stops when IndexedDB tells it (`versionchange`, worker/store/store.ts). Where Web Locks or BroadcastChannel
 * are missing (not a secure context), each memory runs its own engine, uncoordinated.
 */
export class TabElection {
  private readonly channel: BroadcastChannel
  private readonly abort = new AbortController()
  private readonly leadership: Promise<void>
  private resign: () => void = () => undefined
  private leading = false
  /** The leader's engine, shared by its own memory and the relayed calls; replaced once it ended. */
  private serving: Promise<EngineConnection> | undefined
  private servingEnded = true
  private closed = false
  /** The leader's memory is closing: relayed calls are no longer answered; the lock is released once the engine closed. */
  private stopping = false
  /** Followers: the relayed calls awaiting their result. */
  private readonly pending = new Map<string, { resolve(value: unknown): void; reject(error: unknown): void }>()
  private readonly leaderHeard = new Set<(worker: string) => void>()

  static supported(): boolean {
    return typeof BroadcastChannel === 'function' && typeof navigator === 'object' && navigator.locks !== undefined
  }

  constructor(
    name: string,
    private readonly start: StartEngine,
    private readonly onProgress: ((progress: IndexProgress) => void) | undefined,
    /** This memory's passphrase or key as it is now (`changeKey` replaces it). */
    private readonly keyOptions: () => KeyOptions = () => ({}),
  ) {
    // Grouped by schema too: a tab running a newer Sift must open the database itself (see SCHEMA_VERSION).
    const group = `${name} schema ${SCHEMA_VERSION}`
    this.channel = new BroadcastChannel(`sift-memory tabs ${group}`)
    this.channel.onmessage = (event: MessageEvent<TabMessage>) => this.receive(event.data)
    this.leadership = new Promise<void>((granted, refused) => {
      navigator.locks
        .request(`sift-memory leader ${group}`, { signal: this.abort.signal }, () => {
          this.leading = true
          granted()
          // Held until this memory closes, or its tab ends.
          return new Promise<void>((release) => (this.resign = release))
        })
        .catch(refused)
    })
    this.leadership.catch(() => undefined)
  }

  /** The engine this memory talks to: its own as leader, else the leader's, whichever comes first. */
  async connect(): Promise<EngineConnection> {
    if (this.closed) throw new SiftError('CLOSED', 'This memory is closed; create a new one with createMemory().')
    if (!this.leading) {
      let stopListening = () => undefined as undefined
      const leaderWorker = new Promise<string>((heard) => {
        this.leaderHeard.add(heard)
        stopListening = () => void this.leaderHeard.delete(heard)
      })
      this.post({ type: 'who' })
      const outcome = await Promise.race([this.leadership.then(() => undefined), leaderWorker])
      stopListening()
      if (outcome !== undefined) return this.follow(outcome, this.keyOptions())
    }
    return this.lead()
  }

  /** This memory has closed: the leader stops serving and lets another memory lead; a follower stops waiting to. */
  close(): void {
    this.closed = true
    this.abort.abort()
    this.resign()
    this.channel.close()
    for (const { reject } of this.pending.values())
      reject(new SiftError('CLOSED', 'This memory is closed; create a new one with createMemory().'))
    this.pending.clear()
  }

  private lead(): Promise<EngineConnection> {
    if (!this.serving || this.servingEnded) {
      this.servingEnded = false
      const started = this.start((progress) => {
        this.onProgress?.(progress)
        this.post({ type: 'progress', progress })
      })
      this.serving = started
      started.then(
        (connection) => {
          void connection.ended.then(() => (this.servingEnded = true))
          if (connection.lifetimeLock) this.post({ type: 'leader', worker: connection.lifetimeLock })
        },
        () => (this.servingEnded = true),
      )
    }
    const serving = this.serving
    return serving.then((connection) => ({
      ...connection,
      // Relayed calls stop before the engine closes, so followers get WORKER_FAILED and retry with the next leader.
      remote: {
        ...forwardTo(connection),
        close: () => {
          this.stopping = true
          return connection.remote.close()
        },
      } as unknown as EngineConnection['remote'],
      terminate: () => {
        connection.terminate()
        this.close()
      },
    }))
  }

  private async follow(worker: string, key: KeyOptions): Promise<EngineConnection> {
    const call = (method: RelayedMethod, args: unknown[]): Promise<unknown> =>
      new Promise((resolve, reject) => {
        const id = uniqueWorkerName('call')
        this.pending.set(id, { resolve, reject })
        try {
          this.channel.postMessage({ type: 'call', id, method, args } satisfies TabMessage)
        } catch (error) {
          this.pending.delete(id)
          reject(error)
        }
      })
    const relayed = Object.fromEntries(
      RELAYED_METHODS.map((method) => [method, (...args: unknown[]) => call(method, args)]),
    )
    // A follower's close detaches it only: the engine is the leader's.
    const remote = { ...relayed, close: async () => undefined, open: async () => undefined }
    // The leader's engine holds the memory open with the leader's key: this memory must have been given the same one.
    try {
      await call('checkKey', [key])
    } catch (error) {
      this.close()
      throw error
    }
    return {
      remote: remote as unknown as EngineConnection['remote'],
      ended: whenWorkerEnds(worker),
      lifetimeLock: worker,
      followsAnotherTab: true,
      terminate: () => this.close(),
    }
  }

  private receive(message: TabMessage): void {
    if (this.closed || this.stopping) return
    switch (message.type) {
      case 'who':
        if (this.leading && this.serving) void this.answerWho()
        return
      case 'leader':
        for (const heard of this.leaderHeard) heard(message.worker)
        return
      case 'call':
        if (this.leading) void this.relay(message.id, message.method, message.args)
        return
      case 'result': {
        const waiting = this.pending.get(message.id)
        if (!waiting) return
        this.pending.delete(message.id)
        if (message.error) waiting.reject(revivedError(message.error))
        else waiting.resolve(message.value)
        return
      }
      case 'progress':
        if (!this.leading) this.onProgress?.(message.progress)
        return
    }
  }

  private async answerWho(): Promise<void> {
    const connection = await this.lead().catch(() => undefined)
    if (connection?.lifetimeLock) this.post({ type: 'leader', worker: connection.lifetimeLock })
  }

  private async relay(id: string, method: RelayedMethod, args: unknown[]): Promise<void> {
    let answer: TabMessage
    try {
      const connection = await this.lead()
      const value = await (connection.remote[method] as (...args: unknown[]) => Promise<unknown>)(...args)
      answer = { type: 'result', id, value }
    } catch (error) {
      answer = { type: 'result', id, error: serializedError(error) }
    }
    this.post(answer)
  }

  private post(message: TabMessage): void {
    if (!this.closed && !this.stopping) this.channel.postMessage(message)
  }
}

/** The engine's methods, called through `connection` (a comlink proxy, whose methods cannot be copied by spreading it). */
function forwardTo(connection: EngineConnection): EngineConnection['remote'] {
  const remote = connection.remote as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>
  const methods = [...RELAYED_METHODS, 'open', 'close'] as const
  return Object.fromEntries(
    methods.map((method) => [method, (...args: unknown[]) => remote[method](...args)]),
  ) as unknown as EngineConnection['remote']
}
