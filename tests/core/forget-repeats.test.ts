// Which sentences of a search with a statement's own text the forget tool takes as its repeats.
import { describe, expect, it } from 'vitest'
import { quotesIn, REPEAT_SEARCH, repeatsOf, restatementsIn } from '../../src/core/forget-repeats'
import { type ForgetStatement, forgottenBy } from '../../src/core/forget-tool'
import type { ForgettableMatch, Role } from '../../src/types'

type Ranked = [text: string, denseRank: number | undefined, lexicalRank: number | undefined]

/** A match of `content`, its sentences ranked as given (best first), with their places in the two rankings. */
function match(messageId: string, role: Role, timestamp: number, content: string, ranked: Ranked[]): ForgettableMatch {
  const sentences = ranked.map(([text, denseRank, lexicalRank], i) => {
    const start = content.indexOf(text)
    return { text, start, end: start + text.length, score: 1 / (i + 1), denseRank, lexicalRank }
  })
  return { messageId, conversationId: 'c', role, timestamp, content, score: 0.6, sentences, why: '' }
}

const SAID = Date.UTC(2026, 2, 2)
/** The search with a later message's rule on (the default takes no later message but the reply). */
const WITH_LATER = { ...REPEAT_SEARCH, laterMaxDenseRank: 2 }
const STATEMENT_TEXT = 'I see a physiotherapist for my knee.'
const STATEMENT: ForgetStatement = {
  messageId: 's',
  start: 0,
  end: STATEMENT_TEXT.length,
  date: '2026-03-02',
  role: 'user',
  text: STATEMENT_TEXT,
}
/** The statement's message, with other news whose best sentence ranks 3rd by meaning and 6th by words. */
const OWN = match('s', 'user', SAID, `${STATEMENT_TEXT} We are painting the hall. It is green.`, [
  [STATEMENT_TEXT, 1, 1],
  ['We are painting the hall.', 3, 6],
  ['It is green.', 9, undefined],
])

describe('repeatsOf', () => {
  it("takes the reply's sentences near the statement, marked with it, and none of its own message or earlier ones", () => {
    const earlier = match('e', 'assistant', SAID - 1, 'Knees take time.', [['Knees take time.', 2, 2]])
    const reply = match('r', 'assistant', SAID + 1, 'Physio for a knee is wise. Hall colours vary.', [
      ['Physio for a knee is wise.', 3, 7],
      ['Hall colours vary.', 8, 5],
    ])
    expect(repeatsOf(STATEMENT, SAID, [OWN, reply, earlier])).toEqual([
      {
        messageId: 'r',
        start: 0,
        end: 26,
        date: '2026-03-02',
        role: 'assistant',
        text: 'Physio for a knee is wise.',
        repeatOf: STATEMENT_TEXT,
      },
    ])
  })

  it("takes the reply's other sentences only when one ranking puts them ahead of the statement's other news", () => {
    const reply = (dense: number | undefined, lexical: number | undefined) =>
      match('r', 'assistant', SAID + 1, 'Good on you. The knee needs time.', [
        ['Good on you.', 4, 5],
        ['The knee needs time.', dense, lexical],
      ])
    const texts = (m: ForgettableMatch) => repeatsOf(STATEMENT, SAID, [OWN, m]).map((s) => s.text)
    expect(texts(reply(2, undefined))).toEqual(['Good on you.', 'The knee needs time.'])
    expect(texts(reply(8, 4))).toEqual(['Good on you.', 'The knee needs time.'])
    // Near by meaning, but behind the painting news in both rankings: the reply's answer to that news.
    expect(texts(reply(4, undefined))).toEqual(['Good on you.'])
    expect(texts(reply(4, 7))).toEqual(['Good on you.'])
    expect(texts(reply(9, 9))).toEqual(['Good on you.'])
    // Near in neither ranking: not a repeat, even as the reply's best sentence.
    expect(texts(match('r', 'assistant', SAID + 1, 'Fine.', [['Fine.', 9, 8]]))).toEqual([])
  })

  it("takes no reply when the next message is the statement's speaker's: a later one is held to a later message's ranks", () => {
    const next = match('n', 'user', SAID + 1, 'Off to work.', [['Off to work.', 9, undefined]])
    const reply = (dense: number) =>
      match('r', 'assistant', SAID + 2, 'Knee physio helps.', [['Knee physio helps.', dense, 2]])
    expect(repeatsOf(STATEMENT, SAID, [OWN, next, reply(3)], WITH_LATER)).toEqual([])
    expect(repeatsOf(STATEMENT, SAID, [OWN, reply(3)], WITH_LATER).map((s) => s.messageId)).toEqual(['r'])
    expect(repeatsOf(STATEMENT, SAID, [OWN, next, reply(2)], WITH_LATER).map((s) => s.messageId)).toEqual(['r'])
    // By default a message after the reply's place is never a repeat, however near it ranks.
    expect(repeatsOf(STATEMENT, SAID, [OWN, next, reply(1)])).toEqual([])
  })

  it('takes the best sentence of a later message only when both rankings put it nearer than a reply needs', () => {
    const later = (dense: number, lexical: number) =>
      match('l', 'user', SAID + 5, 'The knee physio says I can run again.', [
        ['The knee physio says I can run again.', dense, lexical],
      ])
    const taken = (m: ForgettableMatch) => repeatsOf(STATEMENT, SAID, [OWN, m], WITH_LATER).length
    expect(taken(later(2, 4))).toBe(1)
    expect(taken(later(3, 4))).toBe(0)
    expect(taken(later(2, 11))).toBe(0)
  })
})

