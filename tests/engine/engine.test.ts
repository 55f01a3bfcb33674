import { fileURLToPath } from 'node:url'
import Dexie from 'dexie'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemory, SiftError, type Context, type Memory, type MessageInput, type Strategy } from '../../src/node'
import { Embedder } from '../../worker/embed/embedder'
import { modelInThisThread } from '../../worker/embed/model-in-this-thread'
import { resolveEmbedding } from '../../worker/embed/embedding-presets'
import type { SerializedLexicalIndex } from '../../worker/index/lexical/lexical-index'

const modelPath = fileURLToPath(new URL('../../public/models/', import.meta.url))
const DAY = 86_400_000

const topics = [
  'My sister Alma moved to Lisbon last spring. She teaches violin at a music school there.',
  'The boiler in the basement makes a knocking noise every morning. A plumber is coming on Thursday.',
  'I am training for a half marathon in October. My long run this week was eighteen kilometres.',
  'Our cat Pixel refuses to eat the new salmon food. We went back to the chicken one.',
  'The quarterly budget review moved to the fourteenth. Finance wants the forecast by Monday.',
  'I started learning Japanese with flashcards. Kanji for numbers are the easiest so far.',
  'The tomato plants on the balcony finally have fruit. The basil died in the heatwave.',
  'My flight to Montreal leaves at seven in the morning. I still need to renew my passport.',
]

function history(): MessageInput[] {
  return topics.flatMap((content, i) => [
    {
      role: 'user',
      content,
      conversationId: i % 2 ? 'odd' : 'even',
      id: `u${i}`,
      timestamp: 1_700_000_000_000 + i * DAY,
    },
    {
      role: 'assistant',
      content: `Thanks for telling me. I will remember that (${i}).`,
      conversationId: i % 2 ? 'odd' : 'even',
      id: `a${i}`,
      timestamp: 1_700_000_000_000 + i * DAY + 1000,
    },
  ])
}

function expectHonest(ctx: Context, budget: number): void {
  const { stats, items, text } = ctx
  expect(stats.used).toBe(text.length)
  expect(stats.fill).toBeCloseTo(stats.used / budget, 10)
  if (stats.strategy !== 'full') expect(stats.used).toBeLessThanOrEqual(budget)
  if (stats.stoppedBy === 'budget') expect(stats.fill).toBeGreaterThanOrEqual(0.9)
  for (let i = 1; i < items.length; i++) {
    const [a, b] = [items[i - 1], items[i]]
    expect(a.seq < b.seq || (a.seq === b.seq && a.start < b.start)).toBe(true)
  }
  for (const item of items) {
    expect(Number.isFinite(item.score)).toBe(true)
    expect(text).toContain(item.text)
  }
  expect(stats.candidatesConsidered).toBeGreaterThanOrEqual(items.length)
  expect(Number.isFinite(stats.ms) && Number.isFinite(stats.queryMs)).toBe(true)
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SiftError)
  return (error as SiftError).code
}

