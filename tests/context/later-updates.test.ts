import { describe, expect, it } from 'vitest'
import {
  supersedingStatement,
  withLaterUpdates,
  withMarksResolved,
  type LaterStatement,
} from '../../worker/context/later-updates'
import { packBudget } from '../../src/core/pack-budget'
import { SUPERSEDED_MARK, renderContext } from '../../src/core/render-context'
import type { ScoredSentence } from '../../src/core/scored-sentence'
import { CONTEXT_TUNING } from '../../worker/context/context-tuning'

const DAY = 86_400_000

/** A sentence of its own message `m${sid}`, one day per sid unless `timestamp` says otherwise. */
function sentence(sid: number, text: string, fields: Partial<ScoredSentence> = {}): ScoredSentence {
  return {
    sid,
    turn: sid,
    text,
    conversationId: 'c',
    messageId: `m${sid}`,
    seq: sid,
    index: 0,
    role: 'user',
    timestamp: sid * DAY,
    start: 0,
    end: text.length,
    score: 1,
    reason: 'relevant',
    ...fields,
  }
}

const later = (s: ScoredSentence, similarity: number): LaterStatement => ({ sentence: s, similarity })

describe('supersedingStatement', () => {
  const car = sentence(1, 'I drive a Polo, the car is old but reliable.')
  const neighbour = sentence(5, 'My neighbour drives a Clio and parks it badly.')
  const revision = sentence(9, 'Sold the Polo at last, picked up a Kia yesterday.')

  it('is undefined without later statements', () => {
    expect(supersedingStatement(car, [])).toBeUndefined()
  })

  it('takes the newest of the closest later statements: a revision beats a closer statement said before it', () => {
    expect(CONTEXT_TUNING.updateRivals).toBe(2)
    expect(supersedingStatement(car, [later(neighbour, 0.69), later(revision, 0.48)])?.sid).toBe(9)
    // Among the closest two only: a newer revision less close than both is not a rival.
    const sold = sentence(5, 'Sold the Polo to my neighbour.')
    const again = sentence(12, 'Sold the Kia too, the Polo was better.')
    expect(supersedingStatement(car, [later(sold, 0.69), later(revision, 0.48), later(again, 0.46)])?.sid).toBe(9)
    expect(supersedingStatement(car, [later(sold, 0.69), later(revision, 0.48), later(again, 0.5)])?.sid).toBe(12)
  })

  it('takes no later statement that is not worded as a change, however close: more of the same story', () => {
    const more = sentence(12, 'The Polo needed new tyres, that cost a fortune.')
    expect(supersedingStatement(car, [later(more, 0.9)])).toBeUndefined()
    expect(supersedingStatement(car, [later(more, 0.9), later(revision, 0.48)])?.sid).toBe(9)
  })

  it('takes no revision that names neither the subject nor the old value, unless it is a move from home', () => {
    const unrelated = sentence(12, 'Switched to the early shift at the bakery.')
    expect(supersedingStatement(car, [later(unrelated, 0.9)])).toBeUndefined()
    const home = sentence(2, 'We live in a flat above the bakery in Leeds.')
    expect(supersedingStatement(home, [later(sentence(12, 'We moved to Bristol at last!'), 0.5)])?.sid).toBe(12)
  })

  it('takes nothing after an event told at a past time: it stays so', () => {
    const event = sentence(2, 'I won the pub quiz last week with my Polo trivia.')
    expect(
      supersedingStatement(event, [later(sentence(12, 'No longer doing the pub quiz, sold my Polo books.'), 0.9)]),
    ).toBeUndefined()
  })

  it("counts the other speaker's revision when the speaker confirms it", () => {
    const stated = sentence(12, 'So you sold the Polo and drive a Kia now?', { role: 'assistant' })
    expect(supersedingStatement(car, [later(stated, 0.6)])).toBeUndefined()
    expect(supersedingStatement(car, [{ ...later(stated, 0.6), confirmed: true }])?.sid).toBe(12)
  })

  it('needs sameSubjectSimilarity', () => {
    expect(supersedingStatement(car, [later(revision, CONTEXT_TUNING.sameSubjectSimilarity)])?.sid).toBe(9)
    expect(supersedingStatement(car, [later(revision, CONTEXT_TUNING.sameSubjectSimilarity - 0.01)])).toBeUndefined()
    expect(supersedingStatement(car, [later(revision, Number.NaN)])).toBeUndefined()
  })

  it('only counts later statements by the same speaker in the same conversation', () => {
    expect(supersedingStatement(car, [later({ ...revision, role: 'assistant' }, 0.9)])).toBeUndefined()
    expect(supersedingStatement(car, [later({ ...revision, conversationId: 'other' }, 0.9)])).toBeUndefined()
    expect(supersedingStatement(car, [later(car, 1)])).toBeUndefined()
    expect(supersedingStatement(revision, [later(car, 0.9)])).toBeUndefined()
  })

  it('goes by time, not by the order of add: a message added later but dated earlier is not later', () => {
    const backdated = sentence(20, 'Sold the Polo at last, picked up a Kia yesterday.', { timestamp: 0 })
    expect(supersedingStatement(car, [later(backdated, 0.9)])).toBeUndefined()
    const sameTime = sentence(21, 'Sold the Polo at last.', { timestamp: car.timestamp, seq: car.seq + 1 })
    expect(supersedingStatement(car, [later(sameTime, 0.9)])?.sid).toBe(21)
  })

  it('leaves questions out on both sides: they state nothing to replace', () => {
    const asked = sentence(10, 'Should I sell the Polo?')
    expect(supersedingStatement(car, [later(asked, 0.9)])).toBeUndefined()
    expect(supersedingStatement(car, [later(asked, 0.9), later(revision, 0.5)])?.sid).toBe(9)
    expect(supersedingStatement(sentence(2, 'What car should I buy?'), [later(revision, 0.9)])).toBeUndefined()
  })

  it('breaks a tie in similarity towards the newer statement', () => {
    const a = sentence(6, 'Sold the Polo to a colleague.')
    const b = sentence(7, 'Sold the Polo, a Kia instead.')
    const c = sentence(8, 'Switched from the Polo to a bike.')
    expect(supersedingStatement(car, [later(c, 0.5), later(a, 0.6), later(b, 0.6)])?.sid).toBe(7)
  })
})

