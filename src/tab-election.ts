import { SiftError } from './errors'
import { revivedError } from './error-transfer'
import type { EngineConnection } from './memory'
import { RELAYED_METHODS, SCHEMA_VERSION, type RelayedMethod } from './protocol'
import {
  type FollowerChannel,
  joinChannel,
  type KeyOptions,
  type LeaderChannel,
  messageContext,
  openLeaderChannel,
  rekeyedLeaderChannel,
  sendableKeyChange,
} from './tab-channel-access'
import { decodeTabValue, encodeTabValue } from './tab-message-codec'
import { type Announcement, type Answer, type EngineShape, isAnnouncement, type TabMessage } from './tab-messages'
import type { IndexProgress, KeyChange } from './types'
import { uniqueWorkerName, whenWorkerEnds } from './worker-lifetime'
import { CallRelay } from './tab-call-relay'

/** Starts an engine worker with the memory open as `shape` says, reporting progress to `onProgress`. */
type StartEngine = (onProgress: (progress: IndexProgress) => void, shape: EngineShape) => Promise<EngineConnection>

/** A follower's call waiting for its result, and what opens that result (none: it comes in clear). */
interface PendingCall {
  resolve(value: unknown): void
  reject(error: unknown): void
  channel: FollowerChannel
}

/**
 * One engine per database name per origin, across tabs: the memories of one name elect a leader with a Web Lock.
 * The leader runs the engine in its dedicated worker, as a lone tab would; every other memory of that name (in other
 * tabs, or the same one) forwards its calls to the leader over a `BroadcastChannel` and gets the leader's progress
 * events. Followers watch the leader's worker through its lifetime lock (src/worker-lifetime.ts): when the leader's
 * tab closes or its worker ends, their unanswered calls reject with `WORKER_FAILED`, the waiting lock request of one
 * of them is granted, and it opens the engine again, backlog and all, with the options the leader announced; the
 * others follow it.
 *
 * Every script of the origin can listen on that channel, so no secret crosses it in clear (src/tab-channel-access.ts):
 * a follower proves it holds an encrypted memory's key by opening the channel key the leader announces sealed with
 * it, never by sending it, and joining waits for nothing but that announcement.
 *
 * A Web Lock rather than a SharedWorker: SharedWorker is missing on Chrome for Android, and the dedicated worker
 * keeps its nested model worker and its end detection exactly as in a single tab. Memories of another schema version
 * (another release of Sift in another tab) elect apart: the newer one upgrades the database, and the engine of the
 * older stops when IndexedDB tells it (`versionchange`, worker/store/store.ts). Where Web Locks or BroadcastChannel
 * are missing (not a secure context), each memory runs its own engine, uncoordinated.
 */
export class TabElection {
  private readonly group: string
  private readonly channel: BroadcastChannel
  private readonly abort = new AbortController()
  private readonly leadership: Promise<void>
  private resign: () => void = () => undefined
  private leading = false
  /** The leader's engine, shared by its own memory and the relayed calls; replaced once it ended. */
  private serving: Promise<EngineConnection> | undefined
  private servingEnded = true
  /** The shape the serving engine was opened with. */
  private servingShape: EngineShape
  /** The leader's side of the channel, made when it first leads; `changeKey` re-keys it. */
  private leaderChannel: Promise<LeaderChannel> | undefined
  /** The shape of the last leader this memory followed: the one it opens the engine with when it takes over. */
  private inherited: EngineShape | undefined
  private closed = false
  /** The leader's memory is closing: relayed calls are no longer answered; the lock is released once the engine closed. */
  private stopping = false
  /** Followers: the channel to the leader followed now. */
  private following: FollowerChannel | undefined
  /** Followers: the relayed calls awaiting their result. */
  private readonly pending = new Map<string, PendingCall>()
  private readonly announcementHeard = new Set<(announcement: Announcement) => void>()
  /** Progress events are sealed and opened one after another, so that they keep their order. */
  private progressSent: Promise<void> = Promise.resolve()
  private progressReceived: Promise<void> = Promise.resolve()
  /**
   * Followers: calls are sealed and posted one after another, in the order they were made. WebCrypto may settle a
   * later, shorter seal first (Firefox does), and the leader runs a follower's calls by their numbers, once each
   * (src/tab-call-relay.ts): a call overtaken by a later one would be taken for one relayed already and never answered.
   */
  private callsSent: Promise<void> = Promise.resolve()
  /** Leaders: the calls followers relay, opened and run on this memory's engine. */
  private readonly relay: CallRelay

