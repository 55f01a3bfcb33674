import { SiftError } from '../../src/errors'
import { SCHEMA_VERSION, type IndexedDBSource } from './schema'

/** Dexie opens `version(n)` as IndexedDB version `10 × n`, and may add one to patch a schema it finds incomplete. */
const DEXIE_VERSION_FACTOR = 10

/** The database as it is on disk: its IndexedDB version, and the schema version its state row records (if it has one). */
interface InstalledSchema {
  version: number
  schemaVersion: unknown
}

/**
 * Refuses a database written by a newer Sift (`SCHEMA_TOO_NEW`) before Dexie sees it: Dexie would open it at whatever
 * version it has and add any table this schema declares and it lacks, and the store would then record an older
 * schema version in the state row. Reads only: a database that does not exist is not created.
 */
export async function assertSchemaNotNewer(name: string, source: IndexedDBSource): Promise<void> {
  const installed = await readInstalledSchema(name, source)
  if (!installed) return
  const { version, schemaVersion } = installed
  const newerTables = version >= (SCHEMA_VERSION + 1) * DEXIE_VERSION_FACTOR
  const newerState = typeof schemaVersion === 'number' && schemaVersion > SCHEMA_VERSION
  if (newerTables || newerState) {
    const found = newerState ? `schema ${schemaVersion}` : `IndexedDB version ${version}`
    throw new SiftError(
      'SCHEMA_TOO_NEW',
      `The database "${name}" was written by a newer version of Sift (${found}; this one reads schema ${SCHEMA_VERSION} and below), so it was left untouched. Update the app to the newer Sift, or open a memory with another name.`,
    )
  }
}

/**
 * Opens the database at whatever version it has and reads its state row, in a read-only transaction, through a key
 * range of `source` (`assertKeyRangeFits`). A database that does not exist would be created by the open: that creation
 * is aborted (after the key range is tried on an object store made in it), and `undefined` returned.
 */
function readInstalledSchema(name: string, source: IndexedDBSource): Promise<InstalledSchema | undefined> {
  return new Promise((resolve, reject) => {
    const request = source.indexedDB.open(name)
    let missing = false
    request.onupgradeneeded = () => {
      missing = true
      try {
        assertKeyRangeFits(source, request.result.createObjectStore('key-range-check'))
      } catch (error) {
        missing = false
        request.onerror = () => reject(error)
      }
      request.transaction!.abort()
    }
    request.onerror = (event) => {
      if (!missing) return reject(request.error)
      event.preventDefault()
      resolve(undefined)
    }
    request.onsuccess = () => {
      const db = request.result
      const { version } = db
      if (!db.objectStoreNames.contains('meta')) {
        const stores = [...db.objectStoreNames]
        db.close()
        // Every Sift schema has `meta`: a database with object stores but not that one is another app's.
        if (stores.length > 0) return reject(foreignDatabase(name, stores))
        return resolve({ version, schemaVersion: undefined })
      }
      const transaction = db.transaction('meta', 'readonly')
      let state: IDBRequest
      try {
        state = assertKeyRangeFits(source, transaction.objectStore('meta'))
      } catch (error) {
        db.close()
        return reject(error)
      }
      transaction.oncomplete = () => {
        db.close()
        resolve({ version, schemaVersion: (state.result as { schemaVersion?: unknown } | undefined)?.schemaVersion })
      }
      transaction.onabort = () => {
        db.close()
        reject(transaction.error)
      }
    }
  })
}

/**
 * Reads the state row through `source.IDBKeyRange`: a key range of another IndexedDB implementation (an app's own copy
 * of fake-indexeddb beside the one Sift bundles) is refused there with a DataError, and would fail every range query
 * long after open, so it is `INVALID_INPUT` here.
 */
function assertKeyRangeFits(source: IndexedDBSource, store: IDBObjectStore): IDBRequest {
  try {
    return store.get(source.IDBKeyRange.only('state'))
  } catch (error) {
    throw new SiftError(
      'INVALID_INPUT',
      `The IDBKeyRange Sift uses does not belong to the indexedDB it was given (${(error as Error)?.name ?? 'an error'}): pass the IDBKeyRange of the same implementation beside it (createMemory({ indexedDB, IDBKeyRange })). Nothing was stored.`,
      { cause: error },
    )
  }
}

function foreignDatabase(name: string, stores: readonly string[]): SiftError {
  return new SiftError(
    'INVALID_INPUT',
    `The IndexedDB database "${name}" belongs to another app (its object stores: ${stores.join(', ')}; none of Sift's), so it was left untouched. Give the memory another name (createMemory({ name })).`,
  )
}
