import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { shortSentencePenalty } from '../../worker/rank/short-sentence-penalty'
import { contentTermCount } from '../../worker/text/text-analysis'
import { penalizeShortSentences } from '../../oracles/penalize-short-sentences'
import { RANK_TUNING } from '../../worker/rank/rank-tuning'

describe('contentTermCount / shortSentencePenalty', () => {
  it('counts words that are not stop words', () => {
    expect(contentTermCount('Wow, Caroline!', 'en')).toBe(2)
    expect(contentTermCount('What did you do?', 'en')).toBe(0)
    expect(contentTermCount("I'm a transgender woman.", 'en')).toBe(2)
    expect(contentTermCount('', 'en')).toBe(0)
  })

  it('takes a fixed amount per content word short of four, nothing from four on', () => {
    expect(shortSentencePenalty('Yes.', 'en')).toBeCloseTo(3 * RANK_TUNING.penaltyPerMissingTerm, 12)
    expect(shortSentencePenalty('Is it?', 'en')).toBeCloseTo(4 * RANK_TUNING.penaltyPerMissingTerm, 12)
    expect(shortSentencePenalty('Wow, Caroline!', 'en')).toBeCloseTo(2 * RANK_TUNING.penaltyPerMissingTerm, 12)
    expect(shortSentencePenalty('I went to a LGBTQ support group yesterday.', 'en')).toBe(0)
  })
})

describe('penalizeShortSentences', () => {
  const penalty = (hit: { id: string }) => (hit.id.startsWith('short') ? 0.2 : 0)

  it('re-ranks by score minus penalty', () => {
    const hits = [
      { id: 'short', score: 0.9 },
      { id: 'long', score: 0.8 },
    ]
    expect(penalizeShortSentences(hits, penalty, true)).toEqual([
      { id: 'long', score: 0.8 },
      { id: 'short', score: expect.closeTo(0.7, 12) },
    ])
  })

  it('holds back a hit that an unseen row could outrank when the list is a prefix', () => {
    const hits = [
      { id: 'short', score: 0.9 },
      { id: 'long', score: 0.8 },
    ]
    expect(penalizeShortSentences(hits, penalty, false).map((h) => h.id)).toEqual(['long'])
  })

  it('never lowers a score below 0 and leaves scores ≤ 0 alone', () => {
    const hits = [
      { id: 'short-a', score: 0.1 },
      { id: 'short-b', score: 0 },
      { id: 'short-c', score: -0.3 },
    ]
    expect(penalizeShortSentences(hits, penalty, true).map((h) => h.score)).toEqual([0, 0, -0.3])
  })

  it('a prefix result is a prefix of the complete re-ranking', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ short: fc.boolean(), score: fc.double({ min: -1, max: 1, noNaN: true }) }), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.nat(),
        (rows, cut) => {
          const all = rows
            .map((row, i) => ({ id: `${row.short ? 'short' : 'long'}-${i}`, score: row.score }))
            .sort((a, b) => b.score - a.score)
          const depth = 1 + (cut % all.length)
          const full = penalizeShortSentences(all, penalty, true)
          const prefix = penalizeShortSentences(all.slice(0, depth), penalty, depth === all.length)
          expect(prefix.map((h) => h.score)).toEqual(full.slice(0, prefix.length).map((h) => h.score))
        },
      ),
    )
  })
})
