import { describe, expect, it } from 'vitest'
import { isRelevanceCliff, untilRelevanceCliff } from '../../worker/context/relevance-cliff'
import type { ScoredSentence } from '../../src/core/scored-sentence'

function candidate(sid: number, score: number, reason: ScoredSentence['reason'] = 'relevant'): ScoredSentence {
  return {
    sid,
    turn: sid,
    text: `s${sid}`,
    conversationId: 'c',
    messageId: `m${sid}`,
    seq: sid,
    index: 0,
    role: 'user',
    timestamp: 0,
    start: 0,
    end: 2,
    score,
    reason,
  }
}

describe('isRelevanceCliff', () => {
  it.each([
    [[10, 9, 8], [3, 2, 2], 0.5, true],
    [[10, 9, 8], [6, 5, 5], 0.5, false],
    [[10, 9, 8], [6, 5, 5], 0.7, true],
    [[0.03, 0.03], [0.016], 0.5, false],
    [[0.03, 0.03], [0.014], 0.5, true],
    [[], [1], 0.5, false],
    [[1], [], 0.5, false],
    [[0, 0], [-1], 0.5, false],
  ])('best %j, next %j, ratio %d → %s', (best, next, ratio, expected) => {
    expect(isRelevanceCliff(best, next, ratio)).toBe(expected)
  })
})

describe('untilRelevanceCliff', () => {
  const run = (ranked: ScoredSentence[], window = 2, ratio = 0.5) => {
    let cliffs = 0
    const out = [...untilRelevanceCliff(ranked, () => cliffs++, { window, ratio })].map((c) => c.sid)
    return { out, cliffs }
  }

  it('stops before the first window of candidates that falls below the ratio of the best window', () => {
    const ranked = [
      candidate(1, 10),
      candidate(2, 10),
      candidate(3, 9),
      candidate(4, 8),
      candidate(5, 2),
      candidate(6, 1),
      candidate(7, 1),
    ]
    // next windows: [9,8] pass; [8,2] = 5 ≥ 5 passes; [2,1] < 5 stops.
    expect(run(ranked)).toEqual({ out: [1, 2, 3, 4], cliffs: 1 })
  })

  it('passes everything when relevance declines gently, and always passes the best window', () => {
    expect(run([candidate(1, 10), candidate(2, 9), candidate(3, 8), candidate(4, 7), candidate(5, 6)])).toEqual({
      out: [1, 2, 3, 4, 5],
      cliffs: 0,
    })
    expect(run([candidate(1, 10), candidate(2, 0)])).toEqual({ out: [1, 2], cliffs: 0 })
  })

  it('keeps neighbours with the candidate before them and does not score them', () => {
    const ranked = [
      candidate(1, 10),
      candidate(2, 10),
      candidate(20, 10, 'neighbor'),
      candidate(3, 9),
      candidate(30, 9, 'neighbor'),
      candidate(4, 8),
      candidate(5, 2),
      candidate(6, 1),
      candidate(7, 1),
    ]
    expect(run(ranked)).toEqual({ out: [1, 2, 20, 3, 30, 4], cliffs: 1 })
  })

  it('pulls at most one window ahead of what it yields', () => {
    let pulled = 0
    function* ranked(): Generator<ScoredSentence> {
      for (let sid = 1; ; sid++) {
        pulled = sid
        yield candidate(sid, 1)
      }
    }
    const out = untilRelevanceCliff(ranked(), () => {}, { window: 3 })
    for (let i = 0; i < 5; i++) out.next()
    expect(pulled).toBe(7)
  })
})
