// A resolved forget leaves no trace, in every engine (e2e/browsers/each-engine.ts) with two tabs sharing the memory:
// every object store read raw (keys, values, typed arrays as text) holds none of the forgotten words, ids or
// conversation id, no stored row is within cosine 0.99 of a forgotten vector, and no context, findForgettable match or
// listed message contains it: in the other tab, and after a reload.
import { expect, test } from 'vitest'
import type { MessageInput, Strategy } from '../src/types'
import { STORED_FORGET } from '../worker/store/forget-write'
import { describeEachEngine } from './browsers/each-engine'
import type { PageSession } from './browsers/session'
import { scanDatabase } from './raw-scan'
import { indexedWithRetry, tabsClosedAfterEach } from './tab-pages'

const secretConversation = 'conv-secret-91b2'
/** Words, ids and the conversation id that only the forgotten conversation has. */
const needles = [
  'Zylophant',
  'cardamom',
  'Hexworth',
  'quokka',
  'msg-secret-7f3a',
  'msg-secret-8c1d',
  secretConversation,
]

// Enough sentences (over 500) for the engine to save its lexical snapshot, so the saved copy is checked too.
const kept: MessageInput[] = Array.from({ length: 260 }, (_, i) => ({
  id: `keep-${i}`,
  conversationId: 'everyday',
  role: i % 2 ? 'assistant' : 'user',
  content: `Everyday note ${i} is about the commute. The bus to the office leaves at ${7 + (i % 3)} o'clock. The canteen serves soup on day ${i}.`,
}))
const forgotten: MessageInput[] = [
  {
    id: 'msg-secret-7f3a',
    conversationId: secretConversation,
    role: 'user',
    content: 'My therapist Dr Hexworth says the Zylophant medication makes me crave cardamom.',
  },
  {
    id: 'msg-secret-8c1d',
    conversationId: secretConversation,
    role: 'assistant',
    content: 'Noted: Zylophant, cardamom cravings, and a pet quokka named after Hexworth.',
  },
]

/** What the memory answers `requests` with: contexts of every ranking, what `findForgettable` finds, the listed history. */
async function answersTo(page: PageSession, requests: string[]): Promise<string[]> {
  return page.evaluate(async (requests) => {
    const texts: string[] = []
    for (const request of requests) {
      for (const strategy of ['hybrid', 'dense', 'lexical', 'full'] as Strategy[]) {
        const context = await window.tabMemory.buildContext(request, { strategy, budget: 4000 })
        texts.push(context.text, ...context.items.map((item) => `${item.messageId} ${item.conversationId}`))
      }
      const matches = await window.tabMemory.findForgettable(request, { limit: 100 })
      texts.push(...matches.map((match) => `${match.messageId} ${match.conversationId} ${match.content}`))
    }
    const listed = await window.tabMemory.messages({ limit: 1000 })
    texts.push(...listed.messages.map((message) => `${message.id} ${message.conversationId} ${message.content}`))
    return texts
  }, requests)
}

/** The object stores of the forget cascade's stored steps (worker/store/forget-write.ts), `meta` holding its rows. */
const cascadeStores = [...new Set(['meta', ...STORED_FORGET.flatMap((step): readonly string[] => step.tables)])].sort()

const probes = ['What medication makes me crave cardamom?', 'Tell me about Dr Hexworth and the Zylophant', 'pet quokka']

/** Lets the engine write its saved copies (the lexical snapshot after a quiet second), so they hold the words too. */
const quietSecond = () => new Promise((resolve) => setTimeout(resolve, 1500))

