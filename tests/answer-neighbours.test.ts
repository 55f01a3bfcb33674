import { describe, expect, it } from 'vitest'
import { isQuestion, withAnswerNeighbours } from '../src/core/answer-neighbours'
import type { ScoredSentence } from '../src/core/scored-sentence'

function sentence(sid: number, turn: number, text: string, conversationId = 'c'): ScoredSentence {
  return { sid, turn, text, conversationId, messageId: `m${turn}`, seq: turn + 1, index: 0, role: 'user', timestamp: 0, start: 0, end: text.length, score: 1, reason: 'relevant' }
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

describe('withAnswerNeighbours', () => {
  const history = [sentence(1, 0, 'What did you paint?'), sentence(2, 1, 'A sunrise over the lake.'), sentence(3, 2, 'Nice.'), sentence(4, 3, 'Any plans?')]
  const answerOf = (question: ScoredSentence) => history.find((s) => s.turn === question.turn + 1)

  it('follows a question with the opening of the next turn, as a neighbour with the question’s score', () => {
    const out = [...withAnswerNeighbours([{ ...history[0], score: 0.7 }, history[2]], answerOf)]
    expect(out.map((s) => [s.sid, s.reason, s.score])).toEqual([
      [1, 'relevant', 0.7],
      [2, 'neighbour', 0.7],
      [3, 'relevant', 1],
    ])
  })

  it('adds nothing after a statement, after the last turn, or when the next turn is of another conversation or not adjacent', () => {
    expect([...withAnswerNeighbours([history[1], history[3]], answerOf)].map((s) => s.sid)).toEqual([2, 4])
    expect([...withAnswerNeighbours([history[0]], () => sentence(9, 1, 'Elsewhere.', 'other'))].map((s) => s.sid)).toEqual([1])
    expect([...withAnswerNeighbours([history[0]], () => sentence(9, 5, 'Later.'))].map((s) => s.sid)).toEqual([1])
  })

  it('is lazy: pulls ranked candidates only as they are consumed', () => {
    let pulled = 0
    function* ranked() {
      for (const s of history) {
        pulled++
        yield s
      }
    }
    const iterator = withAnswerNeighbours(ranked(), answerOf)
    iterator.next()
    iterator.next()
    expect(pulled).toBe(1)
  })
})
