import { createRequire } from 'node:module'
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MessageChannel, type MessagePort } from 'node:worker_threads'
import { expose, wrap, type Remote } from 'comlink'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterAll, describe, expect, it } from 'vitest'
import * as nodeEntry from '../../src/node'
import { installSiftErrorTransfer } from '../../src/error-transfer'
import { WorkerMemory, type EngineConnection } from '../../src/memory'
import type { EngineApi } from '../../src/protocol'
import { nodeHost } from '../../worker/hosts/node/node-host'
import { engineApi } from '../../worker/rpc/engine-api'

const { createMemory, SiftError, packBudget, splitSentences } = nodeEntry
const packageRoot = new URL('../../', import.meta.url)
const cacheDir = mkdtempSync(join(tmpdir(), 'sift-embedding-cache-'))
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }))

/** The public API of both entries: everything else in src/core is internal. */
const PUBLIC_VALUES = [
  'DEFAULT_EXCERPTS_HEADING',
  'FORGET_TOOL',
  'RECALL_TOOL',
  'SiftError',
  'chatPrompt',
  'createMemory',
  'findStatementsToForget',
  'forgetRestatements',
  'forgetStatements',
  'isSiftError',
  'packBudget',
  'recall',
  'recallResult',
  'renderContext',
  'splitSentences',
  'statementsToForget',
  'toAnthropicPrompt',
  'toOpenAIMessages',
]

/** A file where a folder is expected: Node's fs fails with ENOTDIR, an error no part of Sift maps to a code. */
function fileNotFolder(): string {
  const path = join(cacheDir, 'not-a-folder')
  writeFileSync(path, 'plain file')
  return path
}

/** A connection to an engine exposed on a MessageChannel, ended by closing both ports; its far end never ends by itself. */
function connectionOver(remote: Remote<EngineApi>, ...ports: MessagePort[]): EngineConnection {
  return { remote, ended: new Promise(() => undefined), terminate: () => ports.forEach((port) => port.close()) }
}

const conversation = [
  { role: 'user', content: 'I bought a red bicycle yesterday. It has eleven gears.' },
  { role: 'assistant', content: 'Nice! Where will you ride it?' },
  { role: 'user', content: 'Along the river to work, about twelve kilometres each way.' },
]

describe('sift-memory/node', () => {
  it('exports exactly the public API, the same values as the browser entry', async () => {
    expect(Object.keys(nodeEntry).sort()).toEqual(PUBLIC_VALUES)
    expect(Object.keys(await import('../../src/index')).sort()).toEqual(PUBLIC_VALUES)
  })

  it('exports createMemory, SiftError and the pure helpers', () => {
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

  it('refuses at createMemory, with INVALID_INPUT, a factory whose IDBKeyRange is not the one it would use', async () => {
    // fake-indexeddb's CommonJS build is a second copy of it: its factory does not take the ES build's key ranges, as
    // an app's own copy does not take the one bundled into Sift.
    const otherCopy = createRequire(import.meta.url)('fake-indexeddb') as typeof import('fake-indexeddb')
    expect(otherCopy.IDBKeyRange).not.toBe(IDBKeyRange)
    for (const name of ['fresh', 'existing']) {
      const indexedDB = new otherCopy.IDBFactory()
      if (name === 'existing') {
        const made = await createMemory({ name, indexedDB, IDBKeyRange: otherCopy.IDBKeyRange })
        await made.add([{ role: 'user', content: 'Kept.', timestamp: 1 }])
        await made.close()
      }
      const refused = await createMemory({ name, indexedDB }).then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(refused).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('IDBKeyRange') })
      const memory = await createMemory({ name, indexedDB, IDBKeyRange: otherCopy.IDBKeyRange })
      expect((await memory.messages()).messages).toHaveLength(name === 'existing' ? 1 : 0)
      expect(await memory.forget({ before: 2 })).toBe(name === 'existing' ? 1 : 0)
      await memory.close()
    }
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

  it('reports an embedding cache file it did not write as STORAGE_FAILED', async () => {
    const dir = mkdtempSync(join(cacheDir, 'foreign-'))
    const first = await createMemory({ embeddingCacheDir: dir })
    await first.add(conversation)
    await first.indexed()
    await first.close()
    const [file] = readdirSync(dir)
    writeFileSync(join(dir, file), 'not a cache, but long enough to hold a header')
    const error = await createMemory({ embeddingCacheDir: dir }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SiftError)
    expect(error).toMatchObject({
      code: 'STORAGE_FAILED',
      message: expect.stringContaining('is not a Sift embedding cache'),
    })
  })

  it('reports a failure Sift does not map as an INTERNAL SiftError naming the method, the original as cause', async () => {
    const error = await createMemory({ embeddingCacheDir: fileNotFolder() }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SiftError)
    expect(error).toMatchObject({
      code: 'INTERNAL',
      message: expect.stringContaining('createMemory() failed unexpectedly'),
    })
    expect((error as Error).cause).toMatchObject({ code: 'ENOTDIR' })
  })
})

describe('the worker protocol (comlink over a real MessageChannel, engine on the Node host)', () => {
  it('forwards calls, keeps SiftError codes across the boundary, and refuses calls after close', async () => {
    installSiftErrorTransfer()
    const { port1, port2 } = new MessageChannel()
    expose(
      engineApi(() => nodeHost({}, packageRoot)),
      port1 as never,
    )
    const remote = wrap<EngineApi>(port2 as never)
    await remote.open({ name: 'protocol' })
    const memory = new WorkerMemory(connectionOver(remote, port1, port2), () =>
      Promise.reject(new Error('not restarted in this test')),
    )
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

  it('carries an INTERNAL error across with its cause, and turns an argument that cannot be cloned into INVALID_INPUT', async () => {
    installSiftErrorTransfer()
    const { port1, port2 } = new MessageChannel()
    const embeddingCacheDir = fileNotFolder()
    expose(
      engineApi(() => nodeHost({ embeddingCacheDir }, packageRoot)),
      port1 as never,
    )
    const remote = wrap<EngineApi>(port2 as never)
    const memory = new WorkerMemory(connectionOver(remote, port1, port2), () =>
      Promise.reject(new Error('not restarted in this test')),
    )
    try {
      const failedOpen = await remote.open({ name: 'protocol-internal' }).catch((e: unknown) => e)
      expect(failedOpen).toBeInstanceOf(SiftError)
      expect(failedOpen).toMatchObject({
        code: 'INTERNAL',
        message: expect.stringContaining('createMemory() failed unexpectedly'),
      })
      expect((failedOpen as Error).cause).toMatchObject({ name: 'Error', message: expect.stringContaining('ENOTDIR') })
      // A function cannot be structured-cloned: postMessage throws a DataCloneError before anything reaches the engine.
      const uncloneable = await memory
        .add({ role: 'user', content: 'x', timestamp: () => 0 } as never)
        .catch((e: unknown) => e)
      expect(uncloneable).toBeInstanceOf(SiftError)
      expect(uncloneable).toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringContaining('cannot be sent to the Sift worker'),
      })
      expect((uncloneable as Error).cause).toMatchObject({ name: 'DataCloneError' })
    } finally {
      port1.close()
      port2.close()
    }
  })
})
