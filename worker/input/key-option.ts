import { SiftError } from '../../src/errors'
import type { AtRestKey } from '../crypto/at-rest-key'
import { readInput } from './readable-input'

/**
 * The at-rest key among `options` (`MemoryOptions.passphrase` / `.key`, or `changeKey`'s argument), validated:
 * `undefined` when neither is given (for `createMemory`: no encryption). `INVALID_INPUT` for both at once, an empty
 * or non-string passphrase, or a key that is not a 256-bit AES-GCM `CryptoKey` allowed to encrypt and decrypt. A passphrase
 * is never quoted in a message.
 */
export function toAtRestKey(
  options: { passphrase?: unknown; key?: unknown },
  method: 'createMemory' | 'changeKey',
): AtRestKey | undefined {
  const { passphrase, key } = options
  if (passphrase !== undefined && key !== undefined) invalid(method, 'pass either passphrase or key, not both')
  if (passphrase !== undefined) {
    if (typeof passphrase !== 'string' || passphrase === '')
      invalid(
        method,
        `passphrase must be a non-empty string, got ${typeof passphrase === 'string' ? 'an empty string' : describeType(passphrase)}`,
      )
    return { passphrase }
  }
  if (key === undefined) return undefined
  if (typeof CryptoKey === 'undefined' || !(key instanceof CryptoKey))
    invalid(method, `key must be a CryptoKey (crypto.subtle.generateKey or importKey), got ${describeType(key)}`)
  const { algorithm, usages } = key as CryptoKey
  if (algorithm.name !== 'AES-GCM' || !usages.includes('encrypt') || !usages.includes('decrypt')) {
    invalid(
      method,
      `key must be an AES-GCM key with the usages ['encrypt', 'decrypt'], got a ${algorithm.name} key for [${usages.join(', ')}]`,
    )
  }
  // The same strength as a passphrase's key (AES-256): a shorter key would be the weakest link of the memory.
  const { length } = algorithm as AesKeyAlgorithm
  if (length !== 256) invalid(method, `key must be a 256-bit AES-GCM key, got a ${length}-bit one`)
  return { key: key as CryptoKey }
}

/** `changeKey`'s argument, validated: exactly one of `{ passphrase }` and `{ key }`. */
export function toNextAtRestKey(next: unknown): AtRestKey {
  return readInput('changeKey', () => nextAtRestKey(next))
}

function nextAtRestKey(next: unknown): AtRestKey {
  if (typeof next !== 'object' || next === null)
    invalid('changeKey', `pass { passphrase } or { key }, got ${describeType(next)}`)
  return toAtRestKey(next, 'changeKey') ?? invalid('changeKey', 'pass { passphrase } or { key }')
}

function describeType(value: unknown): string {
  return value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'object'
        ? 'an object'
        : typeof value
}

function invalid(method: string, message: string): never {
  throw new SiftError(
    'INVALID_INPUT',
    `${method}: ${message}.${method === 'changeKey' ? ' The key was not changed.' : ''}`,
  )
}