describe('Embedder on the shipped model', () => {
  it('scores a paraphrase pair above unrelated pairs, empty text as exactly zero and all-unknown text as finite', async () => {
    const embedder = new Embedder({
      model: 'use-lite',
      embedding: resolveEmbedding('use-lite'),
      localModelPath: modelPath,
      allowRemoteModels: false,
      backends: ['cpu'],
      startModel: modelInThisThread,
    })
    const texts = [
      'How old is your brother?',
      'What is the age of your brother?',
      'The train to Berlin was delayed by an hour.',
      'I prefer green tea over coffee.',
      '',
      '\u0000\u0001\u0002',
    ]
    const vectors = await embedder.embed(texts, 'document')
    const dim = embedder.dim!
    const row = (i: number) => vectors.subarray(i * dim, (i + 1) * dim)
    const cosine = (a: number, b: number) => row(a).reduce((sum, v, d) => sum + v * row(b)[d], 0)
    expect(embedder.backend).toBe('cpu')
    expect(cosine(0, 0)).toBeCloseTo(1, 4)
    const paraphrase = cosine(0, 1)
    for (const [a, b] of [
      [0, 2],
      [0, 3],
      [1, 2],
      [1, 3],
      [2, 3],
    ])
      expect(paraphrase).toBeGreaterThan(cosine(a, b) + 0.2)
    expect(Array.from(row(4)).every((v) => v === 0)).toBe(true)
    for (let i = 0; i < texts.length; i++) expect(Array.from(row(i)).every(Number.isFinite)).toBe(true)
    await embedder.dispose()
  })

  it('embeds more texts than one batch in length-sorted batches and returns the rows in input order', async () => {
    const embedder = new Embedder({
      model: 'use-lite',
      embedding: resolveEmbedding('use-lite'),
      localModelPath: modelPath,
      allowRemoteModels: false,
      backends: ['cpu'],
      startModel: modelInThisThread,
    })
    const texts = Array.from({ length: 70 }, (_, i) =>
      `Note ${i}: ${'the harbour was calm that morning '.repeat(1 + ((i * 7) % 5))}`.trim(),
    )
    const together = await embedder.embed(texts, 'document')
    const dim = embedder.dim!
    for (const i of [0, 1, 33, 69]) {
      const alone = await embedder.embed([texts[i]], 'document')
      const cosine = alone.reduce((sum, v, d) => sum + v * together[i * dim + d], 0)
      expect(cosine, `row ${i}`).toBeGreaterThan(0.9999)
    }
    await embedder.dispose()
  })
})

describe('Engine on the shipped model', () => {
  const indexedDB = new IDBFactory()
  let memory: Memory

  beforeAll(async () => {
    memory = await createMemory({ name: 'engine', indexedDB })
    await memory.add(history())
    await memory.indexed()
  })
  afterAll(() => memory.close())

  it('retrieves the relevant sentence first with dense, lexical and hybrid', async () => {
    for (const strategy of ['dense', 'hybrid', 'lexical'] as const) {
      const ctx = await memory.buildContext('When is the plumber coming to fix the boiler?', { strategy, budget: 200 })
      expectHonest(ctx, 200)
      expect(ctx.text, strategy).toContain('A plumber is coming on Thursday.')
      expect(ctx.items.every((i) => i.reason === 'relevant' || i.reason === 'neighbor')).toBe(true)
    }
    const paraphrase = await memory.buildContext('Which town did Alma relocate to?', { strategy: 'dense', budget: 80 })
    expect(paraphrase.text).toContain('Lisbon')
  })

  it('respects budget, fill and chronology for every strategy, and reports the scope honestly', async () => {
    const strategies: Strategy[] = ['hybrid', 'dense', 'lexical', 'head', 'tail', 'full']
    const stats = await memory.stats()
    for (const strategy of strategies) {
      for (const budget of [150, 600, 100_000]) {
        const ctx = await memory.buildContext('cat food and marathon training', { strategy, budget })
        expectHonest(ctx, budget)
        expect(ctx.stats).toMatchObject({ strategy, backend: 'cpu', pending: 0, historySentences: stats.sentences })
        if (budget === 100_000) expect(ctx.stats.stoppedBy, strategy).toBe('exhausted')
      }
    }
    const full = await memory.buildContext('', { strategy: 'full', budget: 10 })
    expect(full.items).toHaveLength(stats.sentences)
    expect(full.stats.historyChars).toBe(history().reduce((sum, m) => sum + m.content.length, 0))
    const head = await memory.buildContext('', { strategy: 'head', budget: 100 })
    expect(head.text.startsWith(`user (14 November 2023): ${topics[0].slice(0, 20)}`)).toBe(true)
    const tail = await memory.buildContext('', { strategy: 'tail', budget: 100 })
    expect(tail.items.at(-1)!.messageId).toBe('a7')
    const everything = await memory.buildContext('anything', { strategy: 'dense', budget: 100_000 })
    expect(everything.items).toHaveLength(stats.sentences)
    // Every sentence, plus the neighbours offered beside the best matches (each packed once).
    expect(everything.stats.candidatesConsidered).toBeGreaterThanOrEqual(stats.sentences)
  })

  it('scopes to a conversation, pins recent turns and interleaves extra queries', async () => {
    const scoped = await memory.buildContext('boiler plumber', {
      conversationId: 'even',
      budget: 100_000,
      strategy: 'hybrid',
    })
    expect(scoped.items.every((i) => i.conversationId === 'even')).toBe(true)
    expect(scoped.stats.historySentences).toBe(scoped.items.length)
    expect(scoped.text).not.toContain('plumber')
    const recent = await memory.buildContext('Japanese kanji', { recentTurns: 2, budget: 400 })
    expectHonest(recent, 400)
    expect(recent.items.filter((i) => i.reason === 'recent').map((i) => i.messageId)).toEqual(
      expect.arrayContaining(['u7', 'a7']),
    )
    expect(recent.text).toContain('Kanji for numbers')
    const multi = await memory.buildContext('tomato plants on the balcony', {
      queries: ['passport renewal for the flight'],
      budget: 200,
      strategy: 'dense',
    })
    expect(multi.text).toContain('tomato')
    expect(multi.text).toContain('passport')
  })

  it('rejects invalid requests with INVALID_INPUT', async () => {
    expect(await codeOf(memory.buildContext('x', { budget: 0 }))).toBe('INVALID_INPUT')
    expect(await codeOf(memory.buildContext('x', { budget: 10.5 }))).toBe('INVALID_INPUT')
    expect(await codeOf(memory.buildContext('x', { strategy: 'magic' as Strategy }))).toBe('INVALID_INPUT')
    expect(await codeOf(memory.buildContext('x', { recentTurns: -1 }))).toBe('INVALID_INPUT')
    expect(await codeOf(memory.buildContext(42 as never))).toBe('INVALID_INPUT')
    expect(await codeOf(memory.forget({} as never))).toBe('INVALID_INPUT')
    expect(await codeOf(memory.forget({ before: 'soon' }))).toBe('INVALID_INPUT')
  })

  it('gives finite scores for an empty request and for all-unknown text', async () => {
    const local = await createMemory({ name: 'unknown-text', indexedDB })
    await local.add([
      { role: 'user', content: '\u0000\u0001 \u0002' },
      { role: 'user', content: 'A normal sentence.' },
    ])
    await local.indexed()
    for (const request of ['', '\u0003\u0004', 'normal']) {
      for (const strategy of ['dense', 'hybrid'] as const) {
        const ctx = await local.buildContext(request, { strategy, budget: 1000 })
        expectHonest(ctx, 1000)
        if (request === '') expect(ctx.items.every((i) => i.score === 0 || strategy === 'hybrid')).toBe(true)
      }
    }
    await local.close()
  })
})

