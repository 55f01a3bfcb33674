import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { isLikelyUpdate, withLaterUpdates } from '../src/core/later-updates'
import type { ScoredSentence } from '../src/core/scored-sentence'
import { createMemory } from '../src/node'

function sentence(sid: number, text: string, role = 'user', conversationId = 'c'): ScoredSentence {
  return { sid, turn: sid, text, conversationId, messageId: `m${sid}`, seq: sid, index: 0, role, timestamp: 0, start: 0, end: text.length, score: 1, reason: 'relevant' }
}

describe('isLikelyUpdate', () => {
  it.each([
    ['I moved to Porto.', 'We moved to Lisbon last week.', true],
    ['My favourite band is Muse.', 'These days my favourite band is Radiohead.', true],
    ['I moved to Porto.', 'I moved to Porto!', false],
    ['I moved to Porto.', 'The weather is lovely today.', false],
    ['Thanks!', 'Thanks, see you soon!', true],
    ['', 'We moved to Lisbon.', false],
  ])('%j → %j: %s', (earlier, later, expected) => {
    expect(isLikelyUpdate(earlier, later)).toBe(expected)
  })
})

describe('withLaterUpdates', () => {
  const history = [
    sentence(1, 'I moved to Porto.'),
    sentence(2, 'We moved to Lisbon.', 'assistant'),
    sentence(3, 'Actually we moved to Lisbon in May.'),
    sentence(4, 'We moved again, to Faro.'),
    sentence(5, 'We moved to Madrid.', 'user', 'other'),
  ]
  const laterOf = (s: ScoredSentence) => history.filter((h) => h.sid !== s.sid)

  it('follows a relevant sentence with the newest later update by the same speaker in the same conversation', () => {
    const out = [...withLaterUpdates([{ ...history[0], score: 0.4 }], laterOf)]
    expect(out.map((s) => [s.sid, s.reason, s.score])).toEqual([
      [1, 'relevant', 0.4],
      [4, 'update', 0.4],
    ])
  })

  it('brings nothing for the newest statement or for non-relevant candidates', () => {
    expect([...withLaterUpdates([history[3]], laterOf)].map((s) => s.sid)).toEqual([4])
    expect([...withLaterUpdates([{ ...history[0], reason: 'neighbour' }], laterOf)].map((s) => s.sid)).toEqual([1])
  })
})

describe('buildContext with an updated fact', () => {
  it('shows the later value next to the earlier one, newest last, even when only the earlier one matches the request', async () => {
    const memory = await createMemory({ name: 'updates', indexedDB: new IDBFactory() })
    const day = (d: number) => Date.UTC(2024, 0, d)
    const filler = ['The weather was grey all week.', 'I finished a long novel about sailors.', 'Work has been busy with the release.', 'We cooked a big pasta dinner.']
    await memory.add([
      { role: 'user', content: 'I moved to Porto for the new job.', timestamp: day(1) },
      ...filler.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content, timestamp: day(2 + i) })),
      { role: 'assistant', content: 'How is the new flat?', timestamp: day(8) },
      { role: 'user', content: 'Big news: we moved to Lisbon.', timestamp: day(9) },
    ])
    await memory.indexed()
    const context = await memory.buildContext('What was the new job in Porto?', { budget: 140, followUpdates: true })
    const update = context.items.find((item) => item.text.includes('Lisbon'))
    expect(context.items.some((item) => item.text.includes('Porto'))).toBe(true)
    expect(update?.reason).toBe('update')
    expect(context.text.indexOf('Lisbon')).toBeGreaterThan(context.text.indexOf('Porto'))
    await memory.close()
  })

  it('finds an update added after the previous context even when a forget kept the history the same size', async () => {
    const memory = await createMemory({ name: 'updates-after-forget', indexedDB: new IDBFactory() })
    const day = (d: number) => Date.UTC(2024, 0, d)
    await memory.add([
      { role: 'user', content: 'I moved to Porto for the new job.', timestamp: day(1) },
      { role: 'assistant', content: 'The weather was grey all week.', timestamp: day(2), id: 'weather' },
      { role: 'assistant', content: 'How is the new flat?', timestamp: day(3) },
    ])
    await memory.indexed()
    const request = 'What was the new job in Porto?'
    expect((await memory.buildContext(request, { budget: 140, followUpdates: true })).items.some((item) => item.reason === 'update')).toBe(false)
    expect(await memory.forget({ id: 'weather' })).toBe(1)
    await memory.add({ role: 'user', content: 'Big news: we moved to Lisbon.', timestamp: day(9) })
    await memory.indexed()
    const context = await memory.buildContext(request, { budget: 140, followUpdates: true })
    expect(context.items.find((item) => item.text.includes('Lisbon'))?.reason).toBe('update')
    await memory.close()
  })
})
