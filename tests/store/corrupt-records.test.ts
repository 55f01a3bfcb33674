// Records Sift did not write that way (another app's, or damaged ones) never stop a memory from opening with a bare
// TypeError or a misleading DUPLICATE_ID: open skips the messages it cannot read and rebuilds a state row it cannot
// trust, says so in stats().repairedAtOpen, and everything else keeps working. Each bad record is written raw.
import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { createMemory, type Memory } from '../../src/node'
import { deleteRaw, openRaw, putRaw } from '../raw-database'

const history = [
  { id: 'm1', role: 'user', content: 'My sister is allergic to peanuts.' },
  { id: 'm2', role: 'assistant', content: 'I will keep peanuts out of the recipes.' },
]

/** A database this Sift wrote and closed: two embedded messages. */
async function writtenBySift(name: string): Promise<IDBFactory> {
  const indexedDB = new IDBFactory()
  const memory = await createMemory({ name, indexedDB })
  await memory.add(history)
  await memory.indexed()
  await memory.close()
  return indexedDB
}

async function rawRecord(indexedDB: IDBFactory, name: string, store: string, key: IDBValidKey): Promise<unknown> {
  const db = await openRaw(indexedDB, name)
  const value = await new Promise((resolve, reject) => {
    const get = db.transaction(store, 'readonly').objectStore(store).get(key)
    get.onsuccess = () => resolve(get.result)
    get.onerror = () => reject(get.error)
  })
  db.close()
  return value
}

/** The memory still adds (no DUPLICATE_ID), embeds, ranks and forgets. */
async function expectWorking(memory: Memory): Promise<void> {
  const [id] = await memory.add({ role: 'user', content: 'The ferry to the island leaves at noon.' })
  await memory.indexed()
  for (const strategy of ['hybrid', 'dense', 'lexical'] as const) {
    const context = await memory.buildContext('Who is allergic to peanuts?', { strategy, budget: 300 })
    expect(context.text).toContain('allergic to peanuts')
    expect(context.stats.ranking).toBe(strategy)
  }
  expect((await memory.buildContext('When does the ferry leave?', { strategy: 'lexical' })).text).toContain(
    'ferry to the island',
  )
  expect(await memory.forget({ id })).toBe(1)
}

const foreign = [
  {
    id: 'no-spans',
    role: 'user',
    content: 'Spans are missing.',
    conversationId: 'default',
    timestamp: 1,
    firstSid: 40,
  },
  {
    id: 'wrong-types',
    role: 7,
    content: 42,
    conversationId: 'default',
    seq: 'seven',
    timestamp: 'yesterday',
    firstSid: 41,
    spans: [0, 2],
  },
  {
    id: 'spans-past-content',
    role: 'user',
    content: 'Short.',
    conversationId: 'default',
    timestamp: 1,
    firstSid: 42,
    spans: [0, 600],
  },
  { id: 'not-even-an-object', note: 'another app wrote this' },
]

describe('open with records Sift did not write that way', () => {
  it('skips message records not in its layout, reports them, and keeps working; forget deletes them', async () => {
    const name = 'foreign-messages'
    const indexedDB = await writtenBySift(name)
    await putRaw(indexedDB, name, 'messages', foreign)

    const memory = await createMemory({ name, indexedDB })
    const stats = await memory.stats()
    expect(stats).toMatchObject({ messages: 2, pending: 0 })
    expect(stats.repairedAtOpen).toEqual({ skippedMessages: foreign.map((r) => r.id).sort(), stateRebuilt: false })
    const full = await memory.buildContext('', { strategy: 'full' })
    expect(full.items.map((item) => item.messageId)).toEqual(['m1', 'm2'])
    await expectWorking(memory)
    expect(await memory.forget({ id: 'no-spans' })).toBe(1)
    // m1, m2 and the two foreign records of that conversation; the one without a conversation is left alone.
    expect(await memory.forget({ conversationId: 'default' })).toBe(4)
    expect(await rawRecord(indexedDB, name, 'messages', 'wrong-types')).toBeUndefined()
    expect(await rawRecord(indexedDB, name, 'messages', 'not-even-an-object')).toEqual(foreign[3])
    expect(await memory.forget({ id: 'not-even-an-object' })).toBe(1)
    await memory.close()
    expect(await rawRecord(indexedDB, name, 'messages', 'not-even-an-object')).toBeUndefined()
  })

  it('rebuilds a missing state row from the messages: no DUPLICATE_ID on the next add, vectors embedded again', async () => {
    const name = 'missing-state'
    const indexedDB = await writtenBySift(name)
    await deleteRaw(indexedDB, name, 'meta', ['state'])

    const memory = await createMemory({ name, indexedDB })
    expect(await memory.stats()).toMatchObject({
      messages: 2,
      pending: 2,
      repairedAtOpen: { skippedMessages: [], stateRebuilt: true },
    })
    await expectWorking(memory)
    await memory.close()
    expect(await rawRecord(indexedDB, name, 'meta', 'state')).toMatchObject({ nextSeq: 4, nextSid: 4 })
  })

  it('rebuilds a state row of the wrong types, or one whose counters are behind the stored messages', async () => {
    for (const damage of [
      { nextSeq: 'three', embeddedThrough: null },
      { nextSeq: 1, nextSid: 1 },
    ]) {
      const name = `damaged-state-${Object.keys(damage).join('-')}`
      const indexedDB = await writtenBySift(name)
      const state = (await rawRecord(indexedDB, name, 'meta', 'state')) as Record<string, unknown>
      await putRaw(indexedDB, name, 'meta', [{ ...state, ...damage }])

      const memory = await createMemory({ name, indexedDB })
      expect((await memory.stats()).repairedAtOpen).toEqual({ skippedMessages: [], stateRebuilt: true })
      await expectWorking(memory)
      await memory.close()
    }
  })

  it('skips and reports a message whose seq disagrees with its sentence ids; the backlog then drains', async () => {
    for (const extra of [{}, { passphrase: 'pass phrase' }]) {
      const name = `seq-moved-${Object.keys(extra).length}`
      const indexedDB = new IDBFactory()
      const first = await createMemory({ name, indexedDB, ...extra })
      await first.add([
        ...history,
        { id: 'm3', role: 'user', content: 'The boiler in the basement knocks every morning.' },
        { id: 'm4', role: 'user', content: 'Our plumber Bruno comes on Thursday.' },
      ])
      await first.indexed()
      await first.close()
      const m1 = (await rawRecord(indexedDB, name, 'messages', 'm1')) as Record<string, unknown>
      await putRaw(indexedDB, name, 'messages', [{ ...m1, seq: 99 }])

      const memory = await createMemory({ name, indexedDB, ...extra })
      expect((await memory.stats()).repairedAtOpen?.skippedMessages).toEqual(['m1'])
      await Promise.race([
        memory.indexed(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('indexed() still pending after 20 s')), 20_000)),
      ])
      const dense = await memory.buildContext('When does the plumber come?', { strategy: 'dense', budget: 300 })
      expect(dense.text).toContain('plumber Bruno')
      expect(dense.items.map((item) => item.messageId)).not.toContain('m1')
      expect(await memory.forget({ id: 'm1' })).toBe(1)
      await memory.close()
    }
  })

  it('reports nothing for a database exactly as Sift wrote it', async () => {
    const name = 'sound'
    const indexedDB = await writtenBySift(name)
    const memory = await createMemory({ name, indexedDB })
    expect(await memory.stats()).not.toHaveProperty('repairedAtOpen')
    await memory.close()
  })
})
