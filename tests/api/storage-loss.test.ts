// The eviction check's rules, on stand-ins for localStorage and indexedDB.databases() (the browser tests run it on
// each engine's real ones: e2e/engines.test.ts).
import { describe, expect, test } from 'vitest'
import { checkStorageLoss, markOpened, type StorageLossSources, storageMarkKey } from '../../src/storage-loss'

function sources(databases: string[] | undefined, marks = new Map<string, string>()): StorageLossSources {
  return {
    local: { getItem: (key) => marks.get(key) ?? null, setItem: (key, value) => void marks.set(key, value) },
    databases: databases && (async () => databases.map((name) => ({ name }))),
  }
}

describe('checkStorageLoss', () => {
  test('a first open cannot tell; after it is marked, a database that is there is not evicted, one that is gone is', async () => {
    const marks = new Map<string, string>()
    expect(await checkStorageLoss('chat', sources([], marks))).toBeUndefined()
    markOpened('chat', sources(['chat'], marks), 1000)
    expect(marks.get(storageMarkKey('chat'))).toBe('1000')
    expect(await checkStorageLoss('chat', sources(['chat'], marks))).toBe(false)
    expect(await checkStorageLoss('chat', sources(['other'], marks))).toBe(true)
    // Another memory's mark says nothing of this one.
    expect(await checkStorageLoss('other', sources([], marks))).toBeUndefined()
  })

  test('the mark keeps the first open: opening again does not move it', () => {
    const marks = new Map([[storageMarkKey('chat'), '1000']])
    markOpened('chat', sources(['chat'], marks), 5000)
    expect(marks.get(storageMarkKey('chat'))).toBe('1000')
  })

  test('without indexedDB.databases(), without localStorage, or when either throws: cannot tell, never rejects', async () => {
    const marks = new Map([[storageMarkKey('chat'), '1000']])
    expect(await checkStorageLoss('chat', sources(undefined, marks))).toBeUndefined()
    expect(await checkStorageLoss('chat', { databases: async () => [] })).toBeUndefined()
    const throwing: StorageLossSources = {
      local: {
        getItem: () => {
          throw new Error('SecurityError')
        },
        setItem: () => {
          throw new Error('QuotaExceededError')
        },
      },
      databases: async () => [],
    }
    expect(await checkStorageLoss('chat', throwing)).toBeUndefined()
    expect(() => markOpened('chat', throwing)).not.toThrow()
    const failing: StorageLossSources = {
      ...sources(undefined, marks),
      databases: () => Promise.reject(new Error('UnknownError')),
    }
    expect(await checkStorageLoss('chat', failing)).toBeUndefined()
  })
})