  static supported(): boolean {
    return typeof BroadcastChannel === 'function' && typeof navigator === 'object' && navigator.locks !== undefined
  }

  constructor(
    private readonly name: string,
    /** The options this memory was given, but its key. */
    private readonly ownShape: EngineShape,
    private readonly start: StartEngine,
    private readonly onProgress: ((progress: IndexProgress) => void) | undefined,
    /** This memory's passphrase or key as it is now (`changeKey` replaces it). */
    private readonly keyOptions: () => KeyOptions = () => ({}),
  ) {
    this.servingShape = ownShape
    // Grouped by schema too: a tab running a newer Sift must open the database itself (see SCHEMA_VERSION).
    this.group = `${name} schema ${SCHEMA_VERSION}`
    this.relay = new CallRelay({
      group: this.group,
      name,
      leaderChannel: () => this.leaderChannel,
      lead: () => this.lead(),
      post: (message) => this.post(message),
    })
    this.channel = new BroadcastChannel(`sift-memory tabs ${this.group}`)
    this.channel.onmessage = (event: MessageEvent<TabMessage>) => this.receive(event.data)
    this.leadership = new Promise<void>((granted, refused) => {
      navigator.locks
        .request(`sift-memory leader ${this.group}`, { signal: this.abort.signal }, () => {
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
      const announced = this.nextAnnouncement()
      this.post({ type: 'who' })
      const outcome = await Promise.race([this.leadership.then(() => undefined), announced.heard])
      announced.stop()
      if (outcome !== undefined) return this.follow(outcome)
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
    this.leaderChannel ??= openLeaderChannel(this.group, this.keyOptions())
    if (!this.serving || this.servingEnded) {
      this.servingEnded = false
      const shape = this.inherited ?? this.ownShape
      const started = this.start((progress) => {
        this.onProgress?.(progress)
        this.sendProgress(progress)
      }, shape)
      this.serving = started
      this.servingShape = shape
      started.then(
        (connection) => {
          void connection.ended.then(() => (this.servingEnded = true))
          void this.announce(connection)
        },
        () => (this.servingEnded = true),
      )
    }
    const serving = this.serving
    return serving.then((connection) => ({
      ...connection,
      remote: {
        ...forwardTo(connection),
        changeKey: (next: KeyChange) => this.changeKey(connection, next),
        // Relayed calls stop before the engine closes, so followers get WORKER_FAILED and retry with the next leader.
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

  /** The key changes, and the channel's access with it: from then on only a tab with the new key can join. */
  private async changeKey(connection: EngineConnection, next: KeyChange): Promise<void> {
    await connection.remote.changeKey(next)
    const before = await this.leaderChannel!
    this.leaderChannel = rekeyedLeaderChannel(this.group, before, next)
    await this.leaderChannel
  }

  private async follow(leader: Announcement): Promise<EngineConnection> {
    let channel = await joinChannel(this.group, this.name, leader.access, this.keyOptions())
    this.following = channel
    this.inherited = leader.shape
    const session = uniqueWorkerName('tab')
    let calls = 0
    const call = async (method: RelayedMethod, args: unknown[]): Promise<unknown> => {
      const id = `${session}:${++calls}`
      const via = channel
      let reply: Promise<unknown> | undefined
      const sent = this.callsSent.then(async () => {
        const given = method === 'changeKey' ? [await sendableKeyChange(args[0])] : args
        const sealed = await via.cipher.seal(
          encodeTabValue({ method, args: given }),
          messageContext(this.group, 'call', id),
        )
        if (this.closed) throw new SiftError('CLOSED', 'This memory is closed; create a new one with createMemory().')
        reply = new Promise((resolve, reject) => {
          this.pending.set(id, { resolve, reject, channel: via })
          this.post({ type: 'call', id, sealed, exchangeKey: via.exchangeKey })
        })
      })
      this.callsSent = sent.catch(() => undefined)
      await sent
      return reply
    }
    const relayed = Object.fromEntries(
      RELAYED_METHODS.map((method) => [method, (...args: unknown[]) => call(method, args)]),
    )
    const ended = whenWorkerEnds(leader.worker)
    const remote = {
      ...relayed,
      // A plain memory just encrypted: what crosses from now on is sealed with the channel key the new key opens.
      changeKey: async (next: KeyChange) => {
        await call('changeKey', [next])
        if (!channel.exchangeKey) return
        const announced = this.nextAnnouncement(leader.worker)
        this.post({ type: 'who' })
        const encrypted = await Promise.race([announced.heard, ended.then(() => undefined)])
        announced.stop()
        if (!encrypted) return
        channel = await joinChannel(this.group, this.name, encrypted.access, next)
        this.following = channel
      },
      // A follower's close detaches it only: the engine is the leader's.
      close: async () => undefined,
      open: async () => undefined,
    }
    return {
      remote: remote as unknown as EngineConnection['remote'],
      ended,
      lifetimeLock: leader.worker,
      followsAnotherTab: true,
      terminate: () => this.close(),
    }
  }

  /** The next announcement (from `worker`'s leader only, and then only an encrypted memory's, when given). */
  private nextAnnouncement(worker?: string): { heard: Promise<Announcement>; stop(): void } {
    let stop = () => undefined as undefined
    const heard = new Promise<Announcement>((hear) => {
      const listener = (announcement: Announcement) => {
        if (worker === undefined || (announcement.worker === worker && announcement.access.kind !== 'plain'))
          hear(announcement)
      }
      this.announcementHeard.add(listener)
      stop = () => void this.announcementHeard.delete(listener)
    })
    return { heard, stop }
  }

  private receive(message: TabMessage): void {
    if (this.closed || this.stopping) return
    switch (message.type) {
      case 'who':
        if (this.leading && this.serving) void this.answerWho()
        return
      case 'leader':
        if (isAnnouncement(message)) for (const heard of this.announcementHeard) heard(message)
        return
      case 'call':
        if (this.leading) void this.relay.relay(message)
        return
      case 'result':
        void this.settle(message)
        return
      case 'progress':
        if (!this.leading) this.progressReceived = this.progressReceived.then(() => this.receiveProgress(message))
        return
    }
  }

  private async answerWho(): Promise<void> {
    const connection = await this.lead().catch(() => undefined)
    if (connection) await this.announce(connection)
  }

  private async announce(connection: EngineConnection): Promise<void> {
    const channel = await this.leaderChannel?.catch(() => undefined)
    if (channel && connection.lifetimeLock)
      this.post({ type: 'leader', worker: connection.lifetimeLock, shape: this.servingShape, access: channel.access })
  }

  /**
   * A follower's call answered. A sealed answer must open with the channel it was sent on; an encrypted memory's
   * follower takes nothing but an error in clear, so that no script of the origin can answer in the leader's place.
   */
  private async settle({ id, sealed, answer }: Extract<TabMessage, { type: 'result' }>): Promise<void> {
    const waiting = this.pending.get(id)
    if (!waiting) return
    let outcome: Answer | undefined
    if (sealed) {
      const opened = await waiting.channel.cipher.open(sealed, messageContext(this.group, 'result', id))
      outcome = opened && (decodeTabValue(opened) as Answer)
    } else if (answer && (waiting.channel.exchangeKey || answer.error)) outcome = answer
    if (!outcome || !this.pending.has(id)) return
    this.pending.delete(id)
    if (outcome.error) waiting.reject(revivedError(outcome.error))
    else waiting.resolve(outcome.value)
  }

  private sendProgress(progress: IndexProgress): void {
    this.progressSent = this.progressSent.then(async () => {
      const channel = await this.leaderChannel?.catch(() => undefined)
      if (!channel) return
      if (!channel.cipher) this.post({ type: 'progress', progress })
      else
        this.post({
          type: 'progress',
          sealed: await channel.cipher.seal(encodeTabValue(progress), messageContext(this.group, 'progress')),
        })
    })
  }

  /** A follower of an encrypted memory takes only sealed progress events, one of a plain memory only clear ones. */
  private async receiveProgress({ sealed, progress }: Extract<TabMessage, { type: 'progress' }>): Promise<void> {
    const channel = this.following
    if (!this.onProgress || !channel) return
    if (channel.exchangeKey) {
      if (progress) this.onProgress(progress)
      return
    }
    const opened =
      sealed && (await channel.cipher.open(sealed, messageContext(this.group, 'progress')).catch(() => undefined))
    if (opened) this.onProgress(decodeTabValue(opened) as IndexProgress)
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
