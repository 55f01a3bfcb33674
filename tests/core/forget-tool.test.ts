// The forget tool's pure part: which statements a call removes of findForgettable's matches, and its result.
import { describe, expect, it } from 'vitest'
import { forgetResult, statementsToForget } from '../../src/core/forget-tool'
import type { ForgettableMatch } from '../../src/types'

/** A match of `content`, its sentences ranked as given (best first). */
function match(messageId: string, timestamp: number, content: string, ranked: string[], score = 0.8): ForgettableMatch {
  const sentences = ranked.map((text, i) => {
    const start = content.indexOf(text)
    return { text, start, end: start + text.length, score: 1 / (i + 1) }
  })
  return { messageId, conversationId: 'c', role: 'user', timestamp, content, score, sentences, why: '' }
}

describe('statementsToForget', () => {
  it("takes each match's best sentence, oldest first, dated, and skips a match without one", () => {
    const later = match('b', Date.UTC(2026, 4, 9, 23), 'I moved to Leeds. I like it.', [
      'I moved to Leeds.',
      'I like it.',
    ])
    const earlier = match('a', Date.UTC(2026, 0, 3), 'The dog is called Biscuit. She is two.', ['She is two.'])
    const empty = match('c', 0, 'Nothing ranked.', [])
    expect(statementsToForget([later, empty, earlier])).toEqual([
      { messageId: 'a', start: 27, end: 38, date: '2026-01-03', role: 'user', text: 'She is two.' },
      { messageId: 'b', start: 0, end: 17, date: '2026-05-09', role: 'user', text: 'I moved to Leeds.' },
    ])
  })

  it('takes the best match however it scores, and the others only from otherMatchesMinScore', () => {
    const best = match('a', 3, 'I swim on Saturdays.', ['I swim on Saturdays.'], 0.45)
    const close = match('b', 2, 'The pool opens at six.', ['The pool opens at six.'], 0.6)
    const far = match('c', 1, 'My sister is a nurse.', ['My sister is a nurse.'], 0.59)
    expect(statementsToForget([best, close, far]).map((s) => s.messageId)).toEqual(['b', 'a'])
    expect(statementsToForget([best, close, far], 0.5).map((s) => s.messageId)).toEqual(['c', 'b', 'a'])
    expect(statementsToForget([far, best]).map((s) => s.messageId)).toEqual(['c'])
  })
})

describe('forgetResult', () => {
  it('says what was forgotten without where it was, or that the app declined it all', () => {
    const removed = { messageId: 'a', start: 0, end: 5, date: '2026-01-03', role: 'user', text: 'Hello' }
    expect(forgetResult([removed])).toEqual({
      outcome: 'forgotten',
      forgotten: [{ date: '2026-01-03', role: 'user', text: 'Hello' }],
    })
    expect(forgetResult([])).toEqual({ outcome: 'declined', forgotten: [] })
  })
})
