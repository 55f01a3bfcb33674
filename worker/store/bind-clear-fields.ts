import type { EncryptionRecord } from '../crypto/at-rest-key'
import type { RecordCipher } from '../crypto/record-cipher'
import { isStoreState } from './record-check'
import { reencryptStore } from './reencrypt-store'
import type { SiftDatabase } from './schema'
import { sealingCodec } from './sealing-codec'
import { schema5Contexts } from './sealing-contexts'
import { readKeyCheck } from './unlock-store'

/** The first schema whose sealed records bind their clear fields (worker/store/sealing-contexts.ts). */
const BOUND_FROM_SCHEMA = 6

/**
 * Schema 5 → 6 for an encrypted memory: every record sealed under its place alone is re-sealed under its place and its
 * clear fields, in one transaction that also records the new schema version (`reencryptStore`), so a memory is either
 * still all schema 5 or all schema 6. WebCrypto cannot run in Dexie's upgrade transaction, hence here, after the key
 * check opened. A plain memory has nothing to re-seal.
 */
export async function bindClearFields(db: SiftDatabase, cipher: RecordCipher): Promise<void> {
  const state: unknown = await db.transaction('r', db.meta, () => db.meta.get('state'))
  if (!isStoreState(state) || state.schemaVersion >= BOUND_FROM_SCHEMA) return
  const record = (await readKeyCheck(db)) as EncryptionRecord
  await reencryptStore(db, sealingCodec(cipher, schema5Contexts), { cipher, record })
}
