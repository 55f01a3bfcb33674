import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MessageChannel } from 'node:worker_threads'
import { expose, wrap } from 'comlink'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterAll, describe, expect, it } from 'vitest'
import * as nodeEntry from '../src/node'
import { WorkerMemory } from '../src/memory'
import { nodeHost } from '../worker/hosts/node/node-host'
import { installSiftErrorTransfer } from '../worker/rpc/sift-error-transfer'
import { workerApi, type WorkerApi } from '../worker/rpc/engine-api'

const { createMemory, SiftError, packBudget, splitSentences } = nodeEntry
const packageRoot = new URL('../', import.meta.url)
const cacheDir = mkdtempSync(join(tmpdir(), 'sift-embedding-cache-'))
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }))

const conversation = [
  { role: 'user', content: 'I bought a red bicycle yesterday. It has eleven gears.' },
  { role: 'assistant', content: 'Nice! Where will you ride it?' },
  { role: 'user', content: 'Along the river to work, about twelve kilometres each way.' },
]

describe('sift-memory/node', () => {
  it('exports createMemory, SiftError and the pure core', () => {
    expect(typeof createMemory).toBe('function')
    expect(new SiftError('CLOSED', 'x').code).toBe('CLOSED')
    expect(typeof packBudget).toBe('function')
    expect(splitSentences('One. Two.').map((s) => s.text)).toEqual(['One.', 'Two.'])
  })

  it('keeps separate memories apart by name, and by IndexedDB factory', async () => {
    const indexedDB = new IDBFactory()
    const a = await createMemory({ name: 'a', indexedDB, IDBKeyRange })
    const b = await createMemory({ name: 'b', indexedDB, IDBKeyRange })
    const c = await createMemory({ name: 'a' })
    await a.add(conversation)
    expect((await a.stats()).messages).toBe(3)
    expect((await b.stats()).messages).toBe(0)
    expect((await c.stats()).messages).toBe(0)
    await Promise.all([a.close(), b.close(), c.close()])
  })

  it('caches embeddings on disk: a second run in a fresh database reuses them and builds the same context', async () => {
    const run = async () => {
      const memory = await createMemory({ embeddingCacheDir: cacheDir })
      await memory.add(conversation)
      await memory.indexed()
      const ctx = await memory.buildContext('What did I buy?', { strategy: 'dense', budget: 120 })
      await memory.close()
      return ctx
    }
    const first = await run()
    const files = readdirSync(cacheDir)
    expect(files).toHaveLength(1)
    const size = statSync(join(cacheDir, files[0])).size
    // Header 12 bytes; each record is a 32-byte key and 512 float32s. Five sentences plus one query.
    expect(size).toBe(12 + 6 * (32 + 512 * 4))
    const second = await run()
    expect(statSync(join(cacheDir, files[0])).size).toBe(size)
    expect(second.text).toBe(first.text)
    expect(second.items.map((i) => i.score)).toEqual(first.items.map((i) => i.score))
  })
})

describe('the worker protocol (comlink over a real MessageChannel, engine on the Node host)', () => {
  it('forwards calls, keeps SiftError codes across the boundary, and refuses calls after close', async () => {
    installSiftErrorTransfer()
    const { port1, port2 } = new MessageChannel()
    expose(workerApi(() => nodeHost({}, packageRoot)), port1 as never)
    const remote = wrap<WorkerApi>(port2 as never)
    await remote.open({ name: 'protocol' })
    const memory = new WorkerMemory(remote, () => {
      port1.close()
      port2.close()
    })
    expect(await memory.add(conversation)).toHaveLength(3)
    await memory.indexed()
    const ctx = await memory.buildContext('bicycle gears', { budget: 200 })
    expect(ctx.text).toContain('eleven gears')
    const error = await memory.add({ role: 'user', content: 42 } as never).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SiftError)
    expect(error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('content must be a string') })
    await memory.close()
    const closed = await memory.stats().catch((e: unknown) => e)
    expect(closed).toMatchObject({ code: 'CLOSED' })
  })
})
