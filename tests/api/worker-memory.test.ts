// WorkerMemory when its engine's worker ends: the real engine (Node host, fake-indexeddb) behind a real comlink
// MessageChannel. Here the test ends the "worker" by closing its port and says so through `ended`; in the browser
// the worker's lifetime lock says so (e2e/worker-faults.test.ts proves that part in Chromium).
import { MessageChannel } from 'node:worker_threads'
import { expose, wrap } from 'comlink'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, it, vi } from 'vitest'
import { installSiftErrorTransfer } from '../../src/error-transfer'
import { SiftError } from '../../src/errors'
import { WorkerMemory, type EngineConnection } from '../../src/memory'
import type { EngineApi } from '../../src/protocol'
import { nodeHost } from '../../worker/hosts/node/node-host'
import { engineApi } from '../../worker/rpc/engine-api'

const packageRoot = new URL('../../', import.meta.url)

/** An engine "worker" on a MessageChannel over one shared IndexedDB, and a way to make it end without a word. */
interface TestWorker extends EngineConnection {
  /** Stops answering (the port closes) and then reports the end, as a terminated or crashed worker does. */
  die(): void
}

function engineWorkers(name: string) {
  const indexedDB = new IDBFactory()
  const started: TestWorker[] = []
  const open = async (): Promise<TestWorker> => {
    installSiftErrorTransfer()
    const { port1, port2 } = new MessageChannel()
    expose(
      engineApi(() =>
        nodeHost(
          {
            indexedDB: indexedDB as unknown as globalThis.IDBFactory,
            IDBKeyRange: IDBKeyRange as unknown as typeof globalThis.IDBKeyRange,
          },
          packageRoot,
        ),
      ),
      port1 as never,
    )
    const remote = wrap<EngineApi>(port2 as never)
    await remote.open({ name })
    let end: () => void = () => undefined
    const ended = new Promise<void>((resolve) => (end = resolve))
    const worker: TestWorker = {
      remote,
      ended,
      terminate: () => {
        port1.close()
        port2.close()
      },
      die: () => {
        port1.close()
        end()
      },
    }
    started.push(worker)
    return worker
  }
  return { open, started }
}

const turns = [
  { role: 'user', content: 'The spare key is under the blue flowerpot.' },
  { role: 'assistant', content: 'Got it, under the blue flowerpot.' },
]

describe('WorkerMemory when its worker ends', () => {
  it('rejects the call in flight with WORKER_FAILED, re-opens the same memory in a new worker, and later calls see the history', async () => {
    const workers = engineWorkers('restart')
    const memory = new WorkerMemory(await workers.open(), workers.open)
    const ids = await memory.add(turns)
    const [first] = workers.started
    // Posted to a worker that no longer reads its port: only the end tells this call it will get no answer.
    const inFlight = memory.stats().catch((e: unknown) => e)
    first.die()
    const error = await inFlight
    expect(error).toBeInstanceOf(SiftError)
    expect(error).toMatchObject({ code: 'WORKER_FAILED', message: expect.stringContaining('before stats() finished') })

    // Re-opened before any further call, so the backlog resumes by itself. The re-open opens a whole engine, which
    // takes seconds on a loaded machine (vi.waitFor's default is one second). The count is compared, not the array:
    // printing a worker on failure would stringify its comlink proxy, which throws instead of showing the count.
    await vi.waitFor(() => expect(workers.started.length).toBe(2), { timeout: 60_000 })
    await memory.indexed()
    expect(await memory.stats()).toMatchObject({ messages: 2, pending: 0 })
    const context = await memory.buildContext('where is the key', { strategy: 'full' })
    expect(context.items.map((item) => item.messageId)).toEqual(expect.arrayContaining(ids))
    expect(context.text).toContain('blue flowerpot')
    await memory.close()
    expect(await memory.add(turns[0]).catch((e: unknown) => e)).toMatchObject({ code: 'CLOSED' })
  })

  it('restarts a worker that ended before answering any call only when the next call comes, and retries a failed restart on the call after', async () => {
    const workers = engineWorkers('deferred')
    let refuse = true
    let reopens = 0
    const reopen = () => {
      reopens++
      return refuse ? Promise.reject(new SiftError('WORKER_FAILED', 'refused by the test')) : workers.open()
    }
    const memory = new WorkerMemory(await workers.open(), reopen)
    workers.started[0].die()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(workers.started).toHaveLength(1)
    // Not restarted when it ended (a restart is attempted, refused or not, only when a call comes).
    expect(reopens).toBe(0)
    expect(await memory.stats().catch((e: unknown) => e)).toMatchObject({
      code: 'WORKER_FAILED',
      message: 'refused by the test',
    })
    expect(reopens).toBe(1)
    refuse = false
    expect(await memory.stats()).toMatchObject({ messages: 0 })
    expect(reopens).toBe(2)
    expect(workers.started).toHaveLength(2)
    await memory.close()
  })
})
