// The validators of the pin and summary methods (worker/input/), called directly: the messages a bad argument gets,
// without a memory. That a stored or pinned id is checked against the store is tests/engine/pins.test.ts's and
// summaries.test.ts's.
import { describe, expect, it } from 'vitest'
import { SiftError } from '../../src/errors'
import { toPinMessageId, toPinsConversationId } from '../../worker/input/pin-input'
import { toConversationId, toSummaryRequest } from '../../worker/input/summary-input'

function refusal(validate: () => unknown): SiftError {
  try {
    validate()
  } catch (error) {
    expect(error).toBeInstanceOf(SiftError)
    expect((error as SiftError).code).toBe('INVALID_INPUT')
    return error as SiftError
  }
  throw new Error('the validator took its input')
}

describe('pin input', () => {
  it('takes a non-empty string id and refuses anything else, naming the method', () => {
    expect(toPinMessageId('pin', 'm1')).toBe('m1')
    expect(refusal(() => toPinMessageId('pin', '')).message).toBe('pin: messageId must be a non-empty string, got "".')
    expect(refusal(() => toPinMessageId('unpin', 42)).message).toBe(
      'unpin: messageId must be a non-empty string, got 42.',
    )
    expect(refusal(() => toPinMessageId('pin', { id: 'm1' })).message).toMatch(/got an object\.$/)
  })

  it("lists every conversation's pins without a conversationId, and refuses one that is not a string", () => {
    expect(toPinsConversationId(undefined)).toBeUndefined()
    expect(toPinsConversationId('')).toBe('')
    expect(toPinsConversationId('trip')).toBe('trip')
    expect(refusal(() => toPinsConversationId(7)).message).toBe(
      'pins: conversationId must be a string when given, got 7.',
    )
    expect(refusal(() => toPinsConversationId(null)).message).toMatch(/got null\.$/)
  })
})

describe('summary input', () => {
  const maxChars = 20

  it('takes a conversation id, a text of at most maxChars and the id it runs through, with asOf when given', () => {
    expect(toSummaryRequest('trip', 'Alma went to Porto.', { through: 'a3' }, maxChars)).toEqual({
      conversationId: 'trip',
      text: 'Alma went to Porto.',
      through: 'a3',
    })
    expect(toSummaryRequest('trip', 'x', { through: 'a3', asOf: 0 }, maxChars)).toEqual({
      conversationId: 'trip',
      text: 'x',
      through: 'a3',
      asOf: 0,
    })
    expect(toConversationId('summary', 'trip')).toBe('trip')
  })

  it('refuses each bad argument with a message that names it', () => {
    const bad: [unknown, unknown, unknown, string][] = [
      [7, 'x', { through: 'a3' }, 'setSummary: conversationId must be a string, got 7.'],
      ['trip', 7, { through: 'a3' }, 'setSummary: text must be a non-empty string, got 7.'],
      ['trip', ' \n ', { through: 'a3' }, 'setSummary: text must be a non-empty string, got " \\n ".'],
      [
        'trip',
        'x'.repeat(maxChars + 1),
        { through: 'a3' },
        `setSummary: the text has ${maxChars + 1} characters, over maxMessageChars (${maxChars}); shorten it.`,
      ],
      [
        'trip',
        'x',
        undefined,
        'setSummary: options.through must be the id of the last message the summary covers, got undefined.',
      ],
      ['trip', 'x', { through: '' }, expect.stringMatching(/^setSummary: options.through .*, got ""\.$/) as never],
      [
        'trip',
        'x',
        { through: 'a3', asOf: -1 },
        'setSummary: options.asOf must be a revision a page of messages() gave (an integer ≥ 0) when given, got -1.',
      ],
      ['trip', 'x', { through: 'a3', asOf: 1.5 }, expect.stringMatching(/options.asOf .*, got 1.5\.$/) as never],
    ]
    for (const [conversationId, text, options, message] of bad)
      expect(refusal(() => toSummaryRequest(conversationId, text, options, maxChars)).message).toEqual(message)
    expect(refusal(() => toConversationId('clearSummary', null)).message).toBe(
      'clearSummary: conversationId must be a string, got null.',
    )
  })

  it('refuses options whose reading throws (a getter) as INVALID_INPUT, naming setSummary', () => {
    const options = Object.defineProperty({}, 'through', {
      get() {
        throw new Error('the getter threw')
      },
    })
    expect(refusal(() => toSummaryRequest('trip', 'x', options, maxChars)).message).toMatch(
      /^setSummary: an argument cannot be read \(Error: the getter threw\)/,
    )
  })
})
