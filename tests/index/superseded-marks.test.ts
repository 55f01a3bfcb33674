import { IDBFactory } from 'fake-indexeddb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { VectorIndex } from '../../worker/index/vector/vector-index'
import { createMemory, type Memory, type MessageInput } from '../../src/node'

const DAY = 86_400_000
const START = Date.UTC(2024, 0, 1)

const FILLER = [
  'The weather was grey all week.',
  'I finished a long novel about sailors.',
  'Work has been busy with the release.',
  'We cooked a big pasta dinner on Sunday.',
  'My sister sent photos from her trip to the coast.',
  'The plants on the balcony need repotting.',
  'I started a jigsaw puzzle with a thousand pieces.',
  'The bakery on the corner has new croissants.',
]

/** A user's history: the car stated, someone else's car told on the same subject, then the car replaced, in other words. */
function carHistory(conversationId: string): MessageInput[] {
  const user = [
    'I drive a Polo, the car is old but reliable.',
    ...FILLER.slice(0, 4),
    'My neighbour drives a Clio and parks it badly.',
    ...FILLER.slice(4),
    'Sold the Polo at last, picked up a Kia yesterday.',
    'I might take up running again in spring.',
  ]
  return user.flatMap((content, i) => [
    { id: `${conversationId}-u${i}`, role: 'user', content, conversationId, timestamp: START + i * 7 * DAY },
    {
      id: `${conversationId}-a${i}`,
      role: 'assistant',
      content: 'Thanks for telling me.',
      conversationId,
      timestamp: START + i * 7 * DAY + 60_000,
    },
  ])
}

describe('followUpdates: a revision worded anew', () => {
  let memory: Memory
  const conversationId = 'car'
  const history = carHistory(conversationId)
  const idOf = (text: string) => history.find((m) => m.content.startsWith(text))!.id!
  beforeAll(async () => {
    memory = await createMemory({ name: 'superseded-marks', indexedDB: new IDBFactory() })
    await memory.add(history)
    await memory.indexed()
  })
  afterAll(() => memory?.close())

  it('is brought in and marks the line it supersedes, where ranking alone leaves it out', async () => {
    const request = 'What car do I drive?'
    const budget = 220
    const without = await memory.buildContext(request, { conversationId, budget, followUpdates: false })
    expect(without.items.map((item) => item.messageId)).toContain(idOf('I drive a Polo'))
    expect(without.items.map((item) => item.messageId)).not.toContain(idOf('Sold the Polo'))
    expect(without.text).not.toContain('[may be updated below]')

    const ctx = await memory.buildContext(request, { conversationId, budget, followUpdates: true })
    const stale = ctx.items.find((item) => item.messageId === idOf('I drive a Polo'))
    const newer = ctx.items.find((item) => item.messageId === idOf('Sold the Polo'))
    expect(newer?.reason).toBe('update')
    // Not the neighbour's Clio, which is closer in meaning to "I drive a Polo" than the Kia is.
    expect(stale?.supersededBy).toBe(idOf('Sold the Polo'))
    expect(ctx.text).toContain('I drive a Polo, the car is old but reliable. [may be updated below]')
    expect(ctx.text.indexOf('Sold the Polo')).toBeGreaterThan(ctx.text.indexOf('[may be updated below]'))
    expect(ctx.stats.used).toBe(ctx.text.length)
    expect(ctx.stats.used).toBeLessThanOrEqual(budget)
  })

  it('is found through the superseded line’s own words when the request has no vector (lexical)', async () => {
    const ctx = await memory.buildContext('What car do I drive?', {
      conversationId,
      budget: 220,
      strategy: 'lexical',
      followUpdates: true,
    })
    expect(ctx.items.find((item) => item.messageId === idOf('I drive a Polo'))?.supersededBy).toBe(
      idOf('Sold the Polo'),
    )
    expect(ctx.items.find((item) => item.messageId === idOf('Sold the Polo'))?.reason).toBe('update')
  })

  it('is found through the superseded line’s words in a history added newest first, as an import listed latest-first adds it', async () => {
    const reversed = await createMemory({ name: 'superseded-marks-reversed', indexedDB: new IDBFactory() })
    try {
      await reversed.add([...history].reverse())
      await reversed.indexed()
      const ctx = await reversed.buildContext('What car do I drive?', {
        conversationId,
        budget: 220,
        strategy: 'lexical',
        followUpdates: true,
      })
      expect(ctx.items.find((item) => item.messageId === idOf('I drive a Polo'))?.supersededBy).toBe(
        idOf('Sold the Polo'),
      )
    } finally {
      await reversed.close()
    }
  })

  it('leaves the neighbour’s car unmarked when it is in the context too', async () => {
    const ctx = await memory.buildContext('What car do I drive?', { conversationId, budget: 400, followUpdates: true })
    const neighbour = ctx.items.find((item) => item.messageId === idOf('My neighbour drives'))
    expect(neighbour).toBeDefined()
    expect(neighbour?.supersededBy).toBeUndefined()
    expect(ctx.items.filter((item) => item.supersededBy !== undefined).map((item) => item.messageId)).toEqual([
      idOf('I drive a Polo'),
    ])
    expect(ctx.text.match(/\[may be updated below\]/g)).toHaveLength(1)
  })

  it('marks nothing when the newer statement does not fit the budget', async () => {
    const stale = history.find((m) => m.content.startsWith('I drive a Polo'))!
    // Room for the stale line and its mark, not for the newer line as well.
    const budget = `user (1 January 2024): ${stale.content} [may be updated below]`.length + 10
    const ctx = await memory.buildContext('What car do I drive?', { conversationId, budget, followUpdates: true })
    expect(ctx.items.map((item) => item.messageId)).toContain(stale.id)
    expect(ctx.items.map((item) => item.messageId)).not.toContain(idOf('Sold the Polo'))
    expect(ctx.items.some((item) => item.supersededBy !== undefined)).toBe(false)
    expect(ctx.text).not.toContain('[may be updated below]')
    expect(ctx.stats.used).toBe(ctx.text.length)
  })
})

