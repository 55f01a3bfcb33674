import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { readHistory } from '../../tools/locomo/locomo'
import { parseHistory, parseSessionDate, qualifiedMessages, splitEvidence } from '../../tools/locomo/locomo-format'

// The project's benchmark data sits beside the checkout (../shared), here and in CI.
const LOCOMO = fileURLToPath(new URL('../../../shared/data/locomo10.json', import.meta.url))

describe('parseSessionDate', () => {
  it('reads LoCoMo dates as UTC with a 12-hour clock', () => {
    expect(parseSessionDate('1:56 pm on 8 May, 2023')).toBe(Date.UTC(2023, 4, 8, 13, 56))
    expect(parseSessionDate('12:09 am on 13 September, 2023')).toBe(Date.UTC(2023, 8, 13, 0, 9))
    expect(parseSessionDate('12:30 pm on 1 January, 2024')).toBe(Date.UTC(2024, 0, 1, 12, 30))
  })

  it('tolerates variants: upper case, 24-hour time, no time, short months, no comma', () => {
    expect(parseSessionDate('7:05 PM on 3 Feb 2022')).toBe(Date.UTC(2022, 1, 3, 19, 5))
    expect(parseSessionDate('19:05 on 3 February, 2022')).toBe(Date.UTC(2022, 1, 3, 19, 5))
    expect(parseSessionDate('3 Sept. 2022')).toBe(Date.UTC(2022, 8, 3))
    expect(parseSessionDate('2023-05-08T13:56:00Z')).toBe(Date.UTC(2023, 4, 8, 13, 56))
  })

  it('rejects what is not a date', () => {
    for (const text of [
      '',
      'yesterday',
      '31 February, 2023',
      '13:00 pm on 1 May, 2023',
      '1:61 pm on 1 May, 2023',
      '1 Smarch, 2023',
    ]) {
      expect(parseSessionDate(text), text).toBeUndefined()
    }
  })
})

describe('splitEvidence', () => {
  it('splits lists and normalises malformed ids', () => {
    expect(splitEvidence('D8:6; D9:17')).toEqual(['D8:6', 'D9:17'])
    expect(splitEvidence('D9:1 D4:4 D4:6')).toEqual(['D9:1', 'D4:4', 'D4:6'])
    expect(splitEvidence('D:11:26')).toEqual(['D11:26'])
    expect(splitEvidence('D30:05')).toEqual(['D30:5'])
    expect(splitEvidence('D')).toEqual(['D'])
    expect(splitEvidence('  ')).toEqual([])
  })
})

const sample = {
  sample_id: 'conv-x',
  conversation: {
    speaker_a: 'Ann',
    speaker_b: 'Bob',
    session_2_date_time: 'not a date',
    session_2: [{ speaker: 'Bob', dia_id: 'D2:1', text: 'Later.' }],
    session_1_date_time: '1:56 pm on 8 May, 2023',
    session_1: [
      { speaker: 'Ann', dia_id: 'D1:1', text: 'Hi Bob!' },
      { speaker: 'Bob', dia_id: 'D1:2', text: 'Look at this.', img_url: ['x'], blip_caption: 'a photo of a cat' },
    ],
  },
  qa: [
    { question: 'Q1', answer: 2023, evidence: ['D1:1; D2:1', 'D:1:2'], category: 2 },
    { question: 'Q2', answer: 'a', evidence: ['D', 'D7:1'], category: 1 },
    { question: 'Q3', adversarial_answer: 'b', evidence: [], category: 5 },
  ],
}

describe('parseHistory (LoCoMo)', () => {
  const history = parseHistory([sample])
  const [conversation] = history.conversations

  it('turns sessions into ordered messages with prefixed ids, speakers as roles and the caption appended', () => {
    expect(history.format).toBe('locomo')
    expect(conversation.id).toBe('conv-x')
    expect(conversation.messages.map((m) => m.id)).toEqual(['D1:1', 'D1:2', 'D2:1'])
    expect(conversation.messages[1]).toMatchObject({
      role: 'Bob',
      content: 'Look at this. [shared a photo of a cat]',
      conversationId: 'conv-x',
    })
  })

  it('gives turns increasing timestamps and continues a session without a readable date', () => {
    const start = Date.UTC(2023, 4, 8, 13, 56)
    expect(conversation.messages.map((m) => m.timestamp)).toEqual([start, start + 1000, start + 2000])
    expect(history.warnings.some((w) => w.includes('session 2 has no readable date'))).toBe(true)
  })

  it('normalises evidence, drops ids that name no turn and keeps answers as strings', () => {
    expect(conversation.questions[0]).toMatchObject({ answer: '2023', category: 2, evidence: ['D1:1', 'D2:1', 'D1:2'] })
    expect(conversation.questions[1].evidence).toEqual([])
    expect(conversation.questions[1].rawEvidence).toEqual(['D', 'D7:1'])
    expect(history.warnings.filter((w) => w.includes('names no turn'))).toHaveLength(2)
    expect(conversation.questions[2]).toMatchObject({ answer: '', category: 5, evidence: [] })
  })

  it('omits captions on request', () => {
    expect(parseHistory([sample], { images: 'omit' }).conversations[0].messages[1].content).toBe('Look at this.')
  })
})

