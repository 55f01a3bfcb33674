// What a forget leaves in the database and in the Node embedding cache file, read raw: the lexical snapshot, the
// vector blocks, every record's bytes, and the cache file's keys and vectors.
import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { IDBFactory } from 'fake-indexeddb'
import { afterAll, describe, expect, it } from 'vitest'
import { createMemory, type MessageInput } from '../../src/node'
import { modelFingerprint, resolveEmbedding } from '../../worker/embed/embedding-presets'
import { TransformersModel } from '../../worker/embed/transformers-model'
import { Engine } from '../../worker/engine/engine'
import type { EngineHost } from '../../worker/hosts/engine-host'
import { nodeHost } from '../../worker/hosts/node/node-host'
import type { SerializedLexicalIndex } from '../../worker/index/lexical/lexical-index'
import { dumpRaw, getAllRaw } from '../raw-database'

const SECRET = 'My zanzibar itinerary leaves from the quayside.'
const kept: MessageInput[] = [
  'My sister Alma moved to Lisbon last spring.',
  'The boiler in the basement makes a knocking noise every morning.',
  'I am training for a half marathon in October.',
  'Our cat Pixel refuses to eat the new salmon food.',
].map((content, i) => ({ role: 'user', content, id: `kept-${i}`, conversationId: 'kept-conversation' }))
/** Enough sentences for the lexical snapshot to be written (`copyIsStale`), so that there is one to read. */
const filler: MessageInput[] = Array.from({ length: 520 }, (_, i) => ({
  role: 'assistant',
  content: `Noted item ${i} of the list.`,
  conversationId: 'kept-conversation',
}))

