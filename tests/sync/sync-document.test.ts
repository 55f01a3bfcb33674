import { describe, expect, it } from 'vitest'
import { fromBase64 } from '../../worker/crypto/base64'
import { RecordCipher } from '../../worker/crypto/record-cipher'
import { SyncDocuments } from '../../worker/sync/sync-document'

const aesKey = () => crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
const secret = () => crypto.getRandomValues(new Uint8Array(32))

async function documents(key?: CryptoKey, idSecret = secret()): Promise<SyncDocuments> {
  return new SyncDocuments(new RecordCipher(key ?? (await aesKey())), await SyncDocuments.idKeyFrom(idSecret))
}

const message = {
  id: 'msg-7f3a',
  conversationId: 'trip-to-Porto',
  role: 'user',
  content: 'My new address is 14 Rua das Flores, and my passport number is X1234567.',
  timestamp: '2026-11-02T10:00:00Z',
  spans: [
    [0, 38],
    [40, 73],
  ],
}

describe('sync documents (what leaves the device)', () => {
  it('open to the record they carry', async () => {
    const docs = await documents()
    const document = await docs.seal('message', message.id, message)
    expect(await docs.open(document)).toEqual({ kind: 'message', id: message.id, record: message })
  })

  it('hold no text, id, role, conversation or kind of the record, and only an id and one sealed field', async () => {
    const document = await (await documents()).seal('message', message.id, message)
    expect(Object.keys(document).sort()).toEqual(['_id', 's'])
    // The sealed field is base64 of random-looking bytes, so it is searched as bytes: a lowercased base64 text
    // holds a three-letter word like "rua" by chance about once in 40 seals ((2/64)^3 per place, about 850 places).
    const sealed = new TextDecoder('latin1').decode(fromBase64(document.s))
    for (const word of [
      'Rua das Flores',
      'passport',
      'X1234567',
      'msg-7f3a',
      'trip-to-Porto',
      '"user"',
      'message',
      '2026',
    ])
      expect(sealed).not.toContain(word)
    expect(document._id).toMatch(/^r[A-Za-z0-9_-]{22}$/)
  })

  it('are named alike on every device of the memory, and unlike under another id secret or kind', async () => {
    const shared = secret()
    const [one, two, other] = [
      await documents(undefined, shared),
      await documents(undefined, shared),
      await documents(),
    ]
    const id = await one.documentId('message', message.id)
    expect(id).toMatch(/^r[A-Za-z0-9_-]{22}$/)
    expect(await two.documentId('message', message.id)).toBe(id)
    expect(await other.documentId('message', message.id)).not.toBe(id)
    expect(await one.documentId('pin', message.id)).not.toBe(id)
  })

  it('are named as CouchDB accepts: never with a leading underscore, which it keeps for its own documents', async () => {
    const docs = await documents()
    // A base64url HMAC starts with "_" once in 64 ids: 2,000 ids meet it with a probability above 1 - 1e-13.
    const ids = await Promise.all(Array.from({ length: 2000 }, (_, i) => docs.documentId('message', `m${i}`)))
    expect(ids.filter((id) => id.startsWith('_'))).toEqual([])
  })

  it('are padded, so the server learns a length only to the next 256 bytes', async () => {
    const docs = await documents()
    const sized = async (length: number) =>
      (await docs.seal('message', 'm', { ...message, content: 'a'.repeat(length) })).s.length
    expect(await sized(10)).toBe(await sized(60))
    expect(await sized(400)).toBeGreaterThan(await sized(10))
  })

  it('do not open under another key, altered, or moved to another document', async () => {
    const key = await aesKey()
    const idSecret = secret()
    const docs = await documents(key, idSecret)
    const document = await docs.seal('message', message.id, message)
    expect(await (await documents(undefined, idSecret)).open(document)).toBeUndefined()
    const flipped = document.s[10] === 'A' ? 'B' : 'A'
    expect(
      await docs.open({ ...document, s: `${document.s.slice(0, 10)}${flipped}${document.s.slice(11)}` }),
    ).toBeUndefined()
    const pin = await docs.seal('pin', 'other-message', { pinnedAt: 1 })
    expect(await docs.open({ _id: pin._id, s: document.s })).toBeUndefined()
    expect(await docs.open({ _id: document._id, s: 'not base64 at all!' })).toBeUndefined()
  })

  it('do not open when the kind and id inside do not hash to the document id', async () => {
    const key = await aesKey()
    const docs = await documents(key)
    const target = await docs.seal('message', message.id, message)
    // Sealings for the target's id made by a key holder, in the documents' format: the length, the JSON, zeros to 256.
    const sealedFor = (inside: object) => {
      const json = new TextEncoder().encode(JSON.stringify(inside))
      const bytes = new Uint8Array(Math.ceil((4 + json.length) / 256) * 256)
      new DataView(bytes.buffer).setUint32(0, json.length)
      bytes.set(json, 4)
      return new RecordCipher(key).seal(bytes, `sync:${target._id}`)
    }
    const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))
    const right = await sealedFor({ kind: 'message', id: message.id, record: message })
    expect(await docs.open({ _id: target._id, s: base64(right) })).toMatchObject({ id: message.id })
    const wrong = await sealedFor({ kind: 'pin', id: message.id, record: { pinnedAt: 1 } })
    expect(await docs.open({ _id: target._id, s: base64(wrong) })).toBeUndefined()
  })
})