describe('Lexical index snapshot', () => {
  const readSnapshot = async (indexedDB: IDBFactory, name: string) => {
    const db = new Dexie(name, { indexedDB, IDBKeyRange })
    await db.open()
    const snapshot = await db.table('lexicalSnapshots').get('lexical')
    db.close()
    return snapshot as { nextSid: number; index: SerializedLexicalIndex } | undefined
  }

  const bestLexicalMatch = async (memory: Memory, request: string) => {
    const { items } = await memory.buildContext(request, { strategy: 'lexical', budget: 1000 })
    return items.sort((a, b) => b.score - a.score)[0]?.messageId
  }

  it('is saved once enough sentences are missing from it, restored at open, and rewritten without forgotten words', async () => {
    const indexedDB = new IDBFactory()
    const words = ['harbour', 'lantern', 'meadow', 'glacier', 'orchard', 'canyon']
    const notes = Array.from({ length: 600 }, (_, i) => ({
      role: 'user',
      id: `n${i}`,
      content: `Note ${i} mentions the ${words[i % words.length]} number${i}.`,
    }))
    notes[5].content = 'The xylophone recital is on Friday.'
    const first = await createMemory({ name: 'snapshot', indexedDB })
    await first.add(notes)
    await first.close()
    const saved = await readSnapshot(indexedDB, 'snapshot')
    expect(saved?.nextSid).toBe(601)
    expect(saved?.index.sentences.terms.split('\n')).toContain('xylophon')

    const second = await createMemory({ name: 'snapshot', indexedDB })
    await second.add({ role: 'user', id: 'late', content: 'A pelican landed on the roof.' })
    for (const [request, id] of [
      ['glacier number424', 'n424'],
      ['xylophone recital', 'n5'],
      ['pelican roof', 'late'],
    ]) {
      expect(await bestLexicalMatch(second, request), request).toBe(id)
    }
    expect(await second.forget({ id: 'n5' })).toBe(1)
    expect(await readSnapshot(indexedDB, 'snapshot')).toBeUndefined()
    await second.close()
    const rewritten = await readSnapshot(indexedDB, 'snapshot')
    expect(rewritten?.nextSid).toBe(602)
    expect(rewritten?.index.sentences.terms.split('\n')).not.toContain('xylophon')
    expect(rewritten?.index.turns.terms.split('\n')).not.toContain('xylophon')

    const third = await createMemory({ name: 'snapshot', indexedDB })
    expect(await third.stats()).toMatchObject({ messages: 600, sentences: 600 })
    expect((await third.buildContext('xylophone recital', { strategy: 'lexical', budget: 1000 })).items).toEqual([])
    expect(await bestLexicalMatch(third, 'pelican roof')).toBe('late')
    expect(await bestLexicalMatch(third, 'meadow number2')).toBe('n2')
    await third.close()
  })
})