describe('restatementsIn', () => {
  it("takes the best sentence of each of the exchange's messages that match, and nothing of other messages", () => {
    const asked = match('asked', 'user', SAID + 5, 'Thanks! Please forget my physio for the knee. The cat is fine.', [
      ['Please forget my physio for the knee.', undefined, 1],
      ['Thanks!', undefined, 2],
      ['The cat is fine.', undefined, 3],
    ])
    const reply = match('reply', 'assistant', SAID + 6, 'Done: your knee physio is forgotten.', [
      ['Done: your knee physio is forgotten.', undefined, 2],
    ])
    const older = match('old', 'user', SAID + 2, 'My knee is sore.', [['My knee is sore.', 4, 3]])
    expect(restatementsIn([older, asked, reply], new Set(['asked', 'reply']))).toEqual([
      { messageId: 'asked', start: 8, end: 45 },
      { messageId: 'reply', start: 0, end: 36 },
    ])
    expect(restatementsIn([older], new Set(['asked', 'reply']))).toEqual([])
  })
})

describe('forgottenBy', () => {
  it("reads the statements of a forget result that removed some, and nothing from any other tool's output", () => {
    const statement = { date: '2026-03-02', role: 'user', text: 'I see a physio.' }
    expect(forgottenBy({ outcome: 'forgotten', forgotten: [statement, { text: 3 }, null] })).toEqual([statement])
    expect(forgottenBy({ outcome: 'declined', forgotten: [statement] })).toEqual([])
    expect(forgottenBy({ outcome: 'forgotten', forgotten: 'all' })).toEqual([])
    expect(forgottenBy({ excerpts: [statement] })).toEqual([])
    expect(forgottenBy('forgotten')).toEqual([])
    expect(forgottenBy(null)).toEqual([])
  })
})

describe('quotesIn', () => {
  it('takes every sentence a quote of the statement overlaps, as the memory splits the message', () => {
    const reply =
      'Done. I have forgotten: We moved to 12 Oak St. in Leeds. Anything else? We moved to 12 Oak St. in Leeds.'
    const statement = 'We moved to 12 Oak St. in Leeds.'
    const quoted = quotesIn('r', reply, statement).map(({ start, end }) => reply.slice(start, end))
    expect(quoted.length).toBeGreaterThanOrEqual(2)
    expect(quoted.join(' ')).toContain('Oak St.')
    expect(quoted.join(' ')).toContain('in Leeds.')
    expect(quoted).not.toContain('Done.')
    expect(quoted).not.toContain('Anything else?')
    expect(quotesIn('r', reply, 'We moved to Paris.')).toEqual([])
    expect(quotesIn('r', reply, '   ')).toEqual([])
  })
})
