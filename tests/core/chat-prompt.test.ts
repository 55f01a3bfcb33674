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
      messages: [{ role: 'user', content: 'Hi' }],
    })
    expect(
      chatPrompt({ system: SYSTEM, context: 'x', recent: [], request: 'Hi', excerptsHeading: 'Notes:' }).system,
    ).toEqual([SYSTEM, 'Notes:\nx'])
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
