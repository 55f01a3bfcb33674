import { newEncryption, unlockEncryption, type AtRestKey, type EncryptionRecord } from '../crypto/at-rest-key'
import type { RecordCipher } from '../crypto/record-cipher'
import type { SiftDatabase } from './schema'

/** How open found the memory's encryption: its cipher, and for a memory not encrypted yet the key check to write. */
export interface Unlocked {
  cipher: RecordCipher
  /** Set when the memory has no key check yet: a new memory, or a plain one that `key` now encrypts. */
  newRecord?: EncryptionRecord
}

/**
 * Reads the memory's key check (the `meta` row `encryption`) before anything else, and checks `key` against it:
 * `WRONG_KEY` when it does not open it or no key was given for an encrypted memory. A memory without one is plain:
 * `undefined` without a key, else a new key check to write. Reads only.
 */
export async function unlockStore(
  db: SiftDatabase,
  name: string,
  key: AtRestKey | undefined,
): Promise<Unlocked | undefined> {
  const record = await readKeyCheck(db)
  if (record !== undefined) return { cipher: await unlockEncryption(record, key, name) }
  if (!key) return undefined
  const { cipher, record: newRecord } = await newEncryption(key)
  return { cipher, newRecord }
}

/** The memory's key check (the `meta` row `encryption`) as stored, `undefined` for a plain memory. */
export function readKeyCheck(db: SiftDatabase): Promise<unknown> {
  return db.transaction('r', db.meta, () => db.meta.get('encryption'))
}
