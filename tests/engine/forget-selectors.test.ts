import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import {
  createMemory,
  SiftError,
  type Memory,
  type MessagePage,
  type MessagesOptions,
  type StoredMessage,
} from '../../src/node'

const T0 = 1_700_000_000_000
const DAY = 86_400_000

async function codeOf(call: () => Promise<unknown>): Promise<string> {
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SiftError)
  return (error as SiftError).code
}

/** Every page of `memory.messages(options)`, following `next` (as `after`, or as `before` with `newestFirst`) until it is absent. */
async function allPages(memory: Memory, options: MessagesOptions): Promise<MessagePage[]> {
  const pages: MessagePage[] = []
  let cursor = options.newestFirst ? options.before : options.after
  do {
    const page = await memory.messages({
      ...options,
      ...(options.newestFirst ? { before: cursor } : { after: cursor }),
    })
    pages.push(page)
    cursor = page.next
  } while (cursor !== undefined)
  return pages
}

const idsOf = (messages: readonly StoredMessage[]) => messages.map((m) => m.id)

describe('forget selectors', () => {
  it('forgets by ids, after, before, conversationId and id, each resolving with what it removed', async () => {
    const memory = await createMemory({ name: 'selectors', indexedDB: new IDBFactory() })
    await memory.add(
      Array.from({ length: 10 }, (_, i) => ({
        role: 'user',
        content: `Note ${i} about topic ${i}.`,
        id: `m${i}`,
        conversationId: i % 2 ? 'b' : 'a',
        timestamp: T0 + i * DAY,
      })),
    )
    expect(await memory.forget({ ids: ['m1', 'm1', 'm2', 'missing'] })).toBe(2)
    expect(await memory.forget({ ids: [] })).toBe(0)
    // Strictly after and strictly before: m7 and m1 sit exactly on the bounds.
    expect(await memory.forget({ after: new Date(T0 + 7 * DAY) })).toBe(2)
    expect(await memory.forget({ before: new Date(T0 + DAY).toISOString() })).toBe(1)
    expect(await memory.forget({ conversationId: 'a' })).toBe(2)
    expect(await memory.forget({ id: 'm3' })).toBe(1)
    expect(idsOf((await memory.messages()).messages)).toEqual(['m5', 'm7'])
    const ctx = await memory.buildContext('note topic', { strategy: 'lexical', budget: 100_000 })
    expect(new Set(ctx.items.map((i) => i.messageId))).toEqual(new Set(['m5', 'm7']))
    await memory.close()
  })

  it('before and after are strict for fractional timestamps: the message at t stays, the one just before goes', async () => {
    const memory = await createMemory({ name: 'fractional', indexedDB: new IDBFactory() })
    const t = T0 + 0.5
    await memory.add([
      { id: 'at-t', role: 'user', content: 'Written exactly at t.', timestamp: t },
      { id: 'just-before', role: 'user', content: 'Written a quarter millisecond before t.', timestamp: t - 0.25 },
      { id: 'just-after', role: 'user', content: 'Written a quarter millisecond after t.', timestamp: t + 0.25 },
    ])
    expect(await memory.forget({ before: t })).toBe(1)
    expect(await memory.forget({ after: t })).toBe(1)
    expect(idsOf((await memory.messages()).messages)).toEqual(['at-t'])
    await memory.close()
  })

  it('refuses a malformed selector with INVALID_INPUT and removes nothing', async () => {
    const memory = await createMemory({ name: 'bad-selectors', indexedDB: new IDBFactory() })
    await memory.add([
      { role: 'user', content: 'kept', id: 'k1', timestamp: T0 },
      { role: 'user', content: 'kept too', id: 'k2', timestamp: T0 },
    ])
    for (const selector of [
      { ids: 'k1' },
      { ids: ['k1', ''] },
      { ids: [1] },
      { after: 'soon' },
      { after: NaN },
      { id: 'k1', after: 0 },
      { ids: ['k1'], conversationId: 'default' },
    ]) {
      expect(await codeOf(() => memory.forget(selector as never)), JSON.stringify(selector)).toBe('INVALID_INPUT')
    }
    expect((await memory.stats()).messages).toBe(2)
    await memory.close()
  })
})

