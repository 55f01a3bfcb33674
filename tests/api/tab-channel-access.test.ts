// How a tab reaches the engine another tab runs without sending a secret (src/tab-channel-access.ts), with Node's
// WebCrypto: an encrypted memory's channel key opens only with the memory's key, a plain memory's calls are sealed
// for the leading tab alone, and a non-extractable key is never passed on.
import { describe, expect, it } from 'vitest'
import {
  callCipher,
  joinChannel,
  openLeaderChannel,
  receivedKeyChange,
  rekeyedLeaderChannel,
  sendableKeyChange,
} from '../../src/tab-channel-access'
import { PBKDF2_ITERATIONS } from '../../worker/crypto/passphrase-key'

const GROUP = 'memory schema 6'
const bytes = (text: string) => new TextEncoder().encode(text)

async function refusal(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: { code?: string; message: string }) => error,
  )
}

describe('the tab channel access', () => {
  it("a passphrase's channel: the same passphrase opens it and seals calls the leader opens; others get WRONG_KEY", async () => {
    const leader = await openLeaderChannel(GROUP, { passphrase: 'right one' })
    expect(leader.access).toMatchObject({ kind: 'passphrase', iterations: PBKDF2_ITERATIONS })
    const follower = await joinChannel(GROUP, 'memory', leader.access, { passphrase: 'right one' })
    const sealed = await follower.cipher.seal(bytes('a call'), 'context')
    const opener = await callCipher(leader, follower.exchangeKey)
    expect(new TextDecoder().decode(await opener!.open(sealed, 'context'))).toBe('a call')

    for (const key of [{ passphrase: 'wrong one' }, {}, { key: await aesKey(false) }])
      expect((await refusal(joinChannel(GROUP, 'memory', leader.access, key))).code).toBe('WRONG_KEY')
    // An announcement asking for another iteration count is not derived at all.
    const slower = { ...leader.access, iterations: PBKDF2_ITERATIONS * 50 }
    expect((await refusal(joinChannel(GROUP, 'memory', slower, { passphrase: 'right one' }))).code).toBe('WRONG_KEY')
    // Another memory's channel key does not open under this one's name.
    expect(
      (await refusal(joinChannel('other schema 6', 'other', leader.access, { passphrase: 'right one' }))).code,
    ).toBe('WRONG_KEY')
  })

  it("a changed key's channel: tabs that joined keep the channel key, a tab joining needs the new key", async () => {
    const key = await aesKey(false)
    const leader = await openLeaderChannel(GROUP, { key })
    const before = await joinChannel(GROUP, 'memory', leader.access, { key })
    const rekeyed = await rekeyedLeaderChannel(GROUP, leader, { passphrase: 'new one' })
    const sealed = await before.cipher.seal(bytes('still works'), 'context')
    expect(await rekeyed.cipher!.open(sealed, 'context')).toBeDefined()
    expect((await refusal(joinChannel(GROUP, 'memory', rekeyed.access, { key }))).code).toBe('WRONG_KEY')
    await joinChannel(GROUP, 'memory', rekeyed.access, { passphrase: 'new one' })
  })

  it("a plain memory's channel: calls sealed by key agreement open only for the leader; a key is refused", async () => {
    const leader = await openLeaderChannel(GROUP, {})
    expect(leader.access.kind).toBe('plain')
    const follower = await joinChannel(GROUP, 'memory', leader.access, {})
    const stranger = await openLeaderChannel(GROUP, {})
    const sealed = await follower.cipher.seal(bytes('changeKey'), 'context')
    expect(await (await callCipher(leader, follower.exchangeKey))!.open(sealed, 'context')).toBeDefined()
    expect(await (await callCipher(stranger, follower.exchangeKey))!.open(sealed, 'context')).toBeUndefined()
    expect((await refusal(joinChannel(GROUP, 'memory', leader.access, { passphrase: 'late' }))).code).toBe('WRONG_KEY')
    // Encrypted since: calls sealed by key agreement are no longer opened.
    const encrypted = await rekeyedLeaderChannel(GROUP, leader, { passphrase: 'now encrypted' })
    expect(await callCipher(encrypted, follower.exchangeKey)).toBeUndefined()
  })

  it('passes on an extractable key as bytes that make the same key, and refuses a non-extractable one', async () => {
    const extractable = await aesKey(true)
    const received = await receivedKeyChange(JSON.parse(JSON.stringify(await sendableKeyChange({ key: extractable }))))
    const iv = new Uint8Array(12)
    const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, extractable, bytes('same key'))
    const opened = await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, (received as { key: CryptoKey }).key, sealed)
    expect(new TextDecoder().decode(opened)).toBe('same key')
    expect((await refusal(sendableKeyChange({ key: await aesKey(false) }))).code).toBe('INVALID_INPUT')
    expect(await sendableKeyChange({ passphrase: 'as it is' })).toEqual({ passphrase: 'as it is' })
  })
})

function aesKey(extractable: boolean): Promise<CryptoKey> {
  return crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, extractable, ['encrypt', 'decrypt'])
}