const root = mkdtempSync(join(tmpdir(), 'sift-traces-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** Whether the raw bytes hold `text` as IndexedDB's structured clone writes a string (one byte per character, or two). */
function holds(bytes: Buffer, text: string): boolean {
  return bytes.includes(Buffer.from(text, 'latin1')) || bytes.includes(Buffer.from(text, 'utf16le'))
}

/** The cache file's record key for a sentence of the shipped model. */
function cacheKey(text: string): Buffer {
  const fingerprint = modelFingerprint('use-lite', resolveEmbedding('use-lite'))
  return createHash('sha256').update(`${fingerprint}\u0000${text}`).digest()
}

async function lexicalSnapshot(indexedDB: IDBFactory, name: string): Promise<SerializedLexicalIndex> {
  const [snapshot] = (await getAllRaw(indexedDB, name, 'lexicalSnapshots')) as { index: SerializedLexicalIndex }[]
  expect(snapshot).toBeDefined()
  return snapshot.index
}

async function storedSids(indexedDB: IDBFactory, name: string): Promise<number[]> {
  const blocks = (await getAllRaw(indexedDB, name, 'vectorBlocks')) as { sids: Float64Array }[]
  return blocks.flatMap((b) => Array.from(b.sids)).sort((a, b) => a - b)
}

/**
 * A Node host whose real model is held back while it embeds the secret (`embedding` resolves then, `release` lets it
 * go on), so that a forget lands mid-embedding.
 */
function secretHeldBack(indexedDB: IDBFactory, embeddingCacheDir: string) {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let reached!: () => void
  const embedding = new Promise<void>((resolve) => (reached = resolve))
  const host: EngineHost = {
    ...nodeHost({ indexedDB, embeddingCacheDir }, new URL('../../', import.meta.url)),
    startModel: (options) => {
      const model = new TransformersModel(options)
      return {
        load: () => model.load(),
        dispose: () => model.dispose(),
        run: async (texts) => {
          if (texts.includes(SECRET)) {
            reached()
            await released
          }
          return model.run(texts)
        },
      }
    },
  }
  return { host, embedding, release }
}

describe('forget leaves nothing behind', () => {
  it('no record, lexical snapshot, vector row or cache file entry keeps the forgotten conversation, its words or its vector', async () => {
    const indexedDB = new IDBFactory()
    const embeddingCacheDir = mkdtempSync(join(root, 'cache-'))
    const options = { name: 'traces', indexedDB, embeddingCacheDir }
    const memory = await createMemory(options)
    await memory.add([...kept, ...filler])
    await memory.add({ role: 'user', content: SECRET, id: 'secret-message', conversationId: 'secret-conversation' })
    await memory.indexed()
    await memory.close()

    // Before: every place the checks below look at does hold the secret, so they can tell.
    const before = await dumpRaw(indexedDB, 'traces')
    for (const trace of ['secret-conversation', 'secret-message', 'zanzibar'])
      expect(holds(before, trace), trace).toBe(true)
    expect((await lexicalSnapshot(indexedDB, 'traces')).conversations).toContain('secret-conversation')
    const [cacheName] = readdirSync(embeddingCacheDir)
    const cacheBefore = readFileSync(join(embeddingCacheDir, cacheName))
    const keyAt = cacheBefore.indexOf(cacheKey(SECRET))
    expect(keyAt).toBeGreaterThan(0)
    const secretVector = cacheBefore.subarray(keyAt + 32, keyAt + 32 + 512 * 4)
    const sidsBefore = await storedSids(indexedDB, 'traces')

    const reopened = await createMemory(options)
    expect(await reopened.forget({ conversationId: 'secret-conversation' })).toBe(1)
    await reopened.close()

    const after = await dumpRaw(indexedDB, 'traces')
    for (const trace of ['secret-conversation', 'secret-message', 'zanzibar', 'itinerary', 'quayside'])
      expect(holds(after, trace), trace).toBe(false)
    const snapshot = await lexicalSnapshot(indexedDB, 'traces')
    expect(snapshot.conversations).toEqual(['kept-conversation'])
    expect(snapshot.sentences.terms.split('\n')).toContain('lisbon')
    // Rows removed, not flagged: one fewer row, the others untouched.
    const sidsAfter = await storedSids(indexedDB, 'traces')
    expect(sidsAfter).toHaveLength(sidsBefore.length - 1)
    expect(sidsBefore.filter((sid) => !sidsAfter.includes(sid))).toHaveLength(1)
    const cacheAfter = readFileSync(join(embeddingCacheDir, cacheName))
    expect(cacheAfter.includes(cacheKey(SECRET))).toBe(false)
    expect(cacheAfter.includes(secretVector)).toBe(false)
    expect(cacheAfter.includes(cacheKey(kept[0].content))).toBe(true)
    expect(cacheAfter.length).toBe(cacheBefore.length - (32 + 512 * 4))
  })

  it('keeps no cached vector of a sentence forgotten while the model embedded it, nor of a findForgettable request', async () => {
    const embeddingCacheDir = mkdtempSync(join(root, 'cache-'))
    const { host, embedding, release } = secretHeldBack(new IDBFactory(), embeddingCacheDir)
    const engine = await Engine.open({ name: 'traces-in-flight' }, host)
    await engine.add(kept)
    await engine.add({ role: 'user', content: SECRET, id: 'secret-message' })
    await embedding
    expect(await engine.forget({ id: 'secret-message' })).toBe(1)
    release()
    // The control: a request's embedding is cached under its text, so the key checked below is one that would be there.
    await engine.buildContext('my brother moved to Madrid', { strategy: 'dense' })
    await engine.findForgettable('Please forget that my sister moved to Lisbon')
    await engine.indexed()
    await engine.close()
    const cache = readFileSync(join(embeddingCacheDir, readdirSync(embeddingCacheDir)[0]))
    expect(cache.includes(cacheKey(SECRET))).toBe(false)
    expect(cache.includes(cacheKey('my brother moved to Madrid'))).toBe(true)
    expect(cache.includes(cacheKey('my sister moved to Lisbon'))).toBe(false)
    expect(cache.includes(cacheKey('Please forget that my sister moved to Lisbon'))).toBe(false)
    expect(cache.includes(cacheKey(kept[0].content))).toBe(true)
  })

  it('forget({ sentences }) leaves none of the sentence in any record, snapshot, vector row or cache entry, and keeps the rest of its message', async () => {
    const indexedDB = new IDBFactory()
    const embeddingCacheDir = mkdtempSync(join(root, 'cache-'))
    const options = { name: 'traces-sentence', indexedDB, embeddingCacheDir }
    const KEPT_BEFORE = 'My sister Ottilie runs a bakery in Valparaiso.'
    const KEPT_AFTER = 'Our gecko Fennimore sleeps on the radiator.'
    const content = `${KEPT_BEFORE} ${SECRET} ${KEPT_AFTER}`
    const memory = await createMemory(options)
    await memory.add([...kept, ...filler])
    await memory.add({ role: 'user', content, id: 'mixed', conversationId: 'kept-conversation' })
    await memory.indexed()
    await memory.close()
    const before = await dumpRaw(indexedDB, 'traces-sentence')
    for (const trace of ['zanzibar', 'quayside', 'Valparaiso']) expect(holds(before, trace), trace).toBe(true)
    const [cacheName] = readdirSync(embeddingCacheDir)
    const cacheBefore = readFileSync(join(embeddingCacheDir, cacheName))
    const secretVector = cacheBefore.subarray(
      cacheBefore.indexOf(cacheKey(SECRET)) + 32,
      cacheBefore.indexOf(cacheKey(SECRET)) + 32 + 512 * 4,
    )
    const sidsBefore = await storedSids(indexedDB, 'traces-sentence')

    const reopened = await createMemory(options)
    const [match] = await reopened.findForgettable('I went shopping today. Please forget my zanzibar itinerary.', {
      limit: 1,
    })
    expect(match.messageId).toBe('mixed')
    const sentence = match.sentences.find((s) => s.text === SECRET)!
    expect(
      await reopened.forget({ sentences: [{ messageId: 'mixed', start: sentence.start, end: sentence.end }] }),
    ).toBe(1)
    const [stored] = (await reopened.messages({ conversationId: 'kept-conversation', newestFirst: true, limit: 1 }))
      .messages
    expect(stored.content).toBe(`${KEPT_BEFORE} ${KEPT_AFTER}`)
    // The rest of the message is still found, by its words and by its meaning.
    for (const strategy of ['lexical', 'dense', 'hybrid'] as const) {
      const ctx = await reopened.buildContext('Where does my sister run her bakery?', { strategy, budget: 400 })
      expect(ctx.text, strategy).toContain(KEPT_BEFORE)
      expect(ctx.text, strategy).not.toMatch(/zanzibar|quayside|itinerary/i)
      const item = ctx.items.find((i) => i.text === KEPT_BEFORE)!
      expect(stored.content.slice(item.start, item.end)).toBe(KEPT_BEFORE)
    }
    expect((await reopened.buildContext('gecko radiator', { strategy: 'lexical' })).text).toContain(KEPT_AFTER)
    await reopened.indexed()
    await reopened.close()

    const after = await dumpRaw(indexedDB, 'traces-sentence')
    for (const trace of ['zanzibar', 'itinerary', 'quayside']) expect(holds(after, trace), trace).toBe(false)
    for (const trace of ['Valparaiso', 'Fennimore']) expect(holds(after, trace), trace).toBe(true)
    const sidsAfter = await storedSids(indexedDB, 'traces-sentence')
    expect(sidsBefore.filter((sid) => !sidsAfter.includes(sid))).toHaveLength(1)
    expect(sidsAfter).toHaveLength(sidsBefore.length - 1)
    const cacheAfter = readFileSync(join(embeddingCacheDir, cacheName))
    expect(cacheAfter.includes(cacheKey(SECRET))).toBe(false)
    expect(cacheAfter.includes(secretVector)).toBe(false)
    expect(cacheAfter.includes(cacheKey(KEPT_BEFORE))).toBe(true)

    // Open again from the store alone: the lexical index is rebuilt without the sentence, the others keep their vectors.
    const third = await createMemory(options)
    expect((await third.buildContext('zanzibar quayside itinerary', { strategy: 'lexical' })).text).not.toMatch(
      /zanzibar/i,
    )
    expect((await third.buildContext('Where does my sister run her bakery?', { strategy: 'dense' })).text).toContain(
      KEPT_BEFORE,
    )
    expect((await third.stats()).pending).toBe(0)
    await third.close()
  })

  it('keeps no vector or cached vector of a sentence forgotten from its message while the model embedded it', async () => {
    const embeddingCacheDir = mkdtempSync(join(root, 'cache-'))
    const indexedDB = new IDBFactory()
    const { host, embedding, release } = secretHeldBack(indexedDB, embeddingCacheDir)
    const engine = await Engine.open({ name: 'traces-sentence-in-flight' }, host)
    await engine.add(kept)
    const content = `Our gecko Fennimore sleeps on the radiator. ${SECRET}`
    await engine.add({ role: 'user', content, id: 'mixed' })
    await embedding
    const start = content.indexOf(SECRET)
    expect(await engine.forget({ sentences: [{ messageId: 'mixed', start, end: start + SECRET.length }] })).toBe(1)
    release()
    await engine.indexed()
    await engine.close()
    const sids = await storedSids(indexedDB, 'traces-sentence-in-flight')
    expect(sids).toHaveLength(kept.length + 1)
    const cache = readFileSync(join(embeddingCacheDir, readdirSync(embeddingCacheDir)[0]))
    expect(cache.includes(cacheKey(SECRET))).toBe(false)
    expect(cache.includes(cacheKey('Our gecko Fennimore sleeps on the radiator.'))).toBe(true)
  })
})
