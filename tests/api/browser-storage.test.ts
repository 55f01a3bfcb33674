// Asking for persistent storage and reading the origin's storage, with each engine's `navigator.storage` as a stub.
import { afterEach, describe, expect, test, vi } from 'vitest'
import { askForPersistence, PERSIST_WAIT_MS, readStorageState } from '../../src/browser-storage'

afterEach(() => vi.useRealTimers())

describe('askForPersistence', () => {
  test('asks at once and resolves with the answer', async () => {
    const persist = vi.fn(async () => true)
    const settled = askForPersistence({ persist })
    expect(persist).toHaveBeenCalledTimes(1)
    await expect(settled()).resolves.toBe(true)
  })

  test('a refusal, a rejection or a synchronous throw is false, not an error', async () => {
    await expect(askForPersistence({ persist: async () => false })()).resolves.toBe(false)
    await expect(askForPersistence({ persist: () => Promise.reject(new Error('denied')) })()).resolves.toBe(false)
    const throwing = {
      persist: (): Promise<boolean> => {
        throw new TypeError('not in this context')
      },
    }
    await expect(askForPersistence(throwing)()).resolves.toBe(false)
  })

  test('no navigator.storage, or no persist(): nothing asked, nothing waited for', async () => {
    await expect(askForPersistence(undefined)()).resolves.toBeUndefined()
    await expect(askForPersistence({})()).resolves.toBeUndefined()
  })

  test('a persist() that never settles (an unanswered prompt) costs at most the bounded wait', async () => {
    vi.useFakeTimers()
    const settled = askForPersistence({ persist: () => new Promise<boolean>(() => {}) })()
    let result: boolean | undefined | 'pending' = 'pending'
    void settled.then((value) => {
      result = value
    })
    await vi.advanceTimersByTimeAsync(PERSIST_WAIT_MS - 1)
    expect(result).toBe('pending')
    await vi.advanceTimersByTimeAsync(1)
    expect(result).toBeUndefined()
  })
})

describe('readStorageState', () => {
  test('each part the browser does not give is left out or unknown', async () => {
    await expect(readStorageState(undefined)).resolves.toEqual({ persisted: 'unknown' })
    await expect(readStorageState({ estimate: async () => ({}) })).resolves.toEqual({ persisted: 'unknown' })
    await expect(
      readStorageState({ estimate: async () => ({ usage: 5 }), persisted: async () => false }),
    ).resolves.toEqual({ usage: 5, persisted: false })
  })
})
