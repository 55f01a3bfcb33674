// Background work that fails (the model, a vector write, a save) is recorded in stats().lastFailure and sent to
// onProgress when it happens, while the messages stay stored and everything else keeps working. Failures are real:
// a model folder that does not exist, and a table another app defined differently in a database of Sift's name.
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterAll, describe, expect, it } from 'vitest'
import { createMemory, SiftError, type IndexProgress, type Memory } from '../../src/node'
import { SiftDatabase } from '../../worker/store/schema'

const emptyModelFolder = mkdtempSync(join(tmpdir(), 'sift-no-models-'))
afterAll(() => rmSync(emptyModelFolder, { recursive: true, force: true }))

/**
 * A database another app (or another release) created under Sift's name and version, with one of Sift's tables keyed
 * differently: Sift opens it as its own (the version matches), and from then on every write Sift makes to that table
 * fails (a DataError: its records lack that key). The other tables are copied from the schema Sift itself creates.
 */
async function createWithRedefinedTable(indexedDB: IDBFactory, name: string, table: string): Promise<void> {
  const reference = new SiftDatabase(`${name} reference`, { indexedDB, IDBKeyRange })
  await reference.open()
  const model = reference.backendDB()
  const stores = [...model.objectStoreNames].map((storeName) => {
    const store = model.transaction(storeName, 'readonly').objectStore(storeName)
    const indexes = [...store.indexNames].map((indexName) => store.index(indexName))
    return {
      storeName,
      keyPath: store.keyPath,
      indexes: indexes.map(({ name: n, keyPath, unique, multiEntry }) => ({ n, keyPath, unique, multiEntry })),
    }
  })
  const { version } = model
  reference.close()
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.open(name, version)
    request.onupgradeneeded = () => {
      for (const { storeName, keyPath, indexes } of stores) {
        const created = request.result.createObjectStore(storeName, {
          keyPath: storeName === table ? 'keyOfAnotherApp' : keyPath,
        })
        for (const { n, keyPath: indexKey, unique, multiEntry } of indexes)
          created.createIndex(n, indexKey, { unique, multiEntry })
      }
    }
    request.onsuccess = () => {
      request.result.close()
      resolve()
    }
    request.onerror = () => reject(request.error)
  })
}

async function rejectionOf(promise: Promise<unknown>): Promise<SiftError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SiftError)
  return error as SiftError
}

type Failure = NonNullable<IndexProgress['failure']>

/** The progress events a memory sent, in order, and a way to wait for the next failure of a task among them. */
class ProgressLog {
  readonly events: IndexProgress[] = []
  private readonly waiting = new Map<Failure['task'], (failure: Failure) => void>()

  readonly onProgress = (progress: IndexProgress): void => {
    this.events.push(progress)
    const { failure } = progress
    if (failure) this.waiting.get(failure.task)?.(failure)
  }

  /** Resolves with the next failure of `task` reported from now on. */
  nextFailure(task: Failure['task']): Promise<Failure> {
    return new Promise((resolve) => this.waiting.set(task, resolve))
  }
}

/** A memory on a database one of whose tables another app defined differently. */
async function openWithRedefinedTable(name: string, table: string): Promise<{ memory: Memory; progress: ProgressLog }> {
  const indexedDB = new IDBFactory()
  await createWithRedefinedTable(indexedDB, name, table)
  const progress = new ProgressLog()
  const memory = await createMemory({ name, indexedDB, onProgress: progress.onProgress })
  return { memory, progress }
}

function expectRecentFailure(failure: Failure | undefined, since: number): void {
  expect(failure!.at).toBeGreaterThanOrEqual(since)
  expect(failure!.at).toBeLessThanOrEqual(Date.now())
}

const lexicalText = async (memory: Memory, request: string) =>
  (await memory.buildContext(request, { strategy: 'lexical' })).text

