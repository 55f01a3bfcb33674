import { describe, expect, it } from 'vitest'
import { isQuestion, isShortReply, withAnswerNeighbours } from '../../worker/context/answer-neighbours'
import { replyLeadsFor } from '../../worker/context/context-plan'
import type { ScoredSentence } from '../../src/core/scored-sentence'
import { CONTEXT_TUNING } from '../../worker/context/context-tuning'
import { contentTermCount } from '../../worker/text/text-analysis'

/** A sentence's content words, as the lexical index counts them in English. */
const contentTermsOf = (s: Pick<ScoredSentence, 'text'>) => contentTermCount(s.text, 'en')

function sentence(sid: number, turn: number, text: string, conversationId = 'c'): ScoredSentence {
  return {
    sid,
    turn,
    text,
    conversationId,
    messageId: `m${turn}`,
    seq: turn + 1,
    index: 0,
    role: turn % 2 ? 'assistant' : 'user',
    timestamp: 0,
    start: 0,
    end: text.length,
    score: 1,
    reason: 'relevant',
  }
}

describe('isQuestion', () => {
  it.each([
    ['What did you paint?', true],
    ['Did she say "why?"', true],
    ['Really?) ', true],
    ['I painted a sunrise.', false],
    ['Why? Because.', false],
    ['', false],
  ])('%j → %s', (text, expected) => {
    expect(isQuestion(text)).toBe(expected)
  })
})

describe('isShortReply', () => {
  it.each([
    [0, 'Yes, the second option!', true],
    [0, 'Sure thing, see you then.', true],
    [0, 'I painted a sunrise over the lake last week.', false],
    [1, 'Yes!', false],
  ])('sentence %i %j → %s', (index, text, expected) => {
    expect(isShortReply({ index }, contentTermsOf({ text }))).toBe(expected)
  })
})

