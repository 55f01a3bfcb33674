// The browser host reads what the page's browser offers (navigator.storage, cross-origin isolation,
// SharedArrayBuffer) from the worker's globals: here those globals are stubbed as each engine ships them.
import { afterEach, describe, expect, test, vi } from 'vitest'
import { browserHost } from '../../worker/hosts/browser-host'

function stubWorkerGlobals(options: {
  storage?: unknown
  crossOriginIsolated?: boolean
  sharedArrayBuffer?: boolean
  hardwareConcurrency?: number
}): void {
  vi.stubGlobal('self', {
    crossOriginIsolated: options.crossOriginIsolated ?? false,
    location: { href: 'http://localhost/worker.js' },
    indexedDB: undefined,
    IDBKeyRange: undefined,
  })
  vi.stubGlobal('navigator', {
    hardwareConcurrency: options.hardwareConcurrency ?? 8,
    ...(options.storage !== undefined && { storage: options.storage }),
  })
  if (options.sharedArrayBuffer === false) vi.stubGlobal('SharedArrayBuffer', undefined)
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('storage()', () => {
  test('without navigator.storage (WebKitGTK by default) it reports what it cannot know rather than failing', async () => {
    stubWorkerGlobals({})
    await expect(browserHost({}).storage!()).resolves.toEqual({ persisted: 'unknown' })
  })

  test('a storage manager without estimate() still reports persistence', async () => {
    stubWorkerGlobals({ storage: { persisted: async () => true } })
    await expect(browserHost({}).storage!()).resolves.toEqual({ persisted: true })
  })

  test('an estimate() or persisted() that rejects is unknown, not a failure', async () => {
    stubWorkerGlobals({
      storage: {
        estimate: () => Promise.reject(new TypeError('not allowed')),
        persisted: () => {
          throw new TypeError('not allowed')
        },
      },
    })
    await expect(browserHost({}).storage!()).resolves.toEqual({ persisted: 'unknown' })
  })

  test('an estimate() or persisted() that never settles costs a bounded wait', async () => {
    vi.useFakeTimers()
    stubWorkerGlobals({ storage: { estimate: () => new Promise(() => {}), persisted: () => new Promise(() => {}) } })
    const reading = browserHost({}).storage!()
    await vi.advanceTimersByTimeAsync(5_000)
    await expect(reading).resolves.toEqual({ persisted: 'unknown' })
  })

  test("Chromium's estimate: usage, quota and its breakdown, and the persistence the browser reports", async () => {
    stubWorkerGlobals({
      storage: {
        estimate: async () => ({ usage: 10, quota: 100, usageDetails: { indexedDB: 7 } }),
        persisted: async () => false,
      },
    })
    await expect(browserHost({}).storage!()).resolves.toEqual({
      usage: 10,
      quota: 100,
      indexedDB: 7,
      caches: 0,
      persisted: false,
    })
  })

  test("Firefox's and Safari's estimate: usage and quota, no breakdown", async () => {
    stubWorkerGlobals({ storage: { estimate: async () => ({ usage: 10, quota: 100 }), persisted: async () => true } })
    await expect(browserHost({}).storage!()).resolves.toEqual({ usage: 10, quota: 100, persisted: true })
  })
})

describe('wasmThreads', () => {
  test('a cross-origin isolated page with SharedArrayBuffer: half the cores, at most 4', () => {
    stubWorkerGlobals({ crossOriginIsolated: true, hardwareConcurrency: 6 })
    expect(browserHost({}).wasmThreads).toEqual({ count: 3, reason: expect.stringContaining('cross-origin isolated') })
  })

  test('cross-origin isolated but without SharedArrayBuffer (WebKitGTK by default): one thread, and why', () => {
    stubWorkerGlobals({ crossOriginIsolated: true, sharedArrayBuffer: false })
    expect(browserHost({}).wasmThreads).toEqual({ count: 1, reason: expect.stringContaining('SharedArrayBuffer') })
  })

  test('not cross-origin isolated: one thread, and why', () => {
    stubWorkerGlobals({ crossOriginIsolated: false })
    expect(browserHost({}).wasmThreads).toEqual({ count: 1, reason: expect.stringContaining('cross-origin isolated') })
  })
})
