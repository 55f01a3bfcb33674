// Encryption at rest, proven on the bytes: every object store is read raw (keys, values, typed arrays) and searched
// for the history's words and for its sentences' vectors, as float32 or int8 runs at any byte offset. The same scan of
// a plain memory finds both, so the scan can fail.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { createMemory, splitSentences, type Memory, type NodeMemoryOptions } from '../../src/node'
import type { AtRestKey } from '../../worker/crypto/at-rest-key'
import type { MessageRecord } from '../../worker/store/message-record'
import { SiftStore } from '../../worker/store/store'
import { dumpRaw, getAllRaw } from '../raw-database'

const history = [
  {
    id: 'm1',
    conversationId: 'travel',
    role: 'user',
    content: 'My grandmother keeps a xylophone in her houseboat near Zanzibar.',
  },
  { id: 'm2', conversationId: 'travel', role: 'assistant', content: 'A xylophone on a houseboat sounds delightful.' },
  { id: 'm3', conversationId: 'food', role: 'user', content: 'I make kumquat marmalade every winter with cardamom.' },
  {
    id: 'm4',
    conversationId: 'food',
    role: 'user',
    content: 'The quokka sanctuary asked for volunteers on Saturdays.',
  },
]
/** Words of the history that no record would hold for another reason, and the stems the lexical index keeps. */
const WORDS = [
  'xylophone',
  'houseboat',
  'Zanzibar',
  'grandmother',
  'kumquat',
  'marmalade',
  'cardamom',
  'quokka',
  'sanctuary',
  'volunteer',
  'delightful',
]
const REQUESTS = ['What instrument does my grandmother keep?', 'What do I cook in winter?', 'Where can I volunteer?']

/** The fields an encrypted memory's records may hold, by object store: docs/privacy.md's list of what stays in clear, and `sealed`. */
const CLEAR_FIELDS = {
  messages: ['id', 'seq', 'conversationId', 'timestamp', 'firstSid', 'sentences', 'sealed'],
  vectorBlocks: ['blockId', 'format', 'model', 'dim', 'firstSid', 'lastSid', 'sealed'],
  vectorResiduals: ['blockId', 'sealed'],
  lexicalSnapshots: ['key', 'format', 'nextSid', 'sealed'],
  coarseLists: ['key', 'sealed'],
  meta: [
    'key',
    'schemaVersion',
    'model',
    'nextSeq',
    'nextSid',
    'nextBlockId',
    'embeddedThrough',
    'kdf',
    'salt',
    'iterations',
    'check',
  ],
}

/** A strong passphrase is the app's business; the tests only need one. */
const PASSPHRASE = 'correct horse battery staple'

function options(name: string, indexedDB: IDBFactory, extra: Partial<NodeMemoryOptions> = {}): NodeMemoryOptions {
  return { name, indexedDB, IDBKeyRange: IDBKeyRange as unknown as typeof globalThis.IDBKeyRange, ...extra }
}

/**
 * Enough plain sentences after the history for the lexical snapshot to be saved (it is rewritten once 500 sentences
 * are missing from it), so that the scan covers it too. Their words are not among `WORDS`.
 */
const filler = Array.from({ length: 520 }, (_, i) => ({
  role: 'user',
  content: `Reminder number ${i} about the weekly team meeting.`,
}))

/** A memory that stored and embedded the history (and `filler` after it with `withFiller`), closed so its saved indexes are written. */
async function written(
  name: string,
  indexedDB: IDBFactory,
  extra: Partial<NodeMemoryOptions> = {},
  withFiller = false,
): Promise<void> {
  const memory = await createMemory(options(name, indexedDB, extra))
  await memory.add(history)
  if (withFiller) await memory.add(filler)
  await memory.indexed()
  await memory.close()
}

async function contexts(memory: Memory): Promise<string[]> {
  // Ranked with the model, as every memory compared is: until it has loaded, hybrid and dense rank by words.
  await memory.ready()
  const texts: string[] = []
  for (const request of REQUESTS)
    for (const strategy of ['hybrid', 'dense', 'lexical'] as const)
      texts.push((await memory.buildContext(request, { strategy, budget: 200 })).text)
  return texts
}

const rawRecords = (indexedDB: IDBFactory, name: string, store: string) =>
  getAllRaw(indexedDB as unknown as globalThis.IDBFactory, name, store)

const dump = (indexedDB: IDBFactory, name: string) => dumpRaw(indexedDB as unknown as globalThis.IDBFactory, name)

