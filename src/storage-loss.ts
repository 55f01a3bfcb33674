// Telling an evicted memory from a new one. A browser evicting an origin's IndexedDB (storage pressure) or a user
// deleting the database leaves an empty database behind the next open, which looks like a memory never used. Browsers
// have evicted IndexedDB apart from localStorage, so a mark kept there ("this device opened this memory before")
// outlives the database in that case, and lets the next open say the history is gone. Safari's seven-day deletion and "clear site
// data" remove both: the mark is then missing too, and the open says it cannot tell.
import type { StorageState } from './stats-types'

/** The localStorage key of a memory's mark; the value is when this device first opened it (ms since the epoch). */
export function storageMarkKey(name: string): string {
  return `sift-memory:opened:${name}`
}

/** The parts of `localStorage` and `indexedDB` the check uses, each possibly missing or throwing. */
export interface StorageLossSources {
  local?: Pick<Storage, 'getItem' | 'setItem'>
  databases?: () => Promise<{ name?: string }[]>
}

/** The page's own: localStorage can throw on access (a sandboxed frame, storage blocked) and is absent in a worker. */
export function pageSources(): StorageLossSources {
  let local: Storage | undefined
  try {
    local = globalThis.localStorage
  } catch {
    local = undefined
  }
  const idb = globalThis.indexedDB as (IDBFactory & { databases?: IDBFactory['databases'] }) | undefined
  return { local, databases: idb?.databases ? () => idb.databases() : undefined }
}

/**
 * Before a memory opens: whether a database this device held under `name` is gone (`true`), is there (`false`), or
 * the page cannot tell (`undefined`: the first open on this device, no localStorage, no `indexedDB.databases()`).
 * Never rejects.
 */
export async function checkStorageLoss(name: string, sources: StorageLossSources): Promise<StorageState['evicted']> {
  try {
    const mark = sources.local?.getItem(storageMarkKey(name))
    if (mark === null || mark === undefined || !sources.databases) return undefined
    const exists = (await sources.databases()).some((database) => database.name === name)
    return !exists
  } catch {
    return undefined
  }
}

/** After the memory opened (its database exists now): marks it as opened on this device, once. Never throws. */
export function markOpened(name: string, sources: StorageLossSources, now = Date.now()): void {
  try {
    if (sources.local?.getItem(storageMarkKey(name)) == null) sources.local?.setItem(storageMarkKey(name), String(now))
  } catch {
    // A page whose localStorage refuses writes cannot tell a later eviction: its stats say so by leaving it out.
  }
}