describe('Lexical index snapshot of an older format', () => {
  it('is not used: the index is rebuilt from the messages once at open, and the fresh snapshot replaces it', async () => {
    const indexedDB = new IDBFactory()
    const notes = Array.from({ length: 600 }, (_, i) => ({
      role: 'user',
      id: `n${i}`,
      content: `Note ${i} mentions the harbour number${i}.`,
    }))
    notes[5].content = 'The xylophone recital is on Friday.'
    notes[6].content = '我们的装修公司叫匠心居装饰。'
    const first = await createMemory({ name: 'old-snapshot', indexedDB })
    await first.add(notes)
    await first.close()
    const db = new Dexie('old-snapshot', { indexedDB, IDBKeyRange })
    await db.open()
    const table = db.table('lexicalSnapshots')
    const saved = await table.get('lexical')
    expect(saved.format).toBe(5)
    // As a format-4 snapshot, with a vocabulary that would find nothing if it were read.
    saved.format = 4
    saved.index.sentences.terms = saved.index.sentences.terms.replaceAll('xylophon', 'stale')
    saved.index.turns.terms = saved.index.turns.terms.replaceAll('xylophon', 'stale')
    await table.put(saved)
    db.close()

    const second = await createMemory({ name: 'old-snapshot', indexedDB })
    const best = async (memory: Memory, request: string) =>
      (await memory.buildContext(request, { strategy: 'lexical', budget: 1000 })).items.sort(
        (a, b) => b.score - a.score,
      )[0]?.messageId
    expect(await best(second, 'xylophone recital')).toBe('n5')
    expect(await best(second, '装修的是哪家公司')).toBe('n6')
    await second.close()
    const reread = new Dexie('old-snapshot', { indexedDB, IDBKeyRange })
    await reread.open()
    const rebuilt = await reread.table('lexicalSnapshots').get('lexical')
    expect(rebuilt.format).toBe(5)
    expect(rebuilt.index.sentences.terms.split('\n')).toContain('xylophon')
    expect(rebuilt.index.sentences.terms.split('\n')).not.toContain('stale')

    // Once: the next open reads the fresh snapshot and has nothing to rewrite.
    const third = await createMemory({ name: 'old-snapshot', indexedDB })
    expect(await best(third, 'xylophone recital')).toBe('n5')
    await third.close()
    expect(await reread.table('lexicalSnapshots').get('lexical')).toEqual(rebuilt)
    reread.close()
  })
})

