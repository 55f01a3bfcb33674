// The calls a tab makes on the engine another tab runs (src/tab-election.ts), over Node's BroadcastChannel and
// WebCrypto, with a stand-in engine and Web Locks: each call is answered, and the engine gets a tab's calls in the
// order the tab made them, also when WebCrypto settles a later, shorter seal or open first (Firefox does: a 16-byte
// encrypt issued after a 1 MB one resolved first in 27 of 200 tries).
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EngineConnection } from '../../src/memory'
import { TabElection } from '../../src/tab-election'
import type { EngineShape } from '../../src/tab-messages'
import type { KeyOptions } from '../../src/tab-channel-access'

/** Web Locks as TabElection uses them: exclusive, queued in request order, an aborted request never granted. */
class StandInLocks {
  private readonly held = new Set<string>()
  private readonly queues = new Map<string, (() => void)[]>()

  request(name: string, ...rest: unknown[]): Promise<unknown> {
    const callback = rest[rest.length - 1] as () => unknown
    const signal = (rest.length > 1 ? (rest[0] as { signal?: AbortSignal }) : {}).signal
    return new Promise((resolve, reject) => {
      const grant = () => {
        this.held.add(name)
        Promise.resolve()
          .then(callback)
          .then(resolve, reject)
          .finally(() => this.release(name))
      }
      if (!this.held.has(name)) return grant()
      const queue = this.queues.get(name) ?? []
      queue.push(grant)
      this.queues.set(name, queue)
      signal?.addEventListener('abort', () => {
        queue.splice(queue.indexOf(grant), 1)
        reject(signal.reason)
      })
    })
  }

  /** Holds `name` until the returned function is called (a worker's lifetime lock). */
  hold(name: string): () => void {
    let release: () => void = () => undefined
    void this.request(name, () => new Promise<void>((done) => (release = done)))
    return () => release()
  }

  private release(name: string): void {
    this.held.delete(name)
    this.queues.get(name)?.shift()?.()
  }
}

const shape = { name: 'ordered', device: 'wasm' } as EngineShape
/** Over this size, WebCrypto is slowed down: a large call is sealed and opened after a small one made after it. */
const LARGE = 100_000

let elections: TabElection[] = []
let releases: (() => void)[] = []
afterEach(() => {
  for (const election of elections) election.close()
  for (const release of releases) release()
  elections = []
  releases = []
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

/** The engine the leading tab runs: it records each call's method as it arrives, and answers at once. */
function standInEngine(locks: StandInLocks, arrived: string[]) {
  return async (): Promise<EngineConnection> => {
    const worker = `stand-in worker ${crypto.randomUUID()}`
    releases.push(locks.hold(worker))
    const answer =
      (method: string) =>
      async (...args: unknown[]) => {
        arrived.push(method)
        if (method === 'add') return (args[0] as unknown[]).map((_, i) => `id-${i}`)
        return { method }
      }
    const remote = new Proxy({}, { get: (_, method) => answer(String(method)) })
    return {
      remote: remote as EngineConnection['remote'],
      ended: new Promise<void>(() => undefined),
      terminate: () => undefined,
      lifetimeLock: worker,
    }
  }
}

/** A leading and a following tab on one memory, opened with `key` (none: a plain memory). */
async function twoTabs(key: KeyOptions) {
  const locks = new StandInLocks()
  vi.stubGlobal('navigator', { locks })
  const arrived: string[] = []
  const start = standInEngine(locks, arrived)
  const leader = new TabElection(shape.name!, shape, start, undefined, () => key)
  elections.push(leader)
  await leader.connect()
  const follower = new TabElection(shape.name!, shape, start, undefined, () => key)
  elections.push(follower)
  const connection = await follower.connect()
  expect(connection.followsAnotherTab).toBe(true)
  return { remote: connection.remote as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>, arrived }
}

/** WebCrypto's AES-GCM with large inputs held back, as a browser may finish them after later, smaller ones. */
function slowOnLargeInputs(): void {
  const subtle = crypto.subtle
  for (const method of ['encrypt', 'decrypt'] as const) {
    const real = subtle[method].bind(subtle)
    vi.spyOn(subtle, method).mockImplementation(async (algorithm, key, data) => {
      if ((data as ArrayBufferView).byteLength > LARGE) await new Promise((resolve) => setTimeout(resolve, 150))
      return real(algorithm, key, data)
    })
  }
}

function settled(call: Promise<unknown>): Promise<string> {
  return Promise.race([
    call.then(
      () => 'resolved',
      (error: { code?: string }) => `rejected ${error.code}`,
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve('unanswered after 5 s'), 5_000)),
  ])
}

describe('calls relayed to the tab running the engine', () => {
  for (const [kind, key] of [
    ['plain', {}],
    ['passphrase', { passphrase: 'orchard lantern 42' }],
  ] as const) {
    it(`${kind} memory: concurrent calls are each answered, and reach the engine in the order made, whatever order WebCrypto finishes in`, async () => {
      const { remote, arrived } = await twoTabs(key)
      slowOnLargeInputs()
      const long = { role: 'user', content: 'The harbour office keeps the parcel notes. '.repeat(4_000) }
      const calls = [
        remote.add([long]),
        remote.stats(),
        remote.messages({ limit: 1 }),
        remote.add([long]),
        remote.stats(),
      ]
      expect(await Promise.all(calls.map(settled))).toEqual(Array(calls.length).fill('resolved'))
      expect(arrived).toEqual(['add', 'stats', 'messages', 'add', 'stats'])
    })
  }

  it('a call that cannot be sealed fails alone: the calls made after it are still answered', async () => {
    const { remote, arrived } = await twoTabs({})
    const unsendable = remote.add({ role: 'user', content: 'x', extra: () => undefined })
    const after = remote.stats()
    expect(await settled(unsendable)).toMatch(/^rejected/)
    expect(await settled(after)).toBe('resolved')
    expect(arrived).toEqual(['stats'])
  })
})
