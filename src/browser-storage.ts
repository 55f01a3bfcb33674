// The origin's storage as `navigator.storage` offers it, read so that an API a browser lacks, refuses or never answers
// fails no call and holds none up for more than a bounded wait. Each function takes the storage manager as an
// argument (`navigator.storage`, possibly undefined) rather than reading the global, so the tests pass each engine's.
import type { StorageState } from './stats-types'

/** The parts of a `StorageManager` Sift uses, each possibly missing (WebKitGTK ships without `navigator.storage`). */
export interface StorageManagerLike {
  estimate?(): Promise<StorageEstimate & { usageDetails?: { indexedDB?: number; caches?: number } }>
  persisted?(): Promise<boolean>
  persist?(): Promise<boolean>
}

/**
 * How long `stats()` waits for `estimate()` and `persisted()`; each answers at once where it is implemented, so a
 * longer wait means a browser that never will.
 */
export const STORAGE_READ_WAIT_MS = 2_000

/**
 * How long `createMemory({ persist: true })` waits for `persist()` once the memory is open. A browser may ask the
 * user (Firefox does) and the answer may never come (headless Firefox, a prompt left unanswered): the request stays
 * pending, and `stats().storage.persisted` reports the browser's decision whenever it comes.
 */
export const PERSIST_WAIT_MS = 3_000

const timedOut = Symbol('timed out')

/** `call()`'s result, or `fallback` when it is missing, throws, rejects, or has not settled within `waitMs`. */
async function settledWithin<T, F>(call: (() => Promise<T>) | undefined, waitMs: number, fallback: F): Promise<T | F> {
  if (!call) return fallback
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    const result = await Promise.race([
      call(),
      new Promise<typeof timedOut>((resolve) => {
        timer = setTimeout(() => resolve(timedOut), waitMs)
      }),
    ])
    return result === timedOut ? fallback : (result as T)
  } catch {
    return fallback
  } finally {
    clearTimeout(timer)
  }
}

/**
 * `stats().storage`: usage and quota from `estimate()` (with Chromium's breakdown), persistence from `persisted()`;
 * what the browser does not say is left out (`usage`, `quota`) or `'unknown'` (`persisted`). Never rejects.
 */
export async function readStorageState(
  storage: StorageManagerLike | undefined,
  waitMs = STORAGE_READ_WAIT_MS,
): Promise<StorageState> {
  const [estimate, persisted] = await Promise.all([
    settledWithin(storage?.estimate?.bind(storage), waitMs, undefined),
    settledWithin(storage?.persisted?.bind(storage), waitMs, 'unknown' as const),
  ])
  const state: StorageState = { persisted: typeof persisted === 'boolean' ? persisted : 'unknown' }
  if (typeof estimate?.usage === 'number') state.usage = estimate.usage
  if (typeof estimate?.quota === 'number') state.quota = estimate.quota
  // Chromium's breakdown of `usage`; other browsers give none.
  const details = estimate?.usageDetails
  if (details) Object.assign(state, { indexedDB: details.indexedDB ?? 0, caches: details.caches ?? 0 })
  return state
}

/**
 * Asks for persistent storage (`persist: true`). Resolves with the browser's answer, or undefined when there is no
 * `persist()` or no answer came within `waitMs` of `settled()` being called; never rejects (a refusal or a failure
 * is `false`). The request is made at once, so it runs alongside whatever the caller does before it waits.
 */
export function askForPersistence(
  storage: StorageManagerLike | undefined,
): (waitMs?: number) => Promise<boolean | undefined> {
  let answer: Promise<boolean | undefined> | undefined
  try {
    answer = storage?.persist?.().then(
      (granted) => granted === true,
      () => false,
    )
  } catch {
    answer = Promise.resolve(false)
  }
  return (waitMs = PERSIST_WAIT_MS) => settledWithin(answer && (() => answer), waitMs, undefined)
}