/** The words of `WORDS` found in `bytes`, as one-byte (Latin-1, UTF-8 for ASCII) or two-byte (UTF-16) strings, in any case. */
function wordsIn(bytes: Buffer): string[] {
  return WORDS.filter((word) =>
    [word, word.toLowerCase(), word.toLowerCase().slice(0, 6)].some(
      (form) => bytes.includes(Buffer.from(form, 'latin1')) || bytes.includes(Buffer.from(form, 'utf16le')),
    ),
  )
}

/** The history's sentences: sids 1 … this, stored first. */
const HISTORY_SENTENCES = history.reduce((count, message) => count + splitSentences(message.content).length, 0)

/** The vectors of the history's sentences, as a plain memory stores them (int8 codes: cosine to the real vector ≈ 1). */
async function storedVectors(indexedDB: IDBFactory, name: string): Promise<Float32Array[]> {
  const blocks = (await rawRecords(indexedDB, name, 'vectorBlocks')) as {
    dim: number
    sids: Float64Array
    codes: Int8Array
  }[]
  return blocks.flatMap(({ dim, sids, codes }) =>
    Array.from(sids).flatMap((sid, row) =>
      sid <= HISTORY_SENTENCES ? [Float32Array.from(codes.subarray(row * dim, (row + 1) * dim))] : [],
    ),
  )
}

/**
 * How many windows of `bytes` (float32 at each of the four alignments, int8 at every offset) lie within cosine 0.99 of
 * a reference. A window is compared in full only when its first quarter passes a bound any such window passes: with
 * w = a·r̂ + p (p ⊥ r̂), cosine ≥ 0.99 gives a ≥ 0.99|w| and |p| ≤ 0.1411|w|, so the quarters' cosine is at least
 * (0.99h − 0.1411) / (0.99h + 0.1411), h the norm of r̂'s first quarter.
 */
function vectorRunsIn(bytes: Buffer, references: readonly Float32Array[]): { float32: number; int8: number } {
  const dim = references[0].length
  const head = dim / 4
  const unit = references.map((r) => {
    const norm = Math.hypot(...r)
    return r.map((x) => x / norm)
  })
  const heads = unit.map((r) => Math.hypot(...r.subarray(0, head)))
  const headBounds = heads.map((h) => (0.99 * h - 0.1411) / (0.99 * h + 0.1411))
  const near = (values: ArrayLike<number>): number => {
    let count = 0
    for (let at = 0; at + dim <= values.length; at++) {
      let headSquares = 0
      for (let j = 0; j < head; j++) headSquares += values[at + j] * values[at + j]
      // A NaN or infinite component makes every cosine NaN.
      if (!(headSquares > 0) || !Number.isFinite(headSquares)) continue
      const hit = unit.some((reference, r) => {
        let dot = 0
        for (let j = 0; j < head; j++) dot += values[at + j] * reference[j]
        if (dot < headBounds[r] * Math.sqrt(headSquares) * heads[r]) return false
        let squares = headSquares
        for (let j = head; j < dim; j++) {
          dot += values[at + j] * reference[j]
          squares += values[at + j] * values[at + j]
        }
        return dot > 0.99 * Math.sqrt(squares)
      })
      if (hit) count++
    }
    return count
  }
  let float32 = 0
  for (let offset = 0; offset < 4; offset++)
    float32 += near(
      new Float32Array(
        bytes.buffer.slice(
          bytes.byteOffset + offset,
          bytes.byteOffset + offset + Math.floor((bytes.length - offset) / 4) * 4,
        ),
      ),
    )
  return { float32, int8: near(new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length)) }
}

/** The messages and the sids of the stored vectors, read through the store with `key` (and the stored model, which keeps the vectors). */
async function openedStore(
  indexedDB: IDBFactory,
  name: string,
  key: AtRestKey,
): Promise<{ messages: MessageRecord[]; vectorSids: number[] }> {
  const [state] = (await rawRecords(indexedDB, name, 'meta')).filter((r) => (r as { key: string }).key === 'state') as {
    model: string
  }[]
  const store = await SiftStore.open(
    name,
    {
      indexedDB: indexedDB as unknown as globalThis.IDBFactory,
      IDBKeyRange: IDBKeyRange as unknown as typeof globalThis.IDBKeyRange,
    },
    state.model,
    key,
  )
  const { messages, blocks } = await store.readContents()
  store.close()
  return { messages, vectorSids: blocks.flatMap((b) => Array.from(b.sids)).sort((a, b) => a - b) }
}

async function rejection(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: { code?: string; message: string }) => error,
  )
}

