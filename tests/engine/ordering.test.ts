import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemory, type Context, type Memory } from '../../src/node'

const DAY = 86_400_000
const MAY_1 = Date.UTC(2024, 4, 1, 12)

/** A history imported newer-before-older: added in the order b, c, a, e, d; by time it reads a, b, c, d, e. */
const imported = [
  { id: 'b', role: 'assistant', content: 'Second: we booked the ferry.', timestamp: MAY_1 + DAY },
  { id: 'c', role: 'user', content: 'Third: the ferry was cancelled.', timestamp: MAY_1 + 2 * DAY },
  { id: 'a', role: 'user', content: 'First: shall we visit the island?', timestamp: MAY_1 },
  {
    id: 'e',
    role: 'assistant',
    content: 'Fifth: the same day as the fourth, added first.',
    timestamp: MAY_1 + 3 * DAY,
  },
  { id: 'd', role: 'user', content: 'Fourth: we took the plane instead.', timestamp: MAY_1 + 3 * DAY - 1 },
]
const BY_TIME = ['a', 'b', 'c', 'd', 'e']

function messageOrder(ctx: Context): string[] {
  return ctx.items.map((item) => item.messageId).filter((id, i, ids) => ids[i - 1] !== id)
}

describe('chronological order is timestamp order, ties by insertion', () => {
  const indexedDB = new IDBFactory()
  let memory: Memory
  beforeAll(async () => {
    memory = await createMemory({ name: 'ordering', indexedDB, IDBKeyRange })
    await memory.add(imported.slice(0, 2).map((m) => ({ ...m, conversationId: 'trip' })))
    for (const m of imported.slice(2)) await memory.add({ ...m, conversationId: 'trip' })
  })
  afterAll(() => memory?.close())

  it('renders an out-of-order import in timestamp order, consecutive turns joined without gap markers', async () => {
    const ctx = await memory.buildContext('ferry island plane', { conversationId: 'trip', strategy: 'full' })
    expect(messageOrder(ctx)).toEqual(BY_TIME)
    expect(ctx.text).toBe(
      [
        'user (1 May 2024): First: shall we visit the island?',
        'assistant (2 May 2024): Second: we booked the ferry.',
        'user (3 May 2024): Third: the ferry was cancelled.',
        'user (4 May 2024): Fourth: we took the plane instead.',
        'assistant: Fifth: the same day as the fourth, added first.',
      ].join('\n'),
    )
  })

  it('pins recentTurns by time, and head and tail pick by time', async () => {
    const recent = await memory.buildContext('nothing relevant', {
      conversationId: 'trip',
      strategy: 'lexical',
      recentTurns: 2,
    })
    expect(recent.items.filter((item) => item.reason === 'recent').map((item) => item.messageId)).toEqual(['d', 'e'])
    const oneLine = (id: string) => `user (1 May 2024): ${imported.find((m) => m.id === id)!.content}`.length
    const head = await memory.buildContext('x', { conversationId: 'trip', strategy: 'head', budget: oneLine('a') })
    expect(messageOrder(head)).toEqual(['a'])
    const tail = await memory.buildContext('x', { conversationId: 'trip', strategy: 'tail', budget: 80 })
    expect(messageOrder(tail)).toEqual(['e'])
  })

  it('keeps relevance-ranked picks in timestamp order too, across conversations', async () => {
    await memory.add({
      id: 'z',
      role: 'user',
      content: 'Zeroth: an earlier ferry question in another chat.',
      conversationId: 'other',
      timestamp: MAY_1 - DAY,
    })
    const ctx = await memory.buildContext('ferry', { strategy: 'lexical', budget: 4000 })
    const order = messageOrder(ctx)
    const time = (id: string) => [{ id: 'z', timestamp: MAY_1 - DAY }, ...imported].find((m) => m.id === id)!.timestamp
    expect(order).toContain('z')
    expect(order.map(time)).toEqual(order.map(time).sort((x, y) => x - y))
    expect(order[0]).toBe('z')
  })

  it('keeps the order after reopening the database and after a forget', async () => {
    await memory.close()
    memory = await createMemory({ name: 'ordering', indexedDB, IDBKeyRange })
    expect(messageOrder(await memory.buildContext('x', { conversationId: 'trip', strategy: 'full' }))).toEqual(BY_TIME)
    await memory.forget({ id: 'b' })
    const ctx = await memory.buildContext('x', { conversationId: 'trip', strategy: 'full' })
    expect(messageOrder(ctx)).toEqual(['a', 'c', 'd', 'e'])
    expect(ctx.text).toContain('island?\nuser (3 May 2024): Third')
    expect(ctx.text).toContain('cancelled.\nuser (4 May 2024): Fourth')
  })
})