describe('Background failures', () => {
  it('records a model that cannot load as an embed failure, sends it to onProgress, keeps the messages and tries again on the next add', async () => {
    const progress = new ProgressLog()
    const { events } = progress
    const memory = await createMemory({
      name: 'no-model',
      model: 'no-such-model',
      localModelPath: emptyModelFolder,
      onProgress: progress.onProgress,
    })
    expect((await memory.stats()).lastFailure).toBeUndefined()
    const since = Date.now()
    await memory.add({ role: 'user', content: 'The lighthouse keeper waved.' })
    const error = await rejectionOf(memory.indexed())
    expect(error.code).toBe('MODEL_UNAVAILABLE')

    const stats = await memory.stats()
    expect(stats).toMatchObject({
      messages: 1,
      sentences: 1,
      pending: 1,
      lastFailure: { task: 'embed', code: 'MODEL_UNAVAILABLE', message: error.message },
    })
    expectRecentFailure(stats.lastFailure, since)
    expect(events.at(-1)).toEqual({ done: 0, total: 1, pending: 1, backend: 'cpu', failure: stats.lastFailure })
    expect(events.every((event) => event.failure)).toBe(true)
    expect(await lexicalText(memory, 'lighthouse')).toContain('lighthouse keeper')

    const failuresBefore = events.length
    await memory.add({ role: 'user', content: 'The ferry left late.' })
    expect((await rejectionOf(memory.indexed())).code).toBe('MODEL_UNAVAILABLE')
    expect(events.length).toBeGreaterThan(failuresBefore)
    const retried = await memory.stats()
    expect(retried).toMatchObject({
      messages: 2,
      pending: 2,
      lastFailure: { task: 'embed', code: 'MODEL_UNAVAILABLE' },
    })
    expect(retried.lastFailure!.at).toBeGreaterThanOrEqual(stats.lastFailure!.at)
    await memory.close()
  })

  it('records a vector write the database refuses as store-vectors, and indexed() rejects with the same error', async () => {
    const { memory, progress } = await openWithRedefinedTable('vectors-refused', 'vectorResiduals')
    const since = Date.now()
    await memory.add({ role: 'user', content: 'The harbour was calm that morning.' })
    const error = await rejectionOf(memory.indexed())
    expect(error.code).toBe('STORAGE_FAILED')

    const stats = await memory.stats()
    expect(stats).toMatchObject({
      messages: 1,
      pending: 1,
      lastFailure: { task: 'store-vectors', code: 'STORAGE_FAILED', message: error.message },
    })
    expectRecentFailure(stats.lastFailure, since)
    expect(progress.events.at(-1)).toEqual({
      done: 0,
      total: 1,
      pending: 1,
      backend: 'cpu',
      failure: stats.lastFailure,
    })
    expect(await lexicalText(memory, 'harbour')).toContain('harbour was calm')
    await memory.close()
  })

  it('records a lexical snapshot save the database refuses, once writes go quiet and again at close', async () => {
    const { memory, progress } = await openWithRedefinedTable('snapshot-refused', 'lexicalSnapshots')
    const scheduledSave = progress.nextFailure('save-lexical-snapshot')
    const since = Date.now()
    await memory.add(
      Array.from({ length: 600 }, (_, i) => ({ role: 'user', content: `Note ${i} is about the orchard.` })),
    )

    const failure = await scheduledSave
    expect(failure).toMatchObject({
      task: 'save-lexical-snapshot',
      code: 'STORAGE_FAILED',
      message: expect.stringContaining('save the lexical index'),
    })
    expectRecentFailure(failure, since)
    expect((await memory.stats()).lastFailure).toEqual(failure)
    expect(await lexicalText(memory, 'orchard')).toContain('orchard')

    // The snapshot is still stale, so close saves it once more, last of all.
    const closedAt = Date.now()
    await memory.close()
    const atClose = progress.events.at(-1)?.failure
    expect(atClose).toMatchObject({ task: 'save-lexical-snapshot', code: 'STORAGE_FAILED' })
    expectRecentFailure(atClose, closedAt)
  }, 20_000)
})

describe('Background retry', () => {
  it('drains a failed backlog on its own once the failure passes: the model files arrive later, no add or indexed() needed', async () => {
    const modelFolder = mkdtempSync(join(tmpdir(), 'sift-late-model-'))
    try {
      const progress = new ProgressLog()
      const memory = await createMemory({
        name: 'late-model',
        localModelPath: modelFolder,
        onProgress: progress.onProgress,
      })
      const failed = progress.nextFailure('embed')
      await memory.add({ role: 'user', content: 'The lighthouse keeper waved at the ferry.' })
      expect(await failed).toMatchObject({ task: 'embed', code: 'MODEL_UNAVAILABLE' })
      expect((await memory.stats()).pending).toBe(1)

      cpSync(fileURLToPath(new URL('../../public/models/use-lite', import.meta.url)), join(modelFolder, 'use-lite'), {
        recursive: true,
      })
      const drained = new Promise<IndexProgress>((resolve) => {
        const check = setInterval(() => {
          const last = progress.events.at(-1)
          if (last && !last.failure && last.pending === 0) {
            clearInterval(check)
            resolve(last)
          }
        }, 50)
      })
      expect(await drained).toMatchObject({ done: 1, pending: 0 })
      expect((await memory.stats()).pending).toBe(0)
      const context = await memory.buildContext('Who waved at the boat?', { strategy: 'dense' })
      expect(context.stats.ranking).toBe('dense')
      expect(context.text).toContain('lighthouse keeper')
      await memory.close()
    } finally {
      rmSync(modelFolder, { recursive: true, force: true })
    }
  }, 60_000)
})
