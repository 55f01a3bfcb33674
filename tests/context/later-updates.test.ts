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

// Sentences written for these tests, in none of the update sets.
describe('supersedingStatement: revisions tied by meaning, stems and what they name', () => {
  const gym = sentence(1, 'My gym membership is with PureFit.')
  const other = sentence(2, 'My cousin plays the cello in a quartet.')
  const revision = sentence(9, 'Went over to Anytime last month, the classes are better.', {})
  /** `statement` with its nearest earlier sentences, nearest first, and its place among the request's nearest. */
  const tied = (
    statement: ScoredSentence,
    similarity: number,
    near: [ScoredSentence, number][],
    requestRank?: number,
  ): LaterStatement => ({
    sentence: statement,
    similarity,
    earlierNeighbours: () => near.map(([s, cosine]) => ({ sentence: s, similarity: cosine })),
    ...(requestRank !== undefined && { requestRank }),
  })
  const switched = sentence(9, 'Switched to Anytime last month, the classes are better.')

  it('ties a change that names nothing of the line to the line it is most about, when it answers the request', () => {
    expect(
      supersedingStatement(gym, [
        tied(
          switched,
          0.46,
          [
            [gym, 0.46],
            [other, 0.2],
          ],
          1,
        ),
      ])?.sid,
    ).toBe(9)
    // Just under sameSubjectSimilarity still, as the line it is most about.
    expect(supersedingStatement(gym, [tied(switched, 0.44, [[gym, 0.44]], 1)])?.sid).toBe(9)
    expect(
      supersedingStatement(gym, [tied(switched, CONTEXT_TUNING.closestRevisionSimilarity - 0.01, [[gym, 0.39]], 1)]),
    ).toBeUndefined()
  })

  it('not when another line of the speaker is closer to it, or it is far from the request, or unworded', () => {
    expect(
      supersedingStatement(gym, [
        tied(
          switched,
          0.46,
          [
            [other, 0.5],
            [gym, 0.46],
          ],
          1,
        ),
      ]),
    ).toBeUndefined()
    expect(
      supersedingStatement(gym, [tied(switched, 0.46, [[gym, 0.46]], CONTEXT_TUNING.updateLookups)]),
    ).toBeUndefined()
    expect(supersedingStatement(gym, [tied(switched, 0.46, [[gym, 0.46]])])).toBeUndefined()
    expect(supersedingStatement(gym, [tied(revision, 0.6, [[gym, 0.6]], 0)])).toBeUndefined()
    // The other speaker's closer line and a question do not count as closer: they are not the speaker's statements.
    const asked = sentence(3, 'Is PureFit open on Sundays?')
    const theirs = sentence(4, 'PureFit has a pool, I think.', { role: 'assistant' })
    expect(
      supersedingStatement(gym, [
        tied(
          switched,
          0.46,
          [
            [asked, 0.7],
            [theirs, 0.7],
            [gym, 0.46],
          ],
          1,
        ),
      ])?.sid,
    ).toBe(9)
  })

  it('takes no move as a change of a line it names nothing of: a move revises a home', () => {
    const school = sentence(1, 'Our son is at Hillcrest Primary.')
    const move = sentence(9, 'We moved to Ealing, nearer the river.')
    expect(supersedingStatement(school, [tied(move, 0.6, [[school, 0.6]], 0)])).toBeUndefined()
  })

  it('takes no repeat of the line, however close', () => {
    const again = sentence(9, 'Cancelled the cello lessons again.')
    const lessons = sentence(1, 'Cancelled the cello lessons.')
    expect(supersedingStatement(lessons, [tied(again, 0.95, [[lessons, 0.95]], 0)])).toBeUndefined()
  })

  it('meets an agent noun and its activity ("welder" / "welding"), just under sameSubjectSimilarity when most about it', () => {
    const job = sentence(1, 'I got a job as a welder at the shipyard.')
    const now = sentence(9, 'These days I teach evening classes instead of the welding.')
    expect(supersedingStatement(job, [tied(now, 0.5, [[job, 0.5]])])?.sid).toBe(9)
    expect(supersedingStatement(job, [tied(now, 0.43, [[job, 0.43]])])?.sid).toBe(9)
    expect(
      supersedingStatement(job, [
        tied(now, 0.43, [
          [other, 0.6],
          [job, 0.43],
        ]),
      ]),
    ).toBeUndefined()
  })

  it('takes a named revision only for a line among the `updateRivals` it is most about, a repeated one counted once', () => {
    const hobby = sentence(1, 'Board games are great fun for a rainy weekend!')
    const change = sentence(9, "These days it's mostly card games at our place.")
    const a = sentence(2, 'We play cards every Friday.')
    const b = sentence(3, 'My uncle taught me poker.')
    expect(CONTEXT_TUNING.updateRivals).toBe(2)
    expect(
      supersedingStatement(hobby, [
        tied(change, 0.5, [
          [a, 0.7],
          [b, 0.6],
          [hobby, 0.5],
        ]),
      ]),
    ).toBeUndefined()
    const again = { ...a, sid: 4 }
    expect(
      supersedingStatement(hobby, [
        tied(change, 0.5, [
          [a, 0.7],
          [again, 0.7],
          [hobby, 0.5],
        ]),
      ])?.sid,
    ).toBe(9)
  })

  it('revises the line naming most of it, not a less close one on a shared word, unless that one is a later change', () => {
    const tea = sentence(1, 'I drink black tea with breakfast.')
    const read = sentence(2, 'I drink too little water at work.')
    const change = sentence(9, "I don't drink black tea anymore, just hot water and lemon.")
    const statement = tied(change, 0.6, [
      [tea, 0.8],
      [read, 0.6],
    ])
    expect(supersedingStatement(tea, [{ ...statement, similarity: 0.8 }])?.sid).toBe(9)
    expect(supersedingStatement(read, [statement])).toBeUndefined()
    // A value changed twice: the middle line names less than the first yet is revised, being a change of it.
    const desk = sentence(1, 'My desk is in room 4B on the second floor.')
    const moved = sentence(5, 'Switched desks, room 7 on the fourth floor.')
    const again = sentence(9, 'Changed to a desk on the ground floor, in room 1B.')
    expect(
      supersedingStatement(moved, [
        tied(again, 0.6, [
          [desk, 0.7],
          [moved, 0.6],
        ]),
      ])?.sid,
    ).toBe(9)
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
    // The revision found is followed in turn (a value changed twice), which is no lookup of a ranked candidate.
    expect(looked).toEqual([1, 9])
    expect(
      [...withLaterUpdates([car, cat], laterOf, { ...CONTEXT_TUNING, updateLookups: 2 })].map((s) => s.sid),
    ).toEqual([1, 9, 2, 10])
    // The first candidate of the second query is its own best match.
    expect([...withLaterUpdates([car, { ...cat, query: 1 }], laterOf, one)].map((s) => s.sid)).toEqual([1, 9, 2, 10])
  })

  it('spends no lookup on a question or an event at a past time: nothing revises them', () => {
    const looked: number[] = []
    const spy = (s: ScoredSentence) => {
      looked.push(s.sid)
      return laterOf(s)
    }
    const asked = sentence(3, 'Should I sell the Polo?')
    const past = sentence(4, 'I washed the Polo last week.')
    const one = { ...CONTEXT_TUNING, updateLookups: 1 }
    expect([...withLaterUpdates([asked, past, cat], spy, one)].map((s) => s.sid)).toEqual([3, 4, 2, 10])
    expect(looked).toEqual([2, 10])
  })

  it('marks the middle of a value changed twice, following the revision in turn', () => {
    const middle = sentence(9, 'Sold the Polo, picked up a Kia.')
    const last = sentence(12, 'Sold the Kia too, cycling now.')
    const chain = (s: ScoredSentence) =>
      s.sid === car.sid ? [later(middle, 0.6)] : s.sid === middle.sid ? [later(last, 0.6)] : []
    expect([...withLaterUpdates([car], chain)].map((s) => [s.sid, s.reason, s.supersededBy])).toEqual([
      [1, 'relevant', 'm9'],
      [9, 'update', 'm12'],
      [12, 'update', undefined],
    ])
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