describe('withAnswerNeighbours', () => {
  const history = [
    sentence(1, 0, 'What did you paint?'),
    sentence(2, 1, 'A sunrise over the lake at dawn, in oils.'),
    sentence(3, 2, 'The museum opens its new wing in spring.'),
    sentence(4, 3, 'Any plans for the weekend then?'),
    sentence(5, 4, 'Yes, the second one!'),
    sentence(6, 5, 'Rain is expected all afternoon tomorrow.'),
  ]
  const turns = {
    openingOfNext: (s: ScoredSentence) => history.find((h) => h.turn === s.turn + 1),
    closingOfPrevious: (s: ScoredSentence) => history.find((h) => h.turn === s.turn - 1),
    contentTermsOf,
  }
  /** Candidates ranked below the first `replyLeads`, so only their own kind brings a neighbour. */
  const leads = [
    sentence(21, 20, 'Lead one about the garden.'),
    sentence(23, 22, 'Lead two about the garden.'),
    sentence(25, 24, 'Lead three about the garden.'),
  ]
  const afterLeads = (...ranked: ScoredSentence[]) =>
    [...withAnswerNeighbours([...leads, ...ranked], turns)].slice(leads.length).map((s) => [s.sid, s.reason])

  it('follows a question with the opening of the next turn, as a neighbour with the question’s score', () => {
    const out = [...withAnswerNeighbours([...leads, { ...history[0], score: 0.7 }], turns)].slice(leads.length)
    expect(out.map((s) => [s.sid, s.reason, s.score])).toEqual([
      [1, 'relevant', 0.7],
      [2, 'neighbor', 0.7],
    ])
  })

  it(`follows each of the first ${CONTEXT_TUNING.replyLeads} relevant candidates with the next turn's opening, asked or not, then its speaker's turn after that`, () => {
    const out = [...withAnswerNeighbours([history[1], history[2], history[5], history[0]], turns)]
    expect(out.map((s) => [s.sid, s.reason])).toEqual([
      [2, 'relevant'],
      [3, 'neighbor'],
      [4, 'neighbor'],
      [3, 'relevant'],
      [4, 'neighbor'],
      [5, 'neighbor'],
      [6, 'relevant'],
      [1, 'relevant'],
      [2, 'neighbor'],
    ])
  })

  it('brings a lead’s continuation only after another speaker’s reply, only from the same speaker, and not for a question', () => {
    const continuationOf = (lead: ScoredSentence, neighbours = turns) =>
      [...withAnswerNeighbours([lead], neighbours)].map((s) => [s.sid, s.reason])
    expect(continuationOf({ ...history[2], score: 0.3 })).toEqual([
      [3, 'relevant'],
      [4, 'neighbor'],
      [5, 'neighbor'],
    ])
    // A question lead brings its answer, not the asker's next turn.
    expect(continuationOf(history[0])).toEqual([
      [1, 'relevant'],
      [2, 'neighbor'],
    ])
    // A third speaker after the reply: that turn goes on with someone else's subject.
    const thirdSpeaker = {
      ...turns,
      openingOfNext: (s: ScoredSentence) => (s.turn === 3 ? { ...history[4], role: 'system' } : turns.openingOfNext(s)),
    }
    expect(continuationOf(history[2], thirdSpeaker)).toEqual([
      [3, 'relevant'],
      [4, 'neighbor'],
    ])
    // The turn after the reply belongs to another conversation.
    const elsewhere = {
      ...turns,
      openingOfNext: (s: ScoredSentence) =>
        s.turn === 3 ? { ...history[4], conversationId: 'other' } : turns.openingOfNext(s),
    }
    expect(continuationOf(history[2], elsewhere)).toEqual([
      [3, 'relevant'],
      [4, 'neighbor'],
    ])
    // Below the first replyLeads: no reply, so no continuation either.
    expect(afterLeads(history[2])).toEqual([[3, 'relevant']])
  })

  it('brings, for a lead that answers a question, the closing of its speaker’s turn before the question: what was asked about', () => {
    const trip = [
      sentence(40, 0, 'Sorry I missed you, been a crazy few days.'),
      { ...sentence(41, 0, 'Took a trip to a new place.'), index: 1 },
      sentence(42, 1, 'Where did you go?'),
      sentence(43, 2, 'I was in Chicago for the jazz festival with my cousins, it was awesome!'),
    ]
    const byTurn = (list: ScoredSentence[]) => ({
      openingOfNext: (s: ScoredSentence) => list.find((h) => h.turn === s.turn + 1),
      closingOfPrevious: (s: ScoredSentence) => list.filter((h) => h.turn === s.turn - 1).at(-1),
      contentTermsOf,
    })
    const around = (lead: ScoredSentence, list = trip, leads = CONTEXT_TUNING.replyLeads) =>
      [...withAnswerNeighbours([lead], byTurn(list), leads)].map((s) => [s.sid, s.reason])
    expect(around(trip[3])).toEqual([
      [43, 'relevant'],
      [41, 'neighbor'],
    ])
    // Not a lead.
    expect(around(trip[3], trip, 0)).toEqual([[43, 'relevant']])
    // The turn before is no question.
    const told = trip.map((s) => (s.sid === 42 ? { ...s, text: 'I went nowhere this week.' } : s))
    expect(around(told[3], told)).toEqual([[43, 'relevant']])
    // The question is the same speaker's, or the turn before it another speaker's.
    const ownQuestion = trip.map((s) => (s.sid === 42 ? { ...s, role: 'user' } : s))
    expect(around(ownQuestion[3], ownQuestion)).toEqual([[43, 'relevant']])
    const thirdSpeaker = trip.map((s) => (s.turn === 0 ? { ...s, role: 'system' } : s))
    expect(around(thirdSpeaker[3], thirdSpeaker)).toEqual([[43, 'relevant']])
    // A lead that asks brings its answer instead.
    const asking = trip.map((s) =>
      s.sid === 43 ? { ...s, text: 'Guess which city I spent the jazz festival weekend in with my cousins?' } : s,
    )
    expect(around(asking[3], asking)).toEqual([[43, 'relevant']])
  })

  it('takes as many leads as it is given: the first `leads` relevant candidates bring their reply, the rest do not', () => {
    const replied = (leads: number) =>
      [...withAnswerNeighbours([history[1], history[2], history[5]], turns, leads)]
        .filter((s) => s.reason === 'neighbor')
        .map((s) => s.sid)
    expect(replied(0)).toEqual([])
    expect(replied(1)).toEqual([3, 4])
    expect(replied(2)).toEqual([3, 4, 4, 5])
  })

  it(`leads: ${CONTEXT_TUNING.replyLeads} up to 2,000 characters of budget, then ${CONTEXT_TUNING.replyLeads} per 2,000, rounded`, () => {
    expect([0, 500, 2000, 4000, 5000, 8000, 10_000].map((budget) => replyLeadsFor(budget))).toEqual([
      3, 3, 3, 6, 8, 12, 15,
    ])
    expect(replyLeadsFor(Infinity)).toBe(Infinity)
  })

  it('follows a short reply that opens its turn with the closing sentence of the turn it answers', () => {
    expect(afterLeads({ ...history[4], score: 0.4 })).toEqual([
      [5, 'relevant'],
      [4, 'neighbor'],
    ])
    expect(afterLeads({ ...history[4], index: 1 })).toEqual([[5, 'relevant']])
  })

  it('brings no reply or question of the same speaker: a lead’s next note, a short note’s previous one', () => {
    const sameSpeaker = {
      openingOfNext: (s: ScoredSentence) => ({ ...history[s.turn + 1], role: s.role }),
      closingOfPrevious: (s: ScoredSentence) => ({ ...history[s.turn - 1], role: s.role }),
      contentTermsOf,
    }
    expect([...withAnswerNeighbours([history[1], history[4]], sameSpeaker)].map((s) => [s.sid, s.reason])).toEqual([
      [2, 'relevant'],
      [5, 'relevant'],
    ])
    expect([...withAnswerNeighbours([history[0]], sameSpeaker)].map((s) => [s.sid, s.reason])).toEqual([
      [1, 'relevant'],
      [2, 'neighbor'],
    ])
  })

  it('adds nothing after a later statement, past either end, or for a turn of another conversation or not adjacent', () => {
    expect(afterLeads(history[2], history[5])).toEqual([
      [3, 'relevant'],
      [6, 'relevant'],
    ])
    const elsewhere = {
      openingOfNext: () => sentence(9, 1, 'Elsewhere.', 'other'),
      closingOfPrevious: () => sentence(9, 3, 'Elsewhere.', 'other'),
      contentTermsOf,
    }
    const later = {
      openingOfNext: () => sentence(9, 7, 'Later.'),
      closingOfPrevious: () => sentence(9, 1, 'Earlier.'),
      contentTermsOf,
    }
    for (const far of [elsewhere, later])
      expect([...withAnswerNeighbours([history[0], history[4]], far)].map((s) => s.sid)).toEqual([1, 5])
    expect(
      [
        ...withAnswerNeighbours([history[0]], {
          openingOfNext: () => undefined,
          closingOfPrevious: () => undefined,
          contentTermsOf,
        }),
      ].map((s) => s.sid),
    ).toEqual([1])
  })

  it('is lazy: pulls ranked candidates only as they are consumed', () => {
    let pulled = 0
    function* ranked() {
      for (const s of history) {
        pulled++
        yield s
      }
    }
    const iterator = withAnswerNeighbours(ranked(), turns)
    iterator.next()
    iterator.next()
    expect(pulled).toBe(1)
  })
})
