import { SiftError } from '../../src/errors'
import type { EncryptedSiftExport } from '../../src/types'
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

/** Standard base64 of `bytes`, built in chunks: one `String.fromCharCode` call per byte would be slow on a large export. */
function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += BASE64_CHUNK)
    binary += String.fromCharCode(...bytes.subarray(i, i + BASE64_CHUNK))
  return btoa(binary)
}

/** Below the engines' limit on a call's argument count. */
const BASE64_CHUNK = 0x8000

/** The bytes of standard base64 `text` (checked with `isBase64`). */
function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** Whether `text` is standard base64 (padded), as `toBase64` writes it. */
export function isBase64(text: string): boolean {
  return text.length % 4 === 0 && BASE64.test(text)
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/
