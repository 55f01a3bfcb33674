import { afterEach, describe, expect, it } from 'vitest'
import { formatUtcDate, renderContext } from '../../src/core/render-context'
import type { ScoredSentence } from '../../src/core/scored-sentence'

const MAY_8 = Date.UTC(2023, 4, 8, 10, 0)
const MAY_9 = Date.UTC(2023, 4, 9, 10, 0)
const MAY_10 = Date.UTC(2023, 4, 10, 10, 0)

let nextSid = 1
/** One sentence of message `seq` (turn defaults to seq - 1, conversation 'c'). */
function sentence(seq: number, index: number, text: string, extra: Partial<ScoredSentence> = {}): ScoredSentence {
  return {
    sid: nextSid++,
    messageId: `m${seq}`,
    conversationId: 'c',
    seq,
    index,
    role: seq % 2 === 1 ? 'user' : 'assistant',
    timestamp: MAY_8,
    text,
    start: 0,
    end: text.length,
    turn: seq - 1,
    score: 0,
    reason: 'relevant',
    ...extra,
  }
}

describe('formatUtcDate', () => {
  const originalTz = process.env.TZ
  afterEach(() => {
    process.env.TZ = originalTz
  })

  it('writes day, English month and year', () => {
    expect(formatUtcDate(MAY_8)).toBe('8 May 2023')
    expect(formatUtcDate(0)).toBe('1 January 1970')
    expect(formatUtcDate(Date.UTC(2024, 1, 29))).toBe('29 February 2024')
    expect(formatUtcDate(Date.UTC(2023, 11, 31, 23, 59, 59, 999))).toBe('31 December 2023')
    expect(formatUtcDate(Date.UTC(2025, 8, 1))).toBe('1 September 2025')
  })

  it('uses UTC whatever the machine time zone', () => {
    const lateEvening = Date.UTC(2023, 4, 8, 23, 30)
    for (const tz of ['Pacific/Kiritimati', 'America/Los_Angeles', 'Asia/Tokyo']) {
      process.env.TZ = tz
      expect(formatUtcDate(lateEvening)).toBe('8 May 2023')
      expect(formatUtcDate(Date.UTC(2023, 4, 9, 0, 30))).toBe('9 May 2023')
    }
  })

  it('gives no date for an invalid timestamp', () => {
    expect(formatUtcDate(Number.NaN)).toBe('')
    expect(formatUtcDate(9e15)).toBe('')
    expect(formatUtcDate(8.64e15)).toBe('13 September 275760')
    expect(formatUtcDate(8.64e15 + 1)).toBe('')
    expect(formatUtcDate(-8.64e15 - 1)).toBe('')
  })

  it('formats every day alike whether or not it is memoised (more days than the memo holds, twice)', () => {
    const expected = (t: number) =>
      new Date(t).toLocaleDateString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' })
    for (let pass = 0; pass < 2; pass++) {
      for (let day = -3000; day < 3000; day += 1) {
        const t = day * 86_400_000 + ((((day * 7919) % 86_400_000) + 86_400_000) % 86_400_000)
        expect(formatUtcDate(t)).toBe(expected(t))
      }
    }
  })
})

