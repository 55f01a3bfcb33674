import { keyFromPassphrase, newSalt, PBKDF2_ITERATIONS } from '../worker/crypto/passphrase-key'
import { RecordCipher } from '../worker/crypto/record-cipher'
import { SiftError } from './errors'
import type { KeyChange, MemoryOptions } from './types'

/** The passphrase or key a memory was given. */
export type KeyOptions = Pick<MemoryOptions, 'passphrase' | 'key'>

/**
 * What the tab running a memory's engine announces on the tab channel (src/tab-election.ts), in clear, so that
 * another tab can reach its engine without sending any secret. Encrypted memory: a channel key, fresh for each tab
 * that runs the engine, sealed (AES-GCM) with a key only the memory's passphrase or key gives (PBKDF2 with `salt`, or
 * the app's `CryptoKey` itself); a tab that opens it holds the memory's key, and every call, result and progress event
 * is sealed with it. Plain memory: the public half of an ECDH (P-256) key pair, with which a tab seals its calls for
 * this one alone, since they may carry passphrases (`changeKey`, an encrypted `export` or `import`); the results stay
 * in clear, as the database they come from is.
 */
export type ChannelAccess =
  | { kind: 'plain'; exchangeKey: Uint8Array<ArrayBuffer> }
  | { kind: 'passphrase'; salt: Uint8Array<ArrayBuffer>; iterations: number; wrapped: Uint8Array<ArrayBuffer> }
  | { kind: 'key'; wrapped: Uint8Array<ArrayBuffer> }

/** The leading tab's side of the channel: what it announces, and the keys that open what other tabs send it. */
export interface LeaderChannel {
  access: ChannelAccess
  /** Encrypted memory: the channel key, and its bytes (to seal them again when the memory's key changes). */
  cipher?: RecordCipher
  channelKey?: Uint8Array<ArrayBuffer>
  /** Plain memory: the private half of `access.exchangeKey`, and the keys agreed with each calling tab so far. */
  exchange?: { privateKey: CryptoKey; agreed: Map<string, Promise<RecordCipher>> }
}

/** A following tab's side: what seals its calls (and opens the results of an encrypted memory's). */
export interface FollowerChannel {
  cipher: RecordCipher
  /** Plain memory: this tab's ECDH public key, sent with each call so the leader can agree on `cipher` too. */
  exchangeKey?: Uint8Array<ArrayBuffer>
}

const ECDH: EcKeyImportParams = { name: 'ECDH', namedCurve: 'P-256' }
const AES_GCM: AesKeyGenParams = { name: 'AES-GCM', length: 256 }

/** The channel the tab that runs the engine opens with its memory's `key` (none for a plain memory). */
export async function openLeaderChannel(group: string, key: KeyOptions): Promise<LeaderChannel> {
  if (key.passphrase === undefined && key.key === undefined) {
    const pair = (await crypto.subtle.generateKey(ECDH, false, ['deriveKey'])) as CryptoKeyPair
    const exchangeKey = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey))
    return { access: { kind: 'plain', exchangeKey }, exchange: { privateKey: pair.privateKey, agreed: new Map() } }
  }
  return sealedChannel(group, crypto.getRandomValues(new Uint8Array(32)), key)
}

/**
 * The channel once the memory's key changed to `next`: an encrypted memory's channel key sealed with the new key (the
 * tabs that joined keep it); a plain memory, encrypted now, gets a channel key, and no more calls in clear exchange.
 */
export function rekeyedLeaderChannel(group: string, channel: LeaderChannel, next: KeyChange): Promise<LeaderChannel> {
  return sealedChannel(group, channel.channelKey ?? crypto.getRandomValues(new Uint8Array(32)), next)
}

async function sealedChannel(
  group: string,
  channelKey: Uint8Array<ArrayBuffer>,
  key: KeyOptions,
): Promise<LeaderChannel> {
  const cipher = new RecordCipher(await crypto.subtle.importKey('raw', channelKey, AES_GCM, false, ENCRYPT_DECRYPT))
  if (key.passphrase !== undefined) {
    const salt = newSalt()
    const wrapping = new RecordCipher(await keyFromPassphrase(key.passphrase, salt, PBKDF2_ITERATIONS))
    const wrapped = await wrapping.seal(channelKey, channelKeyContext(group))
    return { access: { kind: 'passphrase', salt, iterations: PBKDF2_ITERATIONS, wrapped }, cipher, channelKey }
  }
  const wrapped = await new RecordCipher(key.key!).seal(channelKey, channelKeyContext(group))
  return { access: { kind: 'key', wrapped }, cipher, channelKey }
}

/**
 * A following tab's channel to the engine `access` announces, for a memory given `key`: `WRONG_KEY`, with nothing
 * sent, when `key` does not open an encrypted memory's channel key, when an encrypted memory is joined without a key,
 * or a plain one with a key (another tab has it open in clear, so a key cannot encrypt it now).
 */