describe('followUpdates: a revision sharing no word with the request', () => {
  it('is found by meaning among the request’s nearest sentences', async () => {
    const memory = await createMemory({ name: 'superseded-by-meaning', indexedDB: new IDBFactory() })
    // It shares "Thursdays" with the line it revises, which the subject test needs, and no word with the request.
    const user = [
      'I go to the gym on Thursdays after work.',
      ...FILLER,
      'New routine: weights on Fridays from now on, no more Thursdays.',
    ]
    await memory.add(user.map((content, i) => ({ id: `u${i}`, role: 'user', content, timestamp: START + i * 7 * DAY })))
    await memory.indexed()
    const ctx = await memory.buildContext('On which days do I go to the gym?', { budget: 200, followUpdates: true })
    expect(ctx.items.find((item) => item.messageId === 'u0')?.supersededBy).toBe(`u${user.length - 1}`)
    expect(ctx.items.find((item) => item.messageId === `u${user.length - 1}`)?.reason).toBe('update')
    await memory.close()
  })
})

describe('followUpdates after later writes', () => {
  it('finds an update added after the previous context, even when a forget kept the history the same size', async () => {
    // Lexical: the request has no vector, so only the remembered lexical neighbours of the old line can bring it.
    const memory = await createMemory({ name: 'updates-after-forget', indexedDB: new IDBFactory() })
    await memory.add([
      { role: 'user', content: 'I moved to Porto for the new job.', timestamp: START },
      { role: 'assistant', content: 'The weather was grey all week.', timestamp: START + DAY, id: 'weather' },
      { role: 'assistant', content: 'How is the new flat?', timestamp: START + 2 * DAY },
    ])
    await memory.indexed()
    const request = 'What was the new job in Porto?'
    const options = { budget: 160, followUpdates: true, strategy: 'lexical' } as const
    expect((await memory.buildContext(request, options)).items.some((item) => item.reason === 'update')).toBe(false)
    expect(await memory.forget({ id: 'weather' })).toBe(1)
    await memory.add({ role: 'user', content: 'Big news: we moved from Porto to Lisbon.', timestamp: START + 9 * DAY })
    await memory.indexed()
    const context = await memory.buildContext(request, options)
    expect(context.items.find((item) => item.text.includes('Lisbon'))?.reason).toBe('update')
    expect(context.items.find((item) => item.text.includes('new job'))?.supersededBy).toBeDefined()
    await memory.close()
  })
})

describe('VectorIndex.vectorOf', () => {
  it('reads a row back as stored, close to the vector added, and nothing for a sid without one', () => {
    const dim = 8
    const index = new VectorIndex(dim, 4)
    const vectors = new Float32Array(2 * dim)
    for (let i = 0; i < vectors.length; i++) vectors[i] = Math.sin(i + 1)
    index.add([3, 7], vectors, () => 'c')
    const read = index.vectorOf(7)!
    expect(read).toHaveLength(dim)
    for (let d = 0; d < dim; d++) expect(read[d]).toBeCloseTo(vectors[dim + d], 2)
    expect(index.vectorOf(5)).toBeUndefined()
    index.remove([7])
    expect(index.vectorOf(7)).toBeUndefined()
  })
})
