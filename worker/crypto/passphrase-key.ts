/**
 * PBKDF2-HMAC-SHA-256 iterations for a new passphrase (the memory's at-rest key, an encrypted export): OWASP's 2023
 * minimum for this hash. Anyone holding a copy can try passphrases offline, and each try costs them this many hashes;
 * it costs an open about as much, once. Stored beside the salt, so a later change of this value still opens what was
 * sealed before it.
 */
export const PBKDF2_ITERATIONS = 600_000

/** A fresh random salt for a new passphrase's key: 16 bytes, so no two keys share one. */
export function newSalt(): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(16))
}

/** The AES-GCM key `passphrase` gives with `salt` and `iterations` (PBKDF2-SHA-256), usable only to encrypt and decrypt. */
export async function keyFromPassphrase(
  passphrase: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', new TextEncoder().encode(passphrase), 'PBKDF2', false, [
    'deriveKey',
  ])
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  )
}
