// Raw IndexedDB access for tests that put a database into a state Sift would never write, and read it back
// without Dexie: what is on disk, exactly.
import { serialize } from 'node:v8'

/** Opens `name` at `version` (its own when omitted), runs `upgrade` if that is an upgrade, and closes it again. */
export function openRaw(
  indexedDB: IDBFactory,
  name: string,
  version?: number,
  upgrade?: (db: IDBDatabase, transaction: IDBTransaction) => void,
): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, version)
    request.onupgradeneeded = () => upgrade?.(request.result, request.transaction!)
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
}

/** Writes `records` into `store` (out-of-line keys given as `[key, value]` pairs when the store has no keyPath). */
export function putRaw(indexedDB: IDBFactory, name: string, store: string, records: unknown[]): Promise<void> {
  return writeRaw(indexedDB, name, store, (objects) => records.forEach((record) => objects.put(record)))
}

/** Deletes the records with `keys` from `store`. */
export function deleteRaw(indexedDB: IDBFactory, name: string, store: string, keys: IDBValidKey[]): Promise<void> {
  return writeRaw(indexedDB, name, store, (objects) => keys.forEach((key) => objects.delete(key)))
}

/** One readwrite transaction on `store`, outside Sift, resolved once it committed. */
async function writeRaw(
  indexedDB: IDBFactory,
  name: string,
  store: string,
  write: (objects: IDBObjectStore) => void,
): Promise<void> {
  const db = await openRaw(indexedDB, name)
  try {
    await new Promise<void>((resolve, reject) => {
      const transaction = db.transaction(store, 'readwrite')
      write(transaction.objectStore(store))
      transaction.oncomplete = () => resolve()
      transaction.onabort = () => reject(transaction.error)
    })
  } finally {
    db.close()
  }
}

/**
 * The whole database as structured-clone bytes: its version, every object store with its key path and indexes, and
 * every record with its key, in key order. Two equal dumps mean nothing was written in between.
 */
export async function dumpRaw(indexedDB: IDBFactory, name: string): Promise<Buffer> {
  const db = await openRaw(indexedDB, name)
  const storeNames = [...db.objectStoreNames].sort()
  const stores = await new Promise<unknown[]>((resolve, reject) => {
    const transaction = db.transaction(storeNames, 'readonly')
    const out = storeNames.map((storeName) => {
      const store = transaction.objectStore(storeName)
      const indexes = [...store.indexNames].sort().map((indexName) => {
        const { keyPath, unique, multiEntry } = store.index(indexName)
        return { indexName, keyPath, unique, multiEntry }
      })
      const keys = store.getAllKeys()
      const values = store.getAll()
      return { storeName, keyPath: store.keyPath, autoIncrement: store.autoIncrement, indexes, keys, values }
    })
    transaction.oncomplete = () =>
      resolve(out.map(({ keys, values, ...rest }) => ({ ...rest, keys: keys.result, values: values.result })))
    transaction.onabort = () => reject(transaction.error)
  })
  const dump = serialize({ version: db.version, stores })
  db.close()
  return dump
}

/** Every record of `store`, as IndexedDB holds it (structured clones: typed arrays stay typed arrays). */
export async function getAllRaw(indexedDB: IDBFactory, name: string, store: string): Promise<unknown[]> {
  const db = await openRaw(indexedDB, name)
  try {
    return await new Promise((resolve, reject) => {
      const request = db.transaction(store, 'readonly').objectStore(store).getAll()
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    })
  } finally {
    db.close()
  }
}