describeEachEngine('forget proof', (run) => {
  const tab = tabsClosedAfterEach(run)
  test(`a forget from one tab leaves no trace in any object store, vector or context, in either tab and after a reload`, async () => {
    const name = `e2e-forget-proof-${run.engine.name}`
    const [leader, follower] = [await tab(name), await tab(name)]
    await leader.evaluate(
      (messages) => window.tabMemory.add(messages),
      [...kept.slice(0, 130), ...forgotten, ...kept.slice(130)],
    )
    await indexedWithRetry(follower)
    await quietSecond()

    // The scan finds what is there, and decodes the forgotten sentences' vectors to compare against afterwards.
    const before = await scanDatabase(leader, name, needles)
    // The scan reads every object store: each one of a stored step of the forget cascade, and no other.
    expect([...before.stores].sort()).toEqual(cascadeStores)
    for (const needle of needles) expect(before.found.some((where) => where.endsWith(`: ${needle}`))).toBe(true)
    expect(before.found.some((where) => where.startsWith('lexicalSnapshots'))).toBe(true)
    const secretSids = await leader.evaluate(async () => {
      const context = await window.tabMemory.buildContext('', { strategy: 'full' })
      return context.items.filter((item) => item.conversationId === 'conv-secret-91b2').length
    })
    expect(secretSids).toBeGreaterThan(0)
    const secretVectors = await vectorsOfConversation(leader, name, before.vectorsBySid)
    expect(secretVectors).toHaveLength(secretSids)
    // The comparison can tell: each forgotten vector is stored, at cosine ~1.
    expect((await scanDatabase(leader, name, [], secretVectors)).maxCosine).toBeGreaterThan(0.99)

    // Before: what the user asks to forget is found, in both tabs.
    for (const page of [leader, follower]) expect((await answersTo(page, probes)).join('\n')).toContain('Zylophant')

    expect(await follower.evaluate((id) => window.tabMemory.forget({ conversationId: id }), secretConversation)).toBe(2)

    for (const page of [leader, follower]) {
      const after = await scanDatabase(page, name, needles, secretVectors)
      expect(after.found).toEqual([])
      // Compacted, not flagged: the forgotten rows are gone from the blocks.
      expect(after.rowCount).toBe(before.rowCount - secretSids)
      expect(after.maxCosine).toBeLessThan(0.99)
      const texts = (await answersTo(page, probes)).join('\n').toLowerCase()
      for (const needle of needles) expect(texts).not.toContain(needle.toLowerCase())
    }

    // A reload: the memory reopens from what is stored, and the saved copies it writes hold nothing forgotten either.
    await reloadAndSave(leader, name)
    for (const page of [leader, follower]) {
      const texts = (await answersTo(page, probes)).join('\n').toLowerCase()
      for (const needle of needles) expect(texts).not.toContain(needle.toLowerCase())
    }
    const reloaded = await scanDatabase(leader, name, needles, secretVectors)
    expect(reloaded.found).toEqual([])
    expect(reloaded.maxCosine).toBeLessThan(0.99)
  })

  test('a sentence forgotten from one tab leaves no trace in any object store or context, and the rest of its message stays found', async () => {
    const name = `e2e-forget-sentence-proof-${run.engine.name}`
    const secret = 'My therapist Dr Quillbrand prescribed Veltrazine for my panic attacks.'
    const keptSentence = 'I take the early bus with my colleague Marisol.'
    const mixed = { id: 'msg-mixed', conversationId: 'everyday', role: 'user', content: `${keptSentence} ${secret}` }
    const secretNeedles = ['Quillbrand', 'Veltrazine', 'panic attacks']
    const [leader, follower] = [await tab(name), await tab(name)]
    await leader.evaluate(
      (messages) => window.tabMemory.add(messages),
      [...kept.slice(0, 130), mixed, ...kept.slice(130)],
    )
    await indexedWithRetry(follower)
    await quietSecond()
    const before = await scanDatabase(leader, name, [...secretNeedles, 'Marisol'])
    for (const needle of [...secretNeedles, 'Marisol'])
      expect(before.found.some((where) => where.endsWith(`: ${needle}`))).toBe(true)
    expect(before.found.some((where) => where.startsWith('lexicalSnapshots'))).toBe(true)

    // The flow as an app runs it: the whole message to findForgettable, the confirmed sentence to forget.
    const removed = await follower.evaluate(async (secret) => {
      const matches = await window.tabMemory.findForgettable(
        'The bus was late again today. Please forget what I said about my therapist and the Veltrazine.',
        { limit: 5 },
      )
      const sentence = matches[0].sentences.find((s) => s.text === secret)!
      return window.tabMemory.forget({ sentences: [{ messageId: matches[0].messageId, ...sentence }] })
    }, secret)
    expect(removed).toBe(1)

    const secretProbes = ['Who is my therapist and what did she prescribe?', 'Veltrazine panic attacks Quillbrand']
    const check = async () => {
      for (const page of [leader, follower]) {
        const texts = (await answersTo(page, secretProbes)).join('\n').toLowerCase()
        for (const needle of secretNeedles) expect(texts).not.toContain(needle.toLowerCase())
        const found = await page.evaluate(
          async () => (await window.tabMemory.buildContext('Who do I take the early bus with?', { budget: 2000 })).text,
        )
        expect(found).toContain(keptSentence)
      }
      const after = await scanDatabase(leader, name, [...secretNeedles, 'Marisol'])
      expect(after.found.filter((where) => !where.endsWith(': Marisol'))).toEqual([])
      expect(after.found.some((where) => where.startsWith('messages'))).toBe(true)
      return after
    }
    expect((await check()).rowCount).toBe(before.rowCount - 1)

    await reloadAndSave(leader, name)
    await check()
  })
})

/** A reload: the memory reopens from what is stored, and writes its saved copies again after one more message. */
async function reloadAndSave(page: PageSession, name: string): Promise<void> {
  await page.reload()
  await page.waitForFunction(() => typeof window.sift?.createMemory === 'function')
  await page.evaluate(async (name) => {
    window.tabMemory = await window.sift.createMemory({ name, device: 'wasm' })
  }, name)
  await indexedWithRetry(page)
  await page.evaluate(() =>
    window.tabMemory.add({ role: 'user', content: 'One more everyday note, so the saved copies are written again.' }),
  )
  await indexedWithRetry(page)
  await quietSecond()
}

/** The decoded vectors of the secret conversation's sentences: their sids come from its message records, read raw. */
async function vectorsOfConversation(
  page: PageSession,
  name: string,
  vectorsBySid: Record<number, number[]>,
): Promise<number[][]> {
  const sids = await page.evaluate(
    async ({ name, conversationId }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name)
        request.onsuccess = () => resolve(request.result)
        request.onerror = () => reject(request.error)
      })
      const records = await new Promise<{ conversationId: string; firstSid: number; spans: number[] }[]>(
        (resolve, reject) => {
          const request = db.transaction('messages', 'readonly').objectStore('messages').getAll()
          request.onsuccess = () => resolve(request.result)
          request.onerror = () => reject(request.error)
        },
      )
      db.close()
      return records
        .filter((record) => record.conversationId === conversationId)
        .flatMap((record) => Array.from({ length: record.spans.length / 2 }, (_, i) => record.firstSid + i))
    },
    { name, conversationId: secretConversation },
  )
  return sids.map((sid) => vectorsBySid[sid]).filter((vector) => vector !== undefined)
}
