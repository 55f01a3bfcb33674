import { SiftError } from '../../src/errors'
import type { EncryptedSiftExport } from '../../src/types'
import { fromBase64, toBase64 } from './base64'
import { keyFromPassphrase, newSalt, PBKDF2_ITERATIONS } from './passphrase-key'

/** A text sealed with a passphrase: the `encrypted` part of an `EncryptedSiftExport`. */
export type PassphraseBox = EncryptedSiftExport['encrypted']

/** AES-GCM's standard nonce size; a fresh random one per box, so one passphrase may seal many files. */
const IV_BYTES = 12

/** Encrypts `text` (UTF-8) with AES-GCM under a key derived from `passphrase`. WebCrypto: browsers, workers, Node ≥ 20. */
export async function sealWithPassphrase(text: string, passphrase: string): Promise<PassphraseBox> {
  const salt = newSalt()
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES))
  const key = await keyFromPassphrase(passphrase, salt, PBKDF2_ITERATIONS)
  const data = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(text)))
  return {
    kdf: 'PBKDF2-SHA-256',
    iterations: PBKDF2_ITERATIONS,
    salt: toBase64(salt),
    iv: toBase64(iv),
    data: toBase64(data),
  }
}

/**
 * The text sealed in `box`. Its fields must already be checked (`salt`, `iv` and `data` base64, `iterations` a sane
 * count). A wrong passphrase and altered data look the same to AES-GCM: both fail its tag check, with `WRONG_KEY`.
 */
export async function openWithPassphrase(box: PassphraseBox, passphrase: string): Promise<string> {
  const key = await keyFromPassphrase(passphrase, fromBase64(box.salt), box.iterations)
  let plain: ArrayBuffer
  try {
    plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(box.iv) }, key, fromBase64(box.data))
  } catch (error) {
    throw new SiftError(
      'WRONG_KEY',
      'The passphrase does not open this encrypted export (or the file was altered). Check the passphrase and try again; nothing was stored.',
      { cause: error },
    )
  }
  return new TextDecoder().decode(plain)
}
