import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemory, type Memory, type MessageInput } from '../../src/node'

const DAY = 86_400_000
const START = Date.UTC(2024, 2, 1)

/** Turns of a chat about one subject, none of them about `avoid`. */
function renovationTurns(count: number): string[] {
  const topics = [
    'the kitchen tiles',
    'the oak worktop',
    'the extractor hood',
    'the plumber’s quote',
    'the cabinet handles',
    'the floor levelling',
    'the sink position',
    'the lighting plan',
  ]
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? `For the renovation I keep going back and forth on ${topics[(i / 2) % topics.length]}, option ${Math.floor(i / 2) + 1}.`
      : `Noted: ${topics[((i - 1) / 2) % topics.length]} option ${Math.floor(i / 2) + 1} fits the budget if the installer starts on time.`,
  )
}

describe('buildContext retrieval', () => {
  let memory: Memory
  beforeAll(async () => {
    memory = await createMemory({ name: 'context-retrieval' })
  })
  afterAll(() => memory?.close())

  it('a goal shift to something mentioned only in passing long ago: recentTurns keep the last turns and retrieval brings the early mention', async () => {
    const conversationId = 'goal-shift'
    const early = 'By the way, my sister’s wedding in Porto is on 14 June, so I must book flights at some point.'
    const turns = [early, ...renovationTurns(80)]
    const messages: MessageInput[] = turns.map((content, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content,
      conversationId,
      timestamp: START + i * DAY,
    }))
    await memory.add(messages)
    await memory.indexed()
    const shift = 'Let’s leave the renovation for now: which flights do I need for my sister’s wedding?'
    await memory.add({ role: 'user', content: shift, conversationId, timestamp: START + turns.length * DAY })
    await memory.indexed()
    for (const strategy of ['hybrid', 'dense', 'lexical'] as const) {
      const ctx = await memory.buildContext(shift, { conversationId, strategy, recentTurns: 4, budget: 2000 })
      expect(ctx.items.filter((item) => item.reason === 'recent').map((item) => item.text)).toContain(shift)
      const recalled = ctx.items.find((item) => item.text === early)
      expect(recalled?.reason, strategy).toBe('relevant')
    }
    // Worded unlike the early mention, the request still finds it through the dense ranking in the default strategy.
    const indirect = 'Forget the house for a moment: what about getting to that family marriage abroad?'
    const ctx = await memory.buildContext(indirect, { conversationId, recentTurns: 4, budget: 2000 })
    expect(ctx.items.map((item) => item.text)).toContain(early)
  })

  it('leaves speakers’ names out of what the dense ranking embeds, so lines addressing a speaker do not crowd out what the speaker said', async () => {
    const conversationId = 'names'
    const lines: [string, string][] = [
      ['Caroline', 'Wow, Melanie, that is amazing!'],
      ['Melanie', 'I painted a sunrise over the lake last summer.'],
      ['Caroline', 'Thanks, Melanie!'],
      ['Caroline', 'Melanie, you are so kind.'],
      ['Melanie', 'The kids loved the museum trip.'],
      ['Caroline', 'Good to hear from you, Melanie.'],
      ['Caroline', 'Oh Melanie, I agree.'],
      ['Melanie', 'We are thinking about going camping next month.'],
    ]
    await memory.add(lines.map(([role, content], i) => ({ role, content, conversationId, timestamp: START + i * DAY })))
    await memory.indexed()
    const ctx = await memory.buildContext('What did Melanie paint?', {
      conversationId,
      strategy: 'dense',
      budget: 10_000,
    })
    expect(ctx.items.find((item) => item.ranks?.dense === 1)?.text).toBe(
      'I painted a sunrise over the lake last summer.',
    )
  })

  it('says why each relevant item is there: its ranks, its fused score in hybrid, and which query found it', async () => {
    const conversationId = 'why'
    await memory.add(
      [
        'I adopted a beagle called Rufus.',
        'Rufus hates the vacuum cleaner.',
        'The weather was grey and wet all week in town.',
        'My train was late again.',
      ].map((content, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        content,
        conversationId,
        timestamp: START + i * DAY,
      })),
    )
    await memory.indexed()
    const hybrid = await memory.buildContext('What is my dog called?', {
      conversationId,
      queries: ['vacuum cleaner'],
      budget: 10_000,
    })
    expect(hybrid.items.some((item) => item.reason === 'relevant')).toBe(true)
    for (const item of hybrid.items) {
      if (item.reason !== 'relevant') {
        expect([item.ranks, item.fused, item.query]).toEqual([undefined, undefined, undefined])
        continue
      }
      expect(item.ranks?.dense).toBeGreaterThanOrEqual(1)
      expect(item.fused).toBeGreaterThan(0)
      expect([0, 1]).toContain(item.query)
    }
    const lexical = await memory.buildContext('weather', {
      conversationId,
      strategy: 'lexical',
      queries: ['vacuum'],
      budget: 10_000,
    })
    const why = (text: string) =>
      lexical.items
        .filter((item) => item.text === text)
        .map((item) => [item.reason, item.ranks, item.fused, item.query])
    expect(why('The weather was grey and wet all week in town.')).toEqual([['relevant', { lexical: 1 }, undefined, 0]])
    expect(why('Rufus hates the vacuum cleaner.')).toEqual([['relevant', { lexical: 1 }, undefined, 1]])
    expect(why('My train was late again.')).toEqual([['neighbor', undefined, undefined, undefined]])
  })
  it('spends a small budget on one sentence from each matching passage before the rest of any one of them', async () => {
    const conversationId = 'passages'
    const long = [
      'Our hiking trip in the Alps started in Chamonix.',
      'The hiking trails in the Alps were steep and rocky.',
      'Hiking in the Alps every morning was tiring.',
      'We finished the last hiking stage in the Alps early.',
    ].join(' ')
    const other = 'My brother Tom joined me for the hiking in the Alps.'
    const filler = renovationTurns(12)
    const turns = [long, ...filler.slice(0, 6), other, ...filler.slice(6)]
    // One speaker's notes: no turn is a reply, so no answer neighbour takes budget.
    await memory.add(turns.map((content, i) => ({ role: 'user', content, conversationId, timestamp: START + i * DAY })))
    await memory.indexed()
    for (const strategy of ['lexical', 'dense', 'hybrid'] as const) {
      const ctx = await memory.buildContext('Who went hiking in the Alps?', { conversationId, strategy, budget: 180 })
      const texts = ctx.items.map((item) => item.text)
      expect(texts, strategy).toContain(other)
      expect(
        texts.filter((text) => long.includes(text)),
        strategy,
      ).toHaveLength(1)
    }
  })
  it('with adaptiveStop, a sentence held back for its passage still comes when the ranking put it above the cliff', async () => {
    const conversationId = 'passages-cliff'
    const turns = [
      'The bakery tax return is due in April. The bakery tax return needs every receipt from the ovens.',
      ...renovationTurns(10),
      'Filing the bakery tax return early avoids a fine.',
      'A tax question came up at work.',
      'The bakery on the corner sells rye bread.',
      'I should return the library books.',
      'Tax season is stressful.',
    ]
    await memory.add(turns.map((content, i) => ({ role: 'user', content, conversationId, timestamp: START + i * DAY })))
    await memory.indexed()
    const ctx = await memory.buildContext('bakery tax return', {
      conversationId,
      strategy: 'lexical',
      adaptiveStop: true,
      budget: 10_000,
    })
    expect(ctx.stats.stoppedBy).toBe('cliff')
    const texts = ctx.items.map((item) => item.text)
    expect(texts).toContain('The bakery tax return is due in April.')
    expect(texts).toContain('The bakery tax return needs every receipt from the ovens.')
  })
  it('a bigger budget brings the replies of more of the best matches', async () => {
    const conversationId = 'reply-leads'
    const pets = ['cat', 'dog', 'parrot', 'rabbit', 'turtle', 'hamster']
    const replies = pets.map(
      (_pet, i) => `Lovely, I met yours at the ${['park', 'vet', 'beach', 'market', 'lake', 'school'][i]} once.`,
    )
    const turns = pets.flatMap((pet, i) => [`Our ${pet} sleeps by the garden fence all day.`, replies[i]])
    await memory.add(
      turns.map((content, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        content,
        conversationId,
        timestamp: START + i * DAY,
      })),
    )
    await memory.indexed()
    const repliesIn = async (budget: number) => {
      const ctx = await memory.buildContext('Where does our pet sleep, by the garden fence?', {
        conversationId,
        strategy: 'lexical',
        budget,
      })
      return ctx.items.filter((item) => replies.includes(item.text)).length
    }
    // Every statement matches and all fit in either budget; only the number of leads differs (3 and 12).
    expect(await repliesIn(2000)).toBe(3)
    expect(await repliesIn(8000)).toBe(6)
  })
  it('a repeat held back for its text does not hold back the rest of its passage', async () => {
    const conversationId = 'passages-repeat'
    const fact = 'We moved to a house by the beach in Malibu last year.'
    const turns = [
      'I love the beach!',
      ...Array.from({ length: 8 }, (_, i) => `The beach volleyball match on channel ${i + 1} was fun.`),
      `I love the beach! ${fact}`,
    ]
    await memory.add(turns.map((content, i) => ({ role: 'user', content, conversationId, timestamp: START + i * DAY })))
    await memory.indexed()
    const ctx = await memory.buildContext('Which beach do I love?', {
      conversationId,
      strategy: 'lexical',
      budget: 200,
    })
    expect(ctx.items.map((item) => item.text)).toContain(fact)
  })
})