describe('Engine lifecycle', () => {
  it('forgets everywhere: no strategy can bring a forgotten sentence back, not even after a reopen', async () => {
    const indexedDB = new IDBFactory()
    const memory = await createMemory({ name: 'forget', indexedDB })
    await memory.add(history())
    await memory.add({
      role: 'user',
      content: 'The secret vault code is pelican forty two.',
      id: 'secret',
      conversationId: 'even',
      timestamp: 1_600_000_000_000,
    })
    await memory.indexed()
    const before = await memory.stats()
    expect(await memory.forget({ id: 'secret' })).toBe(1)
    expect(await memory.forget({ id: 'secret' })).toBe(0)
    const check = async (m: Memory) => {
      for (const strategy of ['hybrid', 'dense', 'lexical', 'head', 'tail', 'full'] as const) {
        const ctx = await m.buildContext('secret vault code pelican', { strategy, budget: 100_000 })
        expect(ctx.text, strategy).not.toContain('pelican')
        expect(ctx.items.some((i) => i.messageId === 'secret')).toBe(false)
      }
    }
    await check(memory)
    expect(await memory.stats()).toMatchObject({
      messages: before.messages - 1,
      sentences: before.sentences - 1,
      pending: 0,
    })
    expect(await memory.forget({ conversationId: 'odd' })).toBe(8)
    expect(await memory.forget({ before: new Date(1_700_000_000_000 + DAY) })).toBe(2)
    await memory.close()
    const reopened = await createMemory({ name: 'forget', indexedDB })
    await check(reopened)
    const left = await reopened.buildContext('', { strategy: 'full' })
    expect(new Set(left.items.map((i) => i.messageId))).toEqual(new Set(['u2', 'a2', 'u4', 'a4', 'u6', 'a6']))
    await reopened.indexed()
    // Every vector was stored before the reopen, so nothing loads the model but a request: until it has, dense ranks by
    // words, and 'anything' shares none.
    await reopened.ready()
    const dense = await reopened.buildContext('anything', { strategy: 'dense', budget: 100_000 })
    expect(dense.items).toHaveLength(left.items.length)
    await reopened.close()
  })

  it('reports a missing model as MODEL_UNAVAILABLE while lexical and positional strategies keep working', async () => {
    const memory = await createMemory({
      localModelPath: fileURLToPath(new URL('../fixtures/', import.meta.url)),
      strictRanking: true,
    })
    await memory.add({ role: 'user', content: 'The lighthouse keeper waved.' })
    const error = await memory.indexed().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SiftError)
    expect(error).toMatchObject({ code: 'MODEL_UNAVAILABLE', message: expect.stringContaining('localModelPath') })
    expect(await codeOf(memory.buildContext('lighthouse', { strategy: 'hybrid' }))).toBe('MODEL_UNAVAILABLE')
    expect((await memory.buildContext('lighthouse', { strategy: 'lexical' })).text).toContain('lighthouse keeper')
    expect((await memory.stats()).pending).toBe(1)
    await memory.close()
  })

  it('resumes the embedding backlog after a reopen, re-embeds on a model change, and refuses calls after close', async () => {
    const indexedDB = new IDBFactory()
    const progress: number[] = []
    const memory = await createMemory({ name: 'resume', indexedDB })
    const many = Array.from({ length: 120 }, (_, i) => ({
      role: 'user',
      content: `Note ${i}: the meeting about item ${i} went fine.`,
    }))
    await memory.add(many)
    const total = (await memory.stats()).sentences
    await memory.close()
    expect(await codeOf(memory.stats())).toBe('CLOSED')
    expect(await codeOf(memory.add({ role: 'user', content: 'late' }))).toBe('CLOSED')
    expect(await codeOf(memory.buildContext('x'))).toBe('CLOSED')

    const reopened = await createMemory({ name: 'resume', indexedDB, onProgress: (p) => progress.push(p.pending) })
    const { pending, sentences } = await reopened.stats()
    expect(sentences).toBe(total)
    expect(pending).toBeGreaterThan(0)
    await reopened.indexed()
    expect((await reopened.stats()).pending).toBe(0)
    expect(progress.at(-1)).toBe(0)
    const dense = await reopened.buildContext('item 117', { strategy: 'dense', budget: 100_000 })
    expect(dense.items).toHaveLength(total)
    await reopened.close()

    const fullPrecision = await createMemory({ name: 'resume', indexedDB, embedding: { dtype: 'fp32' } })
    expect((await fullPrecision.stats()).pending).toBeGreaterThan(0)
    await fullPrecision.indexed()
    const reembedded = await fullPrecision.buildContext('item 117', { strategy: 'dense', budget: 100_000 })
    expect(reembedded.items).toHaveLength(total)
    expect(reembedded.stats.pending).toBe(0)
    await fullPrecision.close()
  })
})