export async function joinChannel(
  group: string,
  name: string,
  access: ChannelAccess,
  key: KeyOptions,
): Promise<FollowerChannel> {
  const given = key.passphrase !== undefined ? 'passphrase' : key.key !== undefined ? 'key' : undefined
  if (access.kind === 'plain') {
    if (given) {
      throw new SiftError(
        'WRONG_KEY',
        `The memory "${name}" is not encrypted, and another tab has it open, so it cannot be encrypted now. Open it without a passphrase or key, or close its other tabs first.`,
      )
    }
    const pair = (await crypto.subtle.generateKey(ECDH, false, ['deriveKey'])) as CryptoKeyPair
    const exchangeKey = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey))
    return { cipher: await agreedCipher(pair.privateKey, access.exchangeKey), exchangeKey }
  }
  if (!given) {
    throw new SiftError(
      'WRONG_KEY',
      `The memory "${name}" is encrypted: pass its ${access.kind === 'key' ? 'key (a CryptoKey)' : 'passphrase'} to createMemory ({ ${access.kind} }). Nothing was read.`,
    )
  }
  const channelKey = await openChannelKey(group, access, key)
  if (channelKey?.length !== 32) {
    throw new SiftError(
      'WRONG_KEY',
      `That ${given} does not open the memory "${name}", which another tab has open with a ${access.kind === 'key' ? 'key (a CryptoKey)' : 'passphrase'}. Nothing was read or changed; pass the right one.`,
    )
  }
  return { cipher: new RecordCipher(await crypto.subtle.importKey('raw', channelKey, AES_GCM, false, ENCRYPT_DECRYPT)) }
}

/**
 * `changeKey`'s argument as it can cross to the leading tab inside a sealed call: a `CryptoKey` as its raw bytes,
 * which only an extractable key gives. A non-extractable key cannot be passed on at all (handing over the object in
 * clear would give it to every script of the origin), so it is refused with `INVALID_INPUT`.
 */
export async function sendableKeyChange(next: unknown): Promise<unknown> {
  const key = typeof next === 'object' && next !== null ? (next as { key?: unknown }).key : undefined
  if (typeof CryptoKey === 'undefined' || !(key instanceof CryptoKey)) return next
  if (!key.extractable || key.algorithm.name !== 'AES-GCM') {
    throw new SiftError(
      'INVALID_INPUT',
      "changeKey: another tab runs this memory's engine, and a non-extractable key cannot be passed on to it without giving it to every script of the origin. Pass an extractable AES-GCM key or a passphrase, or call changeKey in the tab that opened the memory first. The key was not changed.",
    )
  }
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', key))
  return { ...(next as object), key: { rawKey: Array.from(raw), usages: key.usages } }
}

/** The `KeyChange` that `sendableKeyChange` made `sent` of, its key imported again (extractable, as it was). */
export async function receivedKeyChange(sent: unknown): Promise<KeyChange> {
  const key = typeof sent === 'object' && sent !== null ? (sent as { key?: unknown }).key : undefined
  if (typeof key !== 'object' || key === null || !Array.isArray((key as { rawKey?: unknown }).rawKey))
    return sent as KeyChange
  const { rawKey, usages } = key as { rawKey: number[]; usages: KeyUsage[] }
  const imported = await crypto.subtle.importKey('raw', new Uint8Array(rawKey), 'AES-GCM', true, usages)
  return { ...(sent as object), key: imported } as KeyChange
}

/** What a sealed message's authenticated data says it is, so that no sealed message can be passed off as another. */
export function messageContext(group: string, kind: 'call' | 'result' | 'progress', id = ''): string {
  return `sift-memory tabs ${group} ${kind} ${id}`
}

const ENCRYPT_DECRYPT: KeyUsage[] = ['encrypt', 'decrypt']

function channelKeyContext(group: string): string {
  return `sift-memory tabs ${group} channel key`
}

async function openChannelKey(
  group: string,
  access: Exclude<ChannelAccess, { kind: 'plain' }>,
  key: KeyOptions,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  let opener: CryptoKey
  if (access.kind === 'key') {
    if (!key.key) return undefined
    opener = key.key
  } else {
    // Only the count Sift writes: an announcement asking for more would hold this tab deriving for as long as it likes.
    if (key.passphrase === undefined || access.iterations !== PBKDF2_ITERATIONS) return undefined
    opener = await keyFromPassphrase(key.passphrase, access.salt, PBKDF2_ITERATIONS)
  }
  return new RecordCipher(opener).open(access.wrapped, channelKeyContext(group))
}

async function agreedCipher(privateKey: CryptoKey, publicKey: Uint8Array<ArrayBuffer>): Promise<RecordCipher> {
  const other = await crypto.subtle.importKey('raw', publicKey, ECDH, false, [])
  const key = await crypto.subtle.deriveKey(
    { name: 'ECDH', public: other },
    privateKey,
    AES_GCM,
    false,
    ENCRYPT_DECRYPT,
  )
  return new RecordCipher(key)
}

/**
 * What opens a call: the channel key, or for a plain memory's follower the key agreed with the `exchangeKey` it sent
 * (once per tab); none when there is no such key, or the memory has since been encrypted.
 */
export async function callCipher(
  channel: LeaderChannel,
  exchangeKey: Uint8Array<ArrayBuffer> | undefined,
): Promise<RecordCipher | undefined> {
  const { exchange } = channel
  if (!exchangeKey) return channel.cipher
  if (!exchange) return undefined
  const id = Array.from(exchangeKey, (byte) => byte.toString(16).padStart(2, '0')).join('')
  let agreed = exchange.agreed.get(id)
  if (!agreed) {
    agreed = agreedCipher(exchange.privateKey, exchangeKey)
    exchange.agreed.set(id, agreed)
  }
  return agreed.catch(() => undefined)
}
