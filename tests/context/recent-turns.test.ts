import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemory, type Memory, type MessageInput } from '../../src/node'
import { inTimeOrder } from '../time-order'
import { DAY, generatedTurn, START } from './generated-turns'

/** A message of the generated histories: few distinct days, so ties in timestamp are common. */
const message = generatedTurn([
  'The lake froze early.',
  'We bought a red kayak!',
  'Is the bridge open?',
  'Pasta again tonight.',
  '',
])

describe('recentTurns', () => {
  let memory: Memory
  let run = 0
  beforeAll(async () => {
    memory = await createMemory({ name: 'recent-turns' })
  })
  afterAll(() => memory?.close())

  it('pins the last min(recentTurns, n) turns by time, whole, when the budget holds them, and nothing else as recent', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(message, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 20 }),
        fc.constantFrom('tail' as const, 'head' as const, 'lexical' as const),
        fc.integer({ min: 1, max: 4 }),
        async (shapes, recentTurns, strategy, batches) => {
          const conversationId = `c${run++}`
          const added: (MessageInput & { id: string; timestamp: number })[] = shapes.map((s, i) => ({
            role: s.role,
            content: s.content,
            conversationId,
            id: `${conversationId}-${i}`,
            timestamp: START + s.day * DAY,
          }))
          const size = Math.ceil(added.length / batches)
          for (let i = 0; i < added.length; i += size) await memory.add(added.slice(i, i + size))
          const ctx = await memory.buildContext('kayak bridge', {
            conversationId,
            recentTurns,
            strategy,
            budget: 100_000,
          })
          const ordered = inTimeOrder(added)
          const expected = ordered.slice(ordered.length - Math.min(recentTurns, ordered.length))
          const recent = ctx.items.filter((item) => item.reason === 'recent')
          expect(new Set(recent.map((item) => item.messageId))).toEqual(
            new Set(expected.filter((m) => m.content.trim() !== '').map((m) => m.id)),
          )
          for (const m of expected) {
            const text = recent
              .filter((item) => item.messageId === m.id)
              .map((item) => m.content.slice(item.start, item.end))
              .join(' ')
            expect(text.replace(/\s+/g, ' ')).toBe(m.content.trim().replace(/\s+/g, ' '))
          }
        },
      ),
      { numRuns: 60 },
    )
  })

  it('pins every turn when recentTurns exceeds the conversation, not only the newest', async () => {
    const conversationId = 'short'
    await memory.add([
      { role: 'user', content: 'First turn here.', conversationId },
      { role: 'assistant', content: 'Second turn here.', conversationId },
      { role: 'user', content: 'Third turn here.', conversationId },
    ])
    const ctx = await memory.buildContext('nothing matches', {
      conversationId,
      recentTurns: 4,
      strategy: 'lexical',
      budget: 2000,
    })
    expect(ctx.items.map((item) => [item.text, item.reason])).toEqual([
      ['First turn here.', 'recent'],
      ['Second turn here.', 'recent'],
      ['Third turn here.', 'recent'],
    ])
  })

  it('pins the newest turns first when the budget holds only some of them', async () => {
    const conversationId = 'tight'
    await memory.add([
      { role: 'user', content: 'An old remark about the garden shed.', conversationId, timestamp: START + 3 * DAY },
      { role: 'user', content: 'The newest remark.', conversationId, timestamp: START + 5 * DAY },
      { role: 'user', content: 'Oldest one, added last.', conversationId, timestamp: START },
    ])
    const ctx = await memory.buildContext('nothing matches', {
      conversationId,
      recentTurns: 3,
      strategy: 'lexical',
      budget: 60,
    })
    expect(ctx.items.map((item) => item.text)).toEqual(['The newest remark.'])
  })
})
