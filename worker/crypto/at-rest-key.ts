import { SiftError } from '../../src/errors'
import { keyFromPassphrase, newSalt, PBKDF2_ITERATIONS } from './passphrase-key'
import { RecordCipher } from './record-cipher'

/** Where an encrypted memory's key comes from (`MemoryOptions.passphrase` or `.key`, validated). */
export type AtRestKey = { passphrase: string } | { key: CryptoKey }

/** What the key check seals: opening it proves the key before anything else is read. */
const KEY_CHECK = 'sift-memory key check'
const KEY_CHECK_CONTEXT = 'key-check'

/**
 * The `meta` row of an encrypted memory: how its key is made, and a known value sealed with it. Without this row a
 * memory is not encrypted.
 */
export interface EncryptionRecord {
  key: 'encryption'
  /** `PBKDF2-SHA-256`: from a passphrase, with `salt` and `iterations`; `caller-key`: the app's own `CryptoKey`. */
  kdf: 'PBKDF2-SHA-256' | 'caller-key'
  salt?: Uint8Array<ArrayBuffer>
  iterations?: number
  /** `KEY_CHECK` sealed with the key. */
  check: Uint8Array<ArrayBuffer>
}

/** A fresh key from `source` (a new salt for a passphrase) and the row that will let it be checked. */
export async function newEncryption(source: AtRestKey): Promise<{ cipher: RecordCipher; record: EncryptionRecord }> {
  let record: Omit<EncryptionRecord, 'check'>
  let key: CryptoKey
  if ('passphrase' in source) {
    const salt = newSalt()
    record = { key: 'encryption', kdf: 'PBKDF2-SHA-256', salt, iterations: PBKDF2_ITERATIONS }
    key = await keyFromPassphrase(source.passphrase, salt, PBKDF2_ITERATIONS)
  } else {
    record = { key: 'encryption', kdf: 'caller-key' }
    key = source.key
  }
  const cipher = new RecordCipher(key)
  return {
    cipher,
    record: { ...record, check: await cipher.seal(new TextEncoder().encode(KEY_CHECK), KEY_CHECK_CONTEXT) },
  }
}

/**
 * The cipher of a memory encrypted as `record` says, once `source` passed its key check. Fails with `WRONG_KEY`
 * without a key or with one that does not open the check, so nothing is read (as garbage) or written with it.
 */
export async function unlockEncryption(
  record: unknown,
  source: AtRestKey | undefined,
  name: string,
): Promise<RecordCipher> {
  if (!isEncryptionRecord(record)) {
    throw new SiftError(
      'STORAGE_FAILED',
      `The memory "${name}" is encrypted, but the record that checks its key is damaged, so no key can be checked against it. Nothing was read or changed.`,
    )
  }
  const kind = record.kdf === 'PBKDF2-SHA-256' ? 'passphrase' : 'key (a CryptoKey)'
  if (!source) {
    throw new SiftError(
      'WRONG_KEY',
      `The memory "${name}" is encrypted: pass its ${kind} to createMemory ({ ${record.kdf === 'PBKDF2-SHA-256' ? 'passphrase' : 'key'} }). Nothing was read.`,
    )
  }
  const key =
    'key' in source
      ? source.key
      : record.salt
        ? await keyFromPassphrase(source.passphrase, record.salt, record.iterations!)
        : undefined
  const cipher = key && new RecordCipher(key)
  const check = cipher && (await cipher.open(record.check, KEY_CHECK_CONTEXT))
  if (!cipher || !check || new TextDecoder().decode(check) !== KEY_CHECK) {
    throw new SiftError(
      'WRONG_KEY',
      `That ${'key' in source ? 'key' : 'passphrase'} does not open the memory "${name}", which is encrypted with a ${kind}. Nothing was read or changed; pass the right one.`,
    )
  }
  return cipher
}

function isEncryptionRecord(value: unknown): value is EncryptionRecord {
  if (typeof value !== 'object' || value === null) return false
  const { key, kdf, salt, iterations, check } = value as Record<string, unknown>
  if (key !== 'encryption' || !(check instanceof Uint8Array)) return false
  if (kdf === 'caller-key') return true
  // Only the count Sift writes: another would be honoured at whatever it costs (a damaged or planted row could hold the
  // open for minutes before WRONG_KEY), and Sift has never written another.
  return kdf === 'PBKDF2-SHA-256' && salt instanceof Uint8Array && iterations === PBKDF2_ITERATIONS
}