describe('renderContext', () => {
  it('renders nothing for no items', () => {
    expect(renderContext([])).toBe('')
  })

  it('labels a line with its role and date', () => {
    expect(renderContext([sentence(1, 0, 'Hello.')])).toBe('user (8 May 2023): Hello.')
  })

  it('leaves dates out when asked', () => {
    expect(
      renderContext([sentence(1, 0, 'Hello.'), sentence(3, 0, 'Later.', { timestamp: MAY_9 })], { dates: false }),
    ).toBe('user: Hello.\n[…]\nuser: Later.')
  })

  it('shows a date only when it differs from the previous line', () => {
    const items = [
      sentence(1, 0, 'A.'),
      sentence(2, 0, 'B.'),
      sentence(3, 0, 'C.', { timestamp: MAY_9 }),
      sentence(4, 0, 'D.', { timestamp: MAY_9 + 3600_000 }),
      sentence(5, 0, 'E.', { timestamp: MAY_10 }),
    ]
    expect(renderContext(items)).toBe(
      'user (8 May 2023): A.\nassistant: B.\nuser (9 May 2023): C.\nassistant: D.\nuser (10 May 2023): E.',
    )
  })

  it('compares dates across a gap and across conversations', () => {
    const items = [sentence(1, 0, 'A.'), sentence(5, 0, 'B.', { conversationId: 'other', turn: 0 })]
    expect(renderContext(items)).toBe('user (8 May 2023): A.\n[…]\nuser: B.')
  })

  it('renders an invalid timestamp without a date, and shows the next valid date', () => {
    const items = [sentence(1, 0, 'A.', { timestamp: Number.NaN }), sentence(2, 0, 'B.')]
    expect(renderContext(items)).toBe('user: A.\nassistant (8 May 2023): B.')
  })

  it("joins adjacent sentences of a message with ' ' and others with ' […] '", () => {
    const items = [sentence(1, 0, 'One.'), sentence(1, 1, 'Two.'), sentence(1, 3, 'Four.'), sentence(1, 4, 'Five.')]
    expect(renderContext(items, { dates: false })).toBe('user: One. Two. […] Four. Five.')
  })

  it('starts a line without a marker even when its first sentence is not the first of the message', () => {
    expect(renderContext([sentence(1, 2, 'Three.')], { dates: false })).toBe('user: Three.')
  })

  it("joins consecutive turns of a conversation with '\\n' and others with '\\n[…]\\n'", () => {
    const items = [
      sentence(1, 0, 'Turn 0.'),
      sentence(2, 0, 'Turn 1.'),
      sentence(4, 0, 'Turn 3.'),
      sentence(5, 0, 'Other conversation, turn 4.', { conversationId: 'd', turn: 4 }),
    ]
    expect(renderContext(items, { dates: false })).toBe(
      'user: Turn 0.\nassistant: Turn 1.\n[…]\nassistant: Turn 3.\n[…]\nuser: Other conversation, turn 4.',
    )
  })

  it('uses turn, not seq, for adjacency: conversations interleaved in seq stay adjacent per conversation', () => {
    const items = [
      sentence(1, 0, 'c0.', { conversationId: 'c', turn: 0 }),
      sentence(2, 0, 'd0.', { conversationId: 'd', turn: 0 }),
      sentence(3, 0, 'd1.', { conversationId: 'd', turn: 1 }),
    ]
    expect(renderContext(items, { dates: false })).toBe('user: c0.\n[…]\nassistant: d0.\nuser: d1.')
  })

  it('orders by seq then index, whatever the input order', () => {
    const items = [sentence(2, 1, 'b1.'), sentence(1, 0, 'a0.'), sentence(2, 0, 'b0.'), sentence(1, 1, 'a1.')]
    const expected = 'user (8 May 2023): a0. a1.\nassistant: b0. b1.'
    expect(renderContext(items)).toBe(expected)
    expect(renderContext([...items].reverse())).toBe(expected)
  })

  it('orders by timestamp before seq: a message added later but dated earlier comes first, ties keep the order of add', () => {
    const items = [
      sentence(1, 0, 'newest.', { timestamp: MAY_9, turn: 3 }),
      sentence(2, 0, 'oldest.', { timestamp: MAY_8, turn: 0 }),
      sentence(3, 0, 'tied, added first.', { timestamp: MAY_8 + 1, turn: 1 }),
      sentence(4, 0, 'tied, added after it.', { timestamp: MAY_8 + 1, turn: 2 }),
    ]
    expect(renderContext(items, { dates: false })).toBe(
      'assistant: oldest.\nuser: tied, added first.\nassistant: tied, added after it.\nuser: newest.',
    )
    expect(renderContext([...items].reverse(), { dates: false })).toBe(renderContext(items, { dates: false }))
  })

  it('uses any role string as the label', () => {
    expect(renderContext([sentence(1, 0, 'ok', { role: 'tool:search' })], { dates: false })).toBe('tool:search: ok')
  })
})