describe('messages()', () => {
  const contents = Array.from({ length: 23 }, (_, i) => `  Note ${i}.  It has a second sentence ${i}!\n`)

  it('pages through every stored message in seq order, whole contents, per conversation too', async () => {
    const memory = await createMemory({ name: 'pages', indexedDB: new IDBFactory() })
    await memory.add(
      contents.map((content, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        content,
        id: `n${i}`,
        conversationId: `c${i % 3}`,
        timestamp: T0 + i,
      })),
    )
    const pages = await allPages(memory, { limit: 5 })
    expect(pages.map((p) => p.messages.length)).toEqual([5, 5, 5, 5, 3])
    const listed = pages.flatMap((p) => p.messages)
    expect(listed.map((m) => m.content)).toEqual(contents)
    expect(listed.map((m) => m.seq)).toEqual(contents.map((_, i) => i + 1))
    expect(listed[1]).toEqual({
      id: 'n1',
      seq: 2,
      role: 'assistant',
      content: contents[1],
      conversationId: 'c1',
      timestamp: T0 + 1,
    })
    expect(pages.at(-1)!.next).toBeUndefined()
    const c1 = (await allPages(memory, { conversationId: 'c1', limit: 3 })).flatMap((p) => p.messages)
    expect(idsOf(c1)).toEqual(['n1', 'n4', 'n7', 'n10', 'n13', 'n16', 'n19', 'n22'])
    // A page that ends exactly at the last message says so.
    expect(await memory.messages({ limit: 23 })).toEqual({ messages: listed, revision: 0 })
    expect(await memory.messages({ conversationId: 'nothing here' })).toEqual({ messages: [], revision: 0 })
    expect(await memory.messages({ after: 23 })).toEqual({ messages: [], revision: 0 })
    await memory.forget({ ids: ['n4', 'n5'] })
    expect(idsOf((await allPages(memory, { limit: 4, after: 3 })).flatMap((p) => p.messages))).toEqual(
      contents
        .map((_, i) => `n${i}`)
        .slice(3)
        .filter((id) => id !== 'n4' && id !== 'n5'),
    )
    await memory.close()
  })

  it('pages newest first with newestFirst, `next` passed as `before`, within after and before, per conversation too', async () => {
    const memory = await createMemory({ name: 'pages-newest', indexedDB: new IDBFactory() })
    await memory.add(
      contents.map((content, i) => ({
        role: 'user',
        content,
        id: `n${i}`,
        conversationId: `c${i % 3}`,
        timestamp: T0 + i,
      })),
    )
    const ids = contents.map((_, i) => `n${i}`)
    const latest = await memory.messages({ newestFirst: true, limit: 4 })
    expect(idsOf(latest.messages)).toEqual(['n22', 'n21', 'n20', 'n19'])
    expect(latest.next).toBe(20)
    expect(latest.messages[0]).toEqual({
      id: 'n22',
      seq: 23,
      role: 'user',
      content: contents[22],
      conversationId: 'c1',
      timestamp: T0 + 22,
    })
    const pages = await allPages(memory, { newestFirst: true, limit: 5 })
    expect(pages.map((p) => p.messages.length)).toEqual([5, 5, 5, 5, 3])
    expect(idsOf(pages.flatMap((p) => p.messages))).toEqual([...ids].reverse())
    expect(pages.at(-1)!.next).toBeUndefined()
    const c2 = (await allPages(memory, { conversationId: 'c2', newestFirst: true, limit: 3 })).flatMap(
      (p) => p.messages,
    )
    expect(idsOf(c2)).toEqual(['n20', 'n17', 'n14', 'n11', 'n8', 'n5', 'n2'])
    // Both bounds: seqs 6 to 10 (ids n5 to n9), oldest first and newest first.
    expect(idsOf((await memory.messages({ after: 5, before: 11 })).messages)).toEqual(['n5', 'n6', 'n7', 'n8', 'n9'])
    expect(
      idsOf((await allPages(memory, { after: 5, before: 11, newestFirst: true, limit: 2 })).flatMap((p) => p.messages)),
    ).toEqual(['n9', 'n8', 'n7', 'n6', 'n5'])
    expect(await memory.messages({ before: 1 })).toEqual({ messages: [], revision: 0 })
    expect(await memory.messages({ after: 10, before: 5, newestFirst: true })).toEqual({ messages: [], revision: 0 })
    await memory.close()
  })

  it('keeps seq order in a history added out of time order', async () => {
    const memory = await createMemory({ name: 'pages-out-of-order', indexedDB: new IDBFactory() })
    // Newest first, as an import of a history listed latest-first would add it.
    await memory.add(
      contents.map((content, i) => ({
        role: 'user',
        content,
        id: `n${i}`,
        conversationId: `c${i % 2}`,
        timestamp: T0 - i * DAY,
      })),
    )
    await memory.add({
      role: 'user',
      content: 'the oldest of all, added last',
      id: 'late',
      conversationId: 'c0',
      timestamp: 0,
    })
    const listed = (await allPages(memory, { limit: 4 })).flatMap((p) => p.messages)
    expect(idsOf(listed)).toEqual([...contents.map((_, i) => `n${i}`), 'late'])
    const c0 = (await allPages(memory, { conversationId: 'c0', limit: 5 })).flatMap((p) => p.messages)
    expect(idsOf(c0)).toEqual([...contents.map((_, i) => `n${i}`).filter((_, i) => i % 2 === 0), 'late'])
    const newest = (await allPages(memory, { newestFirst: true, limit: 4 })).flatMap((p) => p.messages)
    expect(idsOf(newest)).toEqual([...listed].reverse().map((m) => m.id))
    expect(idsOf((await memory.messages({ conversationId: 'c0', newestFirst: true, limit: 2 })).messages)).toEqual([
      'late',
      'n22',
    ])
    await memory.close()
  })

  it('refuses bad options with INVALID_INPUT', async () => {
    const memory = await createMemory({ name: 'pages-bad', indexedDB: new IDBFactory() })
    for (const options of [
      { limit: 0 },
      { limit: 1001 },
      { limit: 2.5 },
      { limit: '5' },
      { after: -1 },
      { after: 1.5 },
      { before: 0 },
      { before: 2.5 },
      { before: '9' },
      { newestFirst: 'yes' },
      { newestFirst: 1 },
      { conversationId: 7 },
      'all',
    ]) {
      expect(await codeOf(() => memory.messages(options as never)), JSON.stringify(options)).toBe('INVALID_INPUT')
    }
    expect(await memory.messages({ limit: 1000 })).toEqual({ messages: [], revision: 0 })
    await memory.close()
  })
})
