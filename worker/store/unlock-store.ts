import { newEncryption, unlockEncryption, type AtRestKey, type EncryptionRecord } from '../crypto/at-rest-key'
import { SiftError } from '../../src/errors'
import type { RecordCipher } from '../crypto/record-cipher'
import type { SiftDatabase } from './schema'
import { isSealed } from './stored-records'

/** How open found the memory's encryption: its cipher, and for a memory not encrypted yet the key check to write. */
export interface Unlocked {
  cipher: RecordCipher
  /** Set when the memory has no key check yet: a new memory, or a plain one that `key` now encrypts. */
  newRecord?: EncryptionRecord
}

/**
 * Reads the memory's key check (the `meta` row `encryption`) before anything else, and checks `key` against it:
 * `WRONG_KEY` when it does not open it or no key was given for an encrypted memory. A memory without one is plain:
 * `undefined` without a key, else a new key check to write; but one that holds sealed records lost its key check, and
 * is refused (`STORAGE_FAILED`) rather than opened as plain or encrypted anew. Reads only.
 */
export async function unlockStore(
  db: SiftDatabase,
  name: string,
  key: AtRestKey | undefined,
): Promise<Unlocked | undefined> {
  const record = await readKeyCheck(db)
  if (record !== undefined) return { cipher: await unlockEncryption(record, key, name) }
  if (await holdsSealedRecords(db)) {
    throw new SiftError(
      'STORAGE_FAILED',
      `The memory "${name}" holds encrypted records but its key check (the meta row "encryption") is missing: it was altered or damaged. Nothing was changed; without the key check its records cannot be opened, so if this persists, delete the database (indexedDB.deleteDatabase with the memory's name) to start over.`,
    )
  }
  if (!key) return undefined
  const { cipher, record: newRecord } = await newEncryption(key)
  return { cipher, newRecord }
}

/** The memory's key check (the `meta` row `encryption`) as stored, `undefined` for a plain memory. */
export function readKeyCheck(db: SiftDatabase): Promise<unknown> {
  return db.transaction('r', db.meta, () => db.meta.get('encryption'))
}

/**
 * Whether the records open looks at first are sealed: the first and last of each table by key. A plain memory never
 * has one, and an encrypted one has them throughout, so these few reads tell the two apart without reading the history.
 */
async function holdsSealedRecords(db: SiftDatabase): Promise<boolean> {
  const tables = [db.messages, db.vectorBlocks, db.vectorResiduals, db.lexicalSnapshots, db.coarseLists]
  return db.transaction('r', tables, async () => {
    const ends = await Promise.all(
      tables.flatMap((table) => [table.toCollection().first(), table.toCollection().last()] as Promise<unknown>[]),
    )
    return ends.some((record) => typeof record === 'object' && record !== null && isSealed(record))
  })
}