describe('withLaterUpdates', () => {
  const car = sentence(1, 'I drive a Polo.')
  const cat = sentence(2, 'Our cat is called Luna.')
  const revision = sentence(9, 'Sold the Polo, picked up a Kia.', { reason: 'update', score: 0 })
  const renamed = sentence(10, 'Luna is Pepper from now on.', { reason: 'update', score: 0 })
  const laterOf = (s: ScoredSentence) =>
    s.sid === car.sid ? [later(revision, 0.6)] : s.sid === cat.sid ? [later(renamed, 0.6)] : []

  it('follows the best candidate with what supersedes it, marked, with its score', () => {
    const out = [...withLaterUpdates([{ ...car, score: 0.4 }], laterOf)]
    expect(out.map((s) => [s.sid, s.reason, s.score, s.supersededBy])).toEqual([
      [1, 'relevant', 0.4, 'm9'],
      [9, 'update', 0.4, undefined],
    ])
  })

  it('looks up only the first `lookups` relevant candidates of each query', () => {
    const looked: number[] = []
    const spy = (s: ScoredSentence) => {
      looked.push(s.sid)
      return laterOf(s)
    }
    const one = { ...CONTEXT_TUNING, updateLookups: 1 }
    expect([...withLaterUpdates([car, cat], spy, one)].map((s) => s.sid)).toEqual([1, 9, 2])
    expect(looked).toEqual([1])
    expect(
      [...withLaterUpdates([car, cat], laterOf, { ...CONTEXT_TUNING, updateLookups: 2 })].map((s) => s.sid),
    ).toEqual([1, 9, 2, 10])
    // The first candidate of the second query is its own best match.
    expect([...withLaterUpdates([car, { ...cat, query: 1 }], laterOf, one)].map((s) => s.sid)).toEqual([1, 9, 2, 10])
  })

  it('does not look up neighbours, recent turns or updates, and leaves a candidate nothing supersedes as it is', () => {
    for (const reason of ['neighbor', 'recent', 'position', 'update'] as const) {
      expect([...withLaterUpdates([{ ...car, reason }, cat], laterOf)].map((s) => s.sid)).toEqual([1, 2, 10])
    }
    const alone = sentence(3, 'Nothing new here.')
    expect([...withLaterUpdates([alone], laterOf)]).toEqual([alone])
  })
})

describe('withMarksResolved', () => {
  const marked = sentence(1, 'I drive a Polo.', { supersededBy: 'm9' })
  const newer = sentence(9, 'Sold the Polo, picked up a Kia.')

  it('keeps a mark whose newer message is there, returning the same array', () => {
    const items = [marked, newer]
    expect(withMarksResolved(items)).toBe(items)
  })

  it('drops a mark whose newer message is not there, and only that one', () => {
    const other = sentence(2, 'Our cat is called Luna.', { supersededBy: 'm7' })
    const resolved = withMarksResolved([marked, other, newer])
    expect(resolved.map((s) => s.supersededBy)).toEqual(['m9', undefined, undefined])
    expect('supersededBy' in resolved[1]).toBe(false)
  })
})

describe('the mark in the rendered text', () => {
  it('follows the superseded sentence, inside its line, and changes nothing else', () => {
    const first = sentence(1, 'I drive a Polo.', { timestamp: Date.UTC(2024, 0, 1) })
    const second = sentence(1, 'It is old.', { sid: 2, index: 1, timestamp: Date.UTC(2024, 0, 1) })
    const newer = sentence(9, 'Sold the Polo, picked up a Kia.', { timestamp: Date.UTC(2024, 4, 8) })
    const plain = renderContext([first, second, newer])
    expect(plain).toBe(
      'user (1 January 2024): I drive a Polo. It is old.\n[…]\nuser (8 May 2024): Sold the Polo, picked up a Kia.',
    )
    expect(renderContext([{ ...first, supersededBy: 'm9' }, second, newer])).toBe(
      plain.replace('Polo.', `Polo.${SUPERSEDED_MARK}`),
    )
    expect(SUPERSEDED_MARK).toBe(' [may be updated below]')
  })

  it('is measured by the packer: the budget holds and `used` is the rendered length', () => {
    const marked = { ...sentence(1, 'I drive a Polo.'), supersededBy: 'm9' }
    const newer = sentence(9, 'Sold the Polo, picked up a Kia.')
    const text = renderContext([marked, newer])
    const exact = packBudget([marked, newer], { budget: text.length, minFill: 1 })
    expect(exact.used).toBe(text.length)
    expect(exact.text).toBe(text)
    const short = packBudget([marked, newer], { budget: text.length - 1, minFill: 1 })
    expect(short.used).toBeLessThanOrEqual(text.length - 1)
    expect(short.used).toBe(short.text.length)
  })
})
