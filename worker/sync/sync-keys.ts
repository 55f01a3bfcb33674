import { RecordCipher } from '../crypto/record-cipher'
import { PBKDF2_ITERATIONS } from '../crypto/passphrase-key'
import { SyncDocuments } from './sync-document'

/**
 * The keys every device of a synced memory shares, from the memory's passphrase and the server database's name: an
 * AES-GCM key that seals each record, and an HMAC key that names its document (docs/sync-design.md, "What leaves the
 * device"). Each device's store keeps its own at-rest key (its own salt), so the synced key is derived apart from it.
 * The salt is the database's name, not a random one kept on the server: two devices turning sync on at once then
 * agree without a race over who writes it, and a per-user database (CouchDB's `couch_peruser`) is a salt no other
 * user shares. One PBKDF2 run (600,000 hashes, as the at-rest key) gives both keys' 512 bits.
 */
export async function syncDocumentsFor(passphrase: string, databaseName: string): Promise<SyncDocuments> {
  const encoder = new TextEncoder()
  const material = await crypto.subtle.importKey('raw', encoder.encode(passphrase), 'PBKDF2', false, ['deriveBits'])
  const salt = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(`sift-sync:${databaseName}`)))
  const bits = new Uint8Array(
    await crypto.subtle.deriveBits(
      { name: 'PBKDF2', hash: 'SHA-256', salt, iterations: PBKDF2_ITERATIONS },
      material,
      512,
    ),
  )
  const sealKey = await crypto.subtle.importKey('raw', bits.slice(0, 32), { name: 'AES-GCM' }, false, [
    'encrypt',
    'decrypt',
  ])
  const idKey = await SyncDocuments.idKeyFrom(bits.slice(32))
  bits.fill(0)
  return new SyncDocuments(new RecordCipher(sealKey), idKey)
}

/** The database's name in a CouchDB URL: its last path segment, decoded (`https://host/userdb-6a6f65` → `userdb-6a6f65`). */
export function databaseNameOf(url: URL): string {
  const segments = url.pathname.split('/').filter((segment) => segment !== '')
  return decodeURIComponent(segments.at(-1) ?? '')
}
