import { IDBFactory } from 'fake-indexeddb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemory, type Memory, type MessageInput } from '../../src/node'

const DAY = 86_400_000
const START = Date.UTC(2025, 2, 3)

// Written for this test: a value that changes (the choir's rehearsal night) and one that never does (the allotment's
// plot number), each talked about again later; chit-chat between. Each pair is a user turn and the reply.
const EXCHANGES: readonly (readonly [string, string])[] = [
  ['Our choir rehearses on Wednesday evenings at the church hall.', 'Lovely, a midweek sing sounds nice.'],
  ['My allotment is plot 14, by the water butts.', 'Handy spot for watering.'],
  ['The bus was late again and I missed the start of the film.', 'Annoying! Was the rest worth it?'],
  ['Picked a whole basket of runner beans from plot 14 today.', 'What a harvest.'],
  ['I tried a new recipe for lemon drizzle cake.', 'Did it turn out moist?'],
  ['The choir switched to Monday evenings, the hall is booked on Wednesdays now.', 'Noted, Mondays then.'],
  ['The courgettes on plot 14 are getting out of hand.', 'Courgette soup season!'],
  ['My neighbour lent me a ladder for the gutters.', 'Be careful up there.'],
]

/** The exchanges a week apart, user turns `u0`…, replies `a0`…. */
function history(conversationId: string): MessageInput[] {
  return EXCHANGES.flatMap(([said, reply], i) =>
    [said, reply].map((content, k) => ({
      id: `${k === 0 ? 'u' : 'a'}${i}`,
      role: k === 0 ? 'user' : 'assistant',
      content,
      conversationId,
      timestamp: START + i * 7 * DAY + k * 60_000,
    })),
  )
}

describe('updates by default: a changed value is marked, an unchanged one is not', () => {
  let memory: Memory
  const conversationId = 'garden'
  beforeAll(async () => {
    memory = await createMemory({ name: 'updates-by-default', indexedDB: new IDBFactory() })
    await memory.add(history(conversationId))
    await memory.indexed()
  })
  afterAll(() => memory?.close())

  it('marks the stale line of a changed value, with no option, and holds the latest', async () => {
    const ctx = await memory.buildContext('Which evening does my choir rehearse?', { conversationId, budget: 2000 })
    const stale = ctx.items.find((item) => item.messageId === 'u0')
    expect(stale?.supersededBy).toBe('u5')
    expect(ctx.items.some((item) => item.messageId === 'u5')).toBe(true)
    expect(ctx.text).toContain('Wednesday evenings at the church hall. [may be updated below]')
  })

  it('marks no line of a value that never changed, though later lines talk about it', async () => {
    const ctx = await memory.buildContext('What is my allotment plot number?', { conversationId, budget: 2000 })
    expect(ctx.items.some((item) => item.messageId === 'u1')).toBe(true)
    // The allotment's lines stand; only the choir's first line, if the context holds it, is marked (by its revision).
    const marks = ctx.items.filter((item) => item.supersededBy !== undefined)
    expect(marks.map((item) => [item.messageId, item.supersededBy])).toEqual(
      marks.some((item) => item.messageId === 'u0') ? [['u0', 'u5']] : [],
    )
    expect(ctx.items.filter((item) => ['u1', 'u3', 'u6'].includes(item.messageId)).length).toBeGreaterThan(1)
  })

  it('keeps followUpdates: false as the way out', async () => {
    const ctx = await memory.buildContext('Which evening does my choir rehearse?', {
      conversationId,
      budget: 2000,
      followUpdates: false,
    })
    expect(ctx.items.filter((item) => item.supersededBy !== undefined)).toEqual([])
  })
})