describe('encryption at rest', () => {
  it('leaves no word and no vector of the history in any object store; a plain memory holds both', async () => {
    const indexedDB = new IDBFactory()
    await written('plain', indexedDB, {}, true)
    await written('sealed', indexedDB, { passphrase: PASSPHRASE }, true)
    const references = await storedVectors(indexedDB, 'plain')
    expect(references).toHaveLength(HISTORY_SENTENCES)

    const plain = await dump(indexedDB, 'plain')
    expect(wordsIn(plain)).toEqual(WORDS)
    expect(vectorRunsIn(plain, references).int8).toBeGreaterThanOrEqual(HISTORY_SENTENCES)

    for (const [store, fields] of Object.entries(CLEAR_FIELDS)) {
      const records = (await rawRecords(indexedDB, 'sealed', store)) as object[]
      if (store !== 'coarseLists') expect(records.length, store).toBeGreaterThan(0)
      for (const record of records) expect(fields, store).toEqual(expect.arrayContaining(Object.keys(record)))
    }
    const sealed = await dump(indexedDB, 'sealed')
    expect(wordsIn(sealed)).toEqual([])
    expect(vectorRunsIn(sealed, references)).toEqual({ float32: 0, int8: 0 })
  })

  it('seals the coarse lists: no centroid of stored vectors in the raw bytes', async () => {
    const indexedDB = new IDBFactory()
    await written('plain', indexedDB)
    const references = await storedVectors(indexedDB, 'plain')
    // Centroids that are the vectors themselves: the closest a list's mean can come to a stored sentence.
    const lists = {
      dim: references[0].length,
      probeShare: 0.5,
      trainedRows: references.length,
      centroids: Float32Array.from(references.flatMap((r) => [...r])),
      sids: new Float64Array(0),
      lists: new Int32Array(0),
    }
    const source = {
      indexedDB: indexedDB as unknown as globalThis.IDBFactory,
      IDBKeyRange: IDBKeyRange as unknown as typeof globalThis.IDBKeyRange,
    }
    for (const [name, key] of [
      ['plain-lists', undefined],
      ['sealed-lists', { passphrase: PASSPHRASE }],
    ] as const) {
      const store = await SiftStore.open(name, source, 'model', key)
      await store.saveCoarseLists(lists)
      expect((await store.readContents()).coarseLists).toMatchObject(lists)
      store.close()
    }
    expect(vectorRunsIn(await dump(indexedDB, 'plain-lists'), references).float32).toBeGreaterThanOrEqual(
      references.length,
    )
    expect(vectorRunsIn(await dump(indexedDB, 'sealed-lists'), references)).toEqual({ float32: 0, int8: 0 })
  })

  it('reopens with the passphrase: the same contexts, and it keeps adding, forgetting and saving', async () => {
    const indexedDB = new IDBFactory()
    const memory = await createMemory(options('reopen', indexedDB, { passphrase: PASSPHRASE }))
    await memory.add(history)
    await memory.indexed()
    const before = await contexts(memory)
    expect(before.join('\n')).toContain('xylophone')
    await memory.close()

    const reopened = await createMemory(options('reopen', indexedDB, { passphrase: PASSPHRASE }))
    expect(await contexts(reopened)).toEqual(before)
    expect(await reopened.stats()).toMatchObject({ messages: 4, pending: 0 })
    expect(await reopened.forget({ id: 'm4' })).toBe(1)
    await reopened.add({ id: 'm5', role: 'user', content: 'The lighthouse keeper paints seashells.' })
    await reopened.indexed()
    await reopened.close()

    const again = await createMemory(options('reopen', indexedDB, { passphrase: PASSPHRASE }))
    const text = (
      await again.buildContext('Who paints seashells? Where can I volunteer?', { strategy: 'hybrid', budget: 2000 })
    ).text
    expect(text).toContain('lighthouse keeper')
    expect(text).not.toContain('quokka')
    expect((await again.stats()).repairedAtOpen).toBeUndefined()
    await again.close()
    expect(wordsIn(await dump(indexedDB, 'reopen'))).toEqual([])
    // The forgotten message's vector went with it, and every other sentence kept its own.
    const { messages, vectorSids } = await openedStore(indexedDB, 'reopen', { passphrase: PASSPHRASE })
    expect(messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm5'])
    expect(vectorSids).toEqual(
      messages.flatMap((m) => Array.from({ length: m.spans.length / 2 }, (_, i) => m.firstSid + i)),
    )
  })

  it('lists, exports and finds what to forget from the sealed records', async () => {
    const indexedDB = new IDBFactory()
    const memory = await createMemory(options('read-back', indexedDB, { passphrase: PASSPHRASE }))
    await memory.add(history)
    await memory.indexed()
    const page = await memory.messages({ conversationId: 'food' })
    expect(page.messages.map((m) => [m.id, m.role, m.content])).toEqual(
      history.slice(2).map((m) => [m.id, m.role, m.content]),
    )
    const exported = await memory.export()
    expect('messages' in exported && exported.messages.map((m) => m.content)).toEqual(history.map((m) => m.content))
    const [match] = await memory.findForgettable('Forget that I make kumquat marmalade')
    expect(match).toMatchObject({ messageId: 'm3', content: history[2].content })
    await memory.close()
  })

  it('refuses a wrong passphrase and a missing one with WRONG_KEY, and writes nothing', async () => {
    const indexedDB = new IDBFactory()
    await written('locked', indexedDB, { passphrase: PASSPHRASE })
    const bytes = await dump(indexedDB, 'locked')

    const wrong = await rejection(
      createMemory(options('locked', indexedDB, { passphrase: 'correct horse battery stapler' })),
    )
    expect(wrong.code).toBe('WRONG_KEY')
    expect(wrong.message).toContain('passphrase does not open')
    const missing = await rejection(createMemory(options('locked', indexedDB)))
    expect(missing.code).toBe('WRONG_KEY')
    expect(missing.message).toMatch(/is encrypted: pass its passphrase/)
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
    expect((await rejection(createMemory(options('locked', indexedDB, { key })))).code).toBe('WRONG_KEY')
    expect((await dump(indexedDB, 'locked')).equals(bytes)).toBe(true)
  })

  it('takes a non-extractable CryptoKey, and only that key opens the memory', async () => {
    const indexedDB = new IDBFactory()
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
    const memory = await createMemory(options('keyed', indexedDB, { key }))
    await memory.add(history)
    await memory.indexed()
    const before = await contexts(memory)
    await memory.close()
    expect(wordsIn(await dump(indexedDB, 'keyed'))).toEqual([])

    const reopened = await createMemory(options('keyed', indexedDB, { key }))
    expect(await contexts(reopened)).toEqual(before)
    await reopened.close()
    const other = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
    expect((await rejection(createMemory(options('keyed', indexedDB, { key: other })))).code).toBe('WRONG_KEY')
    const withPassphrase = await rejection(createMemory(options('keyed', indexedDB, { passphrase: PASSPHRASE })))
    expect(withPassphrase.code).toBe('WRONG_KEY')
    expect(withPassphrase.message).toContain('encrypted with a key (a CryptoKey)')
  })

  it('changeKey re-encrypts everything: the new passphrase opens it, the old one no longer does', async () => {
    const indexedDB = new IDBFactory()
    const memory = await createMemory(options('rekeyed', indexedDB, { passphrase: PASSPHRASE }))
    await memory.add(history)
    await memory.indexed()
    const before = await contexts(memory)
    await memory.changeKey({ passphrase: 'a brand new passphrase' })
    expect(await contexts(memory)).toEqual(before)
    await memory.add({ id: 'm5', role: 'user', content: 'The lighthouse keeper paints seashells.' })
    await memory.indexed()
    const after = await contexts(memory)
    await memory.close()

    expect((await rejection(createMemory(options('rekeyed', indexedDB, { passphrase: PASSPHRASE })))).code).toBe(
      'WRONG_KEY',
    )
    const reopened = await createMemory(options('rekeyed', indexedDB, { passphrase: 'a brand new passphrase' }))
    expect((await reopened.buildContext('Who paints seashells?', { strategy: 'lexical', budget: 200 })).text).toContain(
      'lighthouse keeper',
    )
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
    await reopened.changeKey({ key })
    await reopened.close()

    expect(
      (await rejection(createMemory(options('rekeyed', indexedDB, { passphrase: 'a brand new passphrase' })))).code,
    ).toBe('WRONG_KEY')
    const keyed = await createMemory(options('rekeyed', indexedDB, { key }))
    expect(await contexts(keyed)).toEqual(after)
    await keyed.close()
    expect(wordsIn(await dump(indexedDB, 'rekeyed'))).toEqual([])
  })

  it('a key given for a plain memory encrypts it in one go; it then opens only with that key', async () => {
    const indexedDB = new IDBFactory()
    await written('was-plain', indexedDB)
    const references = await storedVectors(indexedDB, 'was-plain')
    const plain = await createMemory(options('was-plain', indexedDB))
    const before = await contexts(plain)
    await plain.close()
    expect(wordsIn(await dump(indexedDB, 'was-plain'))).toEqual(WORDS)

    const encrypted = await createMemory(options('was-plain', indexedDB, { passphrase: PASSPHRASE }))
    expect(await contexts(encrypted)).toEqual(before)
    await encrypted.close()
    const bytes = await dump(indexedDB, 'was-plain')
    expect(wordsIn(bytes)).toEqual([])
    expect(vectorRunsIn(bytes, references)).toEqual({ float32: 0, int8: 0 })
    expect((await rejection(createMemory(options('was-plain', indexedDB)))).code).toBe('WRONG_KEY')
  })

  it('clear() keeps the memory encrypted, with the key it has after changeKey', async () => {
    const indexedDB = new IDBFactory()
    const memory = await createMemory(options('cleared', indexedDB, { passphrase: PASSPHRASE }))
    await memory.add(history)
    await memory.changeKey({ passphrase: 'after the change' })
    expect(await memory.clear()).toBe(history.length)
    await memory.add({ role: 'user', content: 'The lighthouse keeper paints seashells.' })
    await memory.close()
    expect((await rejection(createMemory(options('cleared', indexedDB)))).code).toBe('WRONG_KEY')
    const reopened = await createMemory(options('cleared', indexedDB, { passphrase: 'after the change' }))
    expect(await reopened.stats()).toMatchObject({ messages: 1 })
    await reopened.close()
  })

  it('refuses a sealed write when the records it read changed before it wrote (two stores on one database)', async () => {
    const source = {
      indexedDB: new IDBFactory() as unknown as globalThis.IDBFactory,
      IDBKeyRange: IDBKeyRange as unknown as typeof globalThis.IDBKeyRange,
    }
    const [first, second] = [
      await SiftStore.open('raced', source, 'model', { passphrase: PASSPHRASE }),
      await SiftStore.open('raced', source, 'model', { passphrase: PASSPHRASE }),
    ]
    const { sentences } = await first.addMessages([
      { id: 'x', role: 'user', content: 'One. Two. Three. Four.', conversationId: 'c', timestamp: 1 },
    ])
    const sids = sentences.map((sentence) => sentence.sid)
    const vectors = Float32Array.from({ length: 2 * 8 }, (_, i) => Math.sin(i + 1))
    // Both read the same trailing blocks before either writes: the one that writes second would overwrite the other's block.
    const results = await Promise.allSettled([
      first.appendVectors(sids.slice(0, 2), vectors, 8, sids[1]),
      second.appendVectors(sids.slice(2), vectors, 8, sids[3]),
    ])
    const stored = results.flatMap((result, i) => (result.status === 'fulfilled' ? [i] : []))
    expect(stored).toHaveLength(1)
    const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult
    expect(refused.reason).toMatchObject({
      code: 'STORAGE_FAILED',
      message: expect.stringContaining('changed while they were being re-sealed'),
    })
    const { blocks } = await first.readContents()
    expect(blocks.flatMap((b) => Array.from(b.sids))).toEqual(stored[0] === 0 ? sids.slice(0, 2) : sids.slice(2))
    first.close()
    second.close()
  })

  it('refuses malformed keys with INVALID_INPUT before opening anything', async () => {
    const indexedDB = new IDBFactory()
    const signing = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
    const aes = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
    const aes128 = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 128 }, false, ['encrypt', 'decrypt'])
    const cases: [Partial<NodeMemoryOptions>, RegExp][] = [
      [{ passphrase: '' }, /passphrase must be a non-empty string, got an empty string/],
      [{ passphrase: 42 as unknown as string }, /passphrase must be a non-empty string, got number/],
      [{ passphrase: PASSPHRASE, key: aes }, /either passphrase or key, not both/],
      [{ key: 'not a key' as unknown as CryptoKey }, /key must be a CryptoKey/],
      [{ key: signing }, /AES-GCM key with the usages/],
      [{ key: aes128 }, /256-bit AES-GCM key, got a 128-bit one/],
    ]
    for (const [extra, message] of cases) {
      const error = await rejection(createMemory(options('refused', indexedDB, extra)))
      expect(error.code).toBe('INVALID_INPUT')
      expect(error.message).toMatch(message)
      expect(error.message).not.toContain(PASSPHRASE)
    }
    expect(await indexedDB.databases()).toEqual([])

    const memory = await createMemory(options('refused', indexedDB, { passphrase: PASSPHRASE }))
    for (const next of [{}, { passphrase: '' }, { key: signing }, { key: aes128 }, null]) {
      const error = await rejection(memory.changeKey(next as { passphrase: string }))
      expect(error.code).toBe('INVALID_INPUT')
      expect(error.message).toContain('The key was not changed')
    }
    await memory.close()
    const reopened = await createMemory(options('refused', indexedDB, { passphrase: PASSPHRASE }))
    await reopened.close()
  })
})