describe('parseHistory (malformed LoCoMo)', () => {
  it('skips turns that are not objects, names speakerless turns "speaker", numbers turns without a dia_id, and says so', () => {
    const history = parseHistory({
      sample_id: 'conv-y',
      conversation: {
        session_1_date_time: '1:56 pm on 8 May, 2023',
        session_1: [null, { speaker: ' ', dia_id: 7, text: 'No one.' }, { speaker: 'Ann' }],
      },
      qa: [null, { question: 'Q', answer: 'a', evidence: ['D1:2'], category: 4 }],
    })
    const start = Date.UTC(2023, 4, 8, 13, 56)
    expect(history.conversations[0].messages).toEqual([
      { id: 'D1:2', role: 'speaker', content: 'No one.', conversationId: 'conv-y', timestamp: start + 1000 },
      { id: 'D1:3', role: 'Ann', content: '', conversationId: 'conv-y', timestamp: start + 2000 },
    ])
    expect(history.conversations[0].questions.map((q) => q.evidence)).toEqual([['D1:2']])
    expect(history.warnings).toEqual([
      'conv-y: turn 1 of session 1 is not an object; skipped',
      'conv-y: turn D1:2 has no speaker; read as "speaker"',
    ])
  })
})

describe('the parser module', () => {
  it('imports nothing, so the demo page can bundle it for the browser', async () => {
    const source = await readFile(
      fileURLToPath(new URL('../../tools/locomo/locomo-format.ts', import.meta.url)),
      'utf8',
    )
    expect(source).not.toMatch(/^\s*import\b|\bimport\(|\brequire\(/m)
  })
})

describe('parseHistory (plain messages)', () => {
  it('groups by conversationId (default "default") and keeps ids and timestamps', () => {
    const history = parseHistory([
      { role: 'user', content: 'a', id: 'm1', timestamp: 5 },
      { role: 'assistant', content: 'b', conversationId: 'c2' },
      { role: 'user', content: 'c' },
    ])
    expect(history.format).toBe('messages')
    expect(history.conversations.map((c) => [c.id, c.messages.map((m) => m.content)])).toEqual([
      ['default', ['a', 'c']],
      ['c2', ['b']],
    ])
    expect(history.conversations[0].messages[0]).toEqual({
      id: 'm1',
      role: 'user',
      content: 'a',
      conversationId: 'default',
      timestamp: 5,
    })
  })

  it('rejects anything else with a message that says what was expected', () => {
    expect(() => parseHistory([{ role: 'user' }])).toThrow(
      /message 0 must be an object with string "role" and "content"/,
    )
    expect(() => parseHistory([])).toThrow(/expected LoCoMo JSON/)
    expect(() => parseHistory({ messages: [] })).toThrow(/expected LoCoMo JSON/)
  })
})

describe.skipIf(!existsSync(LOCOMO))('the LoCoMo file', () => {
  it('loads 10 conversations and 1,540 answerable questions, 1,536 of them with usable evidence', async () => {
    const history = await readHistory(LOCOMO)
    const answerable = history.conversations.flatMap((c) =>
      c.questions.filter((q) => q.category >= 1 && q.category <= 4),
    )
    expect(history.conversations).toHaveLength(10)
    expect(answerable).toHaveLength(1540)
    expect(answerable.filter((q) => q.evidence.length > 0)).toHaveLength(1536)
    for (const conversation of history.conversations) {
      const ids = new Set(conversation.messages.map((m) => m.id))
      expect(ids.size).toBe(conversation.messages.length)
      for (const question of conversation.questions) for (const id of question.evidence) expect(ids.has(id)).toBe(true)
      const times = conversation.messages.map((m) => m.timestamp as number)
      expect(times.every((t, i) => i === 0 || t > times[i - 1])).toBe(true)
    }
    const all = qualifiedMessages(history.conversations)
    expect(new Set(all.map((m) => m.id)).size).toBe(all.length)
    expect(all.find((m) => m.conversationId === 'conv-26')?.id).toBe('conv-26/D1:1')
    expect(qualifiedMessages(history.conversations.slice(0, 1))[0].id).toBe('D1:1')
  })
})
