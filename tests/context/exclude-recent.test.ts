import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemory, type Memory, type MessageInput } from '../../src/node'
import { inTimeOrder } from '../time-order'
import { DAY, generatedTurn, START } from './generated-turns'

/** Questions and their answers on a few subjects, so that a ranked turn often brings its reply as a neighbour. */
const message = generatedTurn([
  'Is the bridge open?',
  'The bridge over the lake is open again.',
  'We bought a red kayak for the lake!',
  'Where do we keep the kayak?',
  'Pasta again tonight.',
  '',
])

type Added = MessageInput & { id: string; timestamp: number }

describe('excludeRecent', () => {
  let memory: Memory
  let run = 0
  beforeAll(async () => {
    memory = await createMemory({ name: 'exclude-recent' })
  })
  afterAll(() => memory?.close())

  it('leaves the latest n turns by time out of every strategy, neighbours, updates and recentTurns included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(message, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 14 }),
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom('lexical' as const, 'head' as const, 'tail' as const, 'full' as const),
        fc.boolean(),
        async (shapes, excludeRecent, recentTurns, strategy, followUpdates) => {
          const conversationId = `c${run++}`
          const added: Added[] = shapes.map((s, i) => ({
            role: s.role,
            content: s.content,
            conversationId,
            id: `${conversationId}-${i}`,
            timestamp: START + s.day * DAY,
          }))
          await memory.add(added)
          const ordered = inTimeOrder(added)
          const kept = ordered.slice(0, Math.max(0, ordered.length - excludeRecent))
          const sent = new Set(ordered.slice(kept.length).map((m) => m.id))
          const ctx = await memory.buildContext('Is the kayak by the bridge?', {
            conversationId,
            strategy,
            excludeRecent,
            recentTurns,
            followUpdates,
            budget: 4000,
          })
          for (const item of ctx.items) expect(sent.has(item.messageId)).toBe(false)
          // recentTurns pins the turns before the excluded ones (full takes every turn as it is).
          if (strategy === 'full') return
          const pinned = new Set(ctx.items.filter((item) => item.reason === 'recent').map((item) => item.messageId))
          const expectedPinned = kept.slice(recentTurns === 0 ? kept.length : -recentTurns)
          expect([...pinned].sort()).toEqual(
            expectedPinned
              .filter((m) => m.content.trim() !== '')
              .map((m) => m.id)
              .sort(),
          )
        },
      ),
      { numRuns: 60 },
    )
  })

  it('builds head, tail and full as if the history ended before the excluded turns', async () => {
    const texts = ['First we went to Porto.', 'Then the train to Lisbon.', 'A ferry to Madeira.', 'Home at last.']
    const add = (conversationId: string, count: number) =>
      memory.add(
        texts.slice(0, count).map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content, conversationId })),
      )
    await add('whole', 4)
    await add('cut', 2)
    for (const strategy of ['head', 'tail', 'full'] as const) {
      const excluded = await memory.buildContext('travel', { conversationId: 'whole', strategy, excludeRecent: 2 })
      const shorter = await memory.buildContext('travel', { conversationId: 'cut', strategy })
      expect(excluded.text).toBe(shorter.text)
      expect(excluded.text).toContain('Lisbon')
      expect(excluded.text).not.toContain('Madeira')
    }
  })

  it('leaves out of a ranked context a match that is a turn sent verbatim, and keeps the older one', async () => {
    await memory.add([
      { role: 'user', content: 'My sister Ines lives in Porto.', conversationId: 'ranked' },
      { role: 'assistant', content: 'Porto is lovely in spring.', conversationId: 'ranked' },
      { role: 'user', content: 'Ines may move to Lisbon next year.', conversationId: 'ranked' },
    ])
    const all = await memory.buildContext('Where does Ines live?', { conversationId: 'ranked', strategy: 'lexical' })
    expect(all.text).toContain('Lisbon')
    const ctx = await memory.buildContext('Where does Ines live?', {
      conversationId: 'ranked',
      strategy: 'lexical',
      excludeRecent: 1,
    })
    expect(ctx.text).toContain('lives in Porto')
    expect(ctx.text).not.toContain('Lisbon')
    expect(ctx.stats.historySentences).toBe(all.stats.historySentences)
  })

  it('is refused with INVALID_INPUT unless an integer ≥ 0', async () => {
    for (const excludeRecent of [-1, 1.5, '2', null]) {
      await expect(memory.buildContext('x', { excludeRecent: excludeRecent as number })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringContaining('excludeRecent'),
      })
    }
  })
})
