import { describe, expect, it } from 'vitest'
import { chatPrompt, recallResult, toAnthropicPrompt, toOpenAIMessages, type ContextItem } from '../../src/node'

const SYSTEM = 'You are a helpful assistant.'
const recent = [
  { role: 'user' as const, content: 'Is the bridge open?' },
  { role: 'assistant' as const, content: 'Yes, since Monday.' },
]

describe('chatPrompt', () => {
  it('puts the stable system prompt first, the excerpts after it, then the recent turns and the request', () => {
    const prompt = chatPrompt({
      system: SYSTEM,
      context: { text: 'user: I drive a Polo.' },
      recent,
      request: 'And my car?',
    })
    expect(prompt).toEqual({
      system: [SYSTEM, 'Excerpts from earlier in this conversation:\nuser: I drive a Polo.'],
      stableSystemTexts: 1,
      messages: [...recent, { role: 'user', content: 'And my car?' }],
    })
    expect(toOpenAIMessages(prompt)).toEqual([
      { role: 'system', content: SYSTEM },
      { role: 'system', content: 'Excerpts from earlier in this conversation:\nuser: I drive a Polo.' },
      ...recent,
      { role: 'user', content: 'And my car?' },
    ])
    expect(toAnthropicPrompt(prompt)).toEqual({
      system: [
        { type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'Excerpts from earlier in this conversation:\nuser: I drive a Polo.' },
      ],
      messages: prompt.messages,
    })
  })

  it('adds nothing for an empty context, and takes its text or a heading of the app', () => {
    expect(chatPrompt({ system: SYSTEM, context: '', recent: [], request: 'Hi' })).toEqual({
      system: [SYSTEM],
      stableSystemTexts: 1,
      messages: [{ role: 'user', content: 'Hi' }],
    })
    expect(
      chatPrompt({ system: SYSTEM, context: 'x', recent: [], request: 'Hi', excerptsHeading: 'Notes:' }).system,
    ).toEqual([SYSTEM, 'Notes:\nx'])
    expect(chatPrompt({ system: SYSTEM, context: 'x', recent: [], request: 'Hi', excerptsHeading: '' }).system).toEqual(
      [SYSTEM, 'x'],
    )
  })

  const stable =
    'Pinned:\nuser (2 May 2024): I am allergic to peanuts.\n\nSummary of the conversation up to 3 May 2024:\nLisbon.'
  const excerpts = 'user (9 May 2024): I drive a Polo.'
  const context = {
    text: `${stable}\n\nFrom the conversation:\n${excerpts}`,
    sections: { stable, excerpts },
  }

  it('sends the stable sections in a system text of their own, before the excerpts, the cache breakpoint after them', () => {
    const prompt = chatPrompt({ system: SYSTEM, context, recent, request: 'And my car?' })
    const headed = `Excerpts from earlier in this conversation:\n${excerpts}`
    expect(prompt).toEqual({
      system: [SYSTEM, stable, headed],
      stableSystemTexts: 2,
      messages: [...recent, { role: 'user', content: 'And my car?' }],
    })
    expect(toOpenAIMessages(prompt).slice(0, 3)).toEqual([
      { role: 'system', content: SYSTEM },
      { role: 'system', content: stable },
      { role: 'system', content: headed },
    ])
    expect(toAnthropicPrompt(prompt).system).toEqual([
      { type: 'text', text: SYSTEM },
      { type: 'text', text: stable, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: headed },
    ])
    // Stable sections without excerpts: no excerpts text, no heading.
    const pinsOnly = chatPrompt({
      system: SYSTEM,
      context: { text: stable, sections: { stable, excerpts: '' } },
      recent,
      request: 'Hi',
    })
    expect(pinsOnly).toMatchObject({ system: [SYSTEM, stable], stableSystemTexts: 2 })
    // The context's text alone (a string, or an object without sections) is excerpts, in one text, as before.
    for (const old of [context.text, { text: context.text }])
      expect(chatPrompt({ system: SYSTEM, context: old, recent, request: 'Hi' })).toMatchObject({
        system: [SYSTEM, `Excerpts from earlier in this conversation:\n${context.text}`],
        stableSystemTexts: 1,
      })
  })

  it('keeps the system prompt and the stable sections the same while only the excerpts change', () => {
    const a = toOpenAIMessages(chatPrompt({ system: SYSTEM, context, recent, request: 'a' }))
    const other = { text: '', sections: { stable, excerpts: 'assistant (9 May 2024): The hotel is in Alfama.' } }
    const b = toOpenAIMessages(chatPrompt({ system: SYSTEM, context: other, recent: [], request: 'b' }))
    expect(b.slice(0, 2)).toEqual(a.slice(0, 2))
    expect(b[2]).not.toEqual(a[2])
  })

  it('keeps the system prompt the same whatever the context, so that it stays the shared prefix', () => {
    const a = toOpenAIMessages(chatPrompt({ system: SYSTEM, context: 'one', recent, request: 'a' }))
    const b = toOpenAIMessages(chatPrompt({ system: SYSTEM, context: 'two', recent: [], request: 'b' }))
    expect(a[0]).toEqual(b[0])
  })
})

describe('recallResult', () => {
  const item = (messageId: string, text: string, start: number, timestamp: number): ContextItem => ({
    messageId,
    conversationId: 'default',
    seq: 1,
    role: 'user',
    text,
    score: 1,
    start,
    end: start + text.length,
    timestamp,
    reason: 'relevant',
  })

  it('gives one excerpt per message with its UTC date, adjacent sentences joined and gaps marked', () => {
    const march = Date.UTC(2026, 2, 2, 23, 30)
    const result = recallResult({
      items: [
        item('a', 'We adopted a greyhound.', 0, march),
        item('a', 'She is called Biscuit.', 24, march),
        item('a', 'She hates trams.', 80, march),
        item('b', 'Biscuit needs a booster.', 0, Date.UTC(2026, 10, 1)),
      ],
    })
    expect(result).toEqual({
      excerpts: [
        {
          date: '2026-03-02',
          role: 'user',
          text: 'We adopted a greyhound. She is called Biscuit. […] She hates trams.',
        },
        { date: '2026-11-01', role: 'user', text: 'Biscuit needs a booster.' },
      ],
    })
    expect(recallResult({ items: [] })).toEqual({ excerpts: [] })
  })
})
