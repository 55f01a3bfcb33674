import { packValue, unpackValue } from './packed-value'

/**
 * AES-GCM's standard nonce size. A fresh random one for every record sealed: with random 96-bit nonces one key may
 * seal about 2³² records before a repeat becomes a real risk (NIST SP 800-38D), far beyond what a memory writes.
 */
const IV_BYTES = 12
/** AES-GCM's authentication tag, appended to the ciphertext by WebCrypto. */
const TAG_BYTES = 16

/**
 * Seals records for storage with AES-GCM (WebCrypto) under one key: `iv ‖ ciphertext ‖ tag`. Each record is sealed
 * with a context, its place in the database (`message:<id>`, `block:<blockId>`, …) as additional authenticated data,
 * so a sealed value moved to another record fails to open like a wrong key does. The key is only used, never read,
 * so a non-extractable `CryptoKey` works.
 */
export class RecordCipher {
  constructor(private readonly key: CryptoKey) {}

  async seal(plain: Uint8Array<ArrayBuffer>, context: string): Promise<Uint8Array<ArrayBuffer>> {
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES))
    const ciphertext = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: contextBytes(context) },
      this.key,
      plain,
    )
    const sealed = new Uint8Array(IV_BYTES + ciphertext.byteLength)
    sealed.set(iv)
    sealed.set(new Uint8Array(ciphertext), IV_BYTES)
    return sealed
  }

  /** The plain bytes, or `undefined` when `sealed` does not open: another key, another context, or altered bytes. */
  async open(sealed: unknown, context: string): Promise<Uint8Array<ArrayBuffer> | undefined> {
    if (!(sealed instanceof Uint8Array) || sealed.length < IV_BYTES + TAG_BYTES) return undefined
    // Structured clone gives IndexedDB's bytes back in a buffer of their own: never a shared one.
    const bytes = sealed as Uint8Array<ArrayBuffer>
    try {
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: bytes.subarray(0, IV_BYTES), additionalData: contextBytes(context) },
        this.key,
        bytes.subarray(IV_BYTES),
      )
      return new Uint8Array(plain)
    } catch (error) {
      // AES-GCM's tag check failing is the one expected failure; anything else is not a wrong key.
      if ((error as Error)?.name === 'OperationError') return undefined
      throw error
    }
  }

  /** Plain data with typed arrays in it (`packValue`), sealed. */
  sealValue(value: unknown, context: string): Promise<Uint8Array<ArrayBuffer>> {
    return this.seal(packValue(value), context)
  }

  /** The value `sealValue` sealed, or `undefined` when it does not open (see `open`). */
  async openValue(sealed: unknown, context: string): Promise<unknown> {
    const plain = await this.open(sealed, context)
    return plain && unpackValue(plain)
  }
}

/**
 * Identifies one sealing of a record: its nonce, fresh each time. Two reads of a record with the same one read the
 * same write, which is how a write prepared outside a transaction checks, inside it, that nothing changed meanwhile.
 */
export function sealingOf(sealed: Uint8Array): string {
  return Array.from(sealed.subarray(0, IV_BYTES), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

function contextBytes(context: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(context)
}
