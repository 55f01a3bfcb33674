import { describe, expect, it } from 'vitest'
import { unknownLetterShare } from '../../worker/embed/unknown-text'
import { DenseRanking } from '../../worker/rank/dense-ranking'
import { denseScores } from './dense-scores'
import { denseTrust } from '../../worker/rank/dense-trust'
import { FusedRanking } from '../../worker/rank/fused-ranking'
import { RANK_TUNING } from '../../worker/rank/rank-tuning'

/** The shipped model's tokenizer knows Latin letters and, of Cyrillic, only а е и н о р с т. */
const knows = new Set([...'abcdefghijklmnopqrstuvwxyzéàüаеинорст'])
const isUnknown = (letter: string) => !knows.has(letter.toLowerCase())

describe('unknownLetterShare', () => {
  it('is the share of a text’s letters the tokenizer has no piece for; digits and signs do not count', () => {
    expect(unknownLetterShare('Where did we go?', isUnknown)).toBe(0)
    expect(unknownLetterShare('我们去了哪里？', isUnknown)).toBe(1)
    expect(unknownLetterShare('мост', isUnknown)).toBe(0.25)
    expect(unknownLetterShare('2024 — 42!', isUnknown)).toBe(0)
    expect(unknownLetterShare('', isUnknown)).toBe(0)
  })
})

describe('denseTrust', () => {
  it('gives the dense ranking nothing for a text the model cannot read', () => {
    expect(denseTrust(0.9, 'zh', ['en'])).toEqual({ weight: 0, reason: 'unknown-text' })
    expect(denseTrust(0.9, 'zh', 'all')).toEqual({ weight: 0, reason: 'unknown-text' })
    expect(denseTrust(RANK_TUNING.unknownTextShare, 'ru', 'all')).toBeUndefined()
  })

  it('weighs it by otherLanguageDenseWeight for a language the model was not trained on, in full otherwise', () => {
    expect(denseTrust(0, 'de', ['en'])).toEqual({
      weight: RANK_TUNING.otherLanguageDenseWeight,
      reason: 'other-language',
    })
    expect(denseTrust(0, 'de', ['en'], { ...RANK_TUNING, otherLanguageDenseWeight: 0.5 })).toEqual({
      weight: 0.5,
      reason: 'other-language',
    })
    expect(denseTrust(0, 'de', ['en'], { ...RANK_TUNING, otherLanguageDenseWeight: 1 })).toBeUndefined()
    expect(denseTrust(0, 'en', ['en'])).toBeUndefined()
    expect(denseTrust(0, 'de', 'all')).toBeUndefined()
    expect(denseTrust(0, undefined, ['en'])).toBeUndefined()
  })
})

describe('FusedRanking with a dense weight', () => {
  const take = (ranking: FusedRanking, n: number) => Array.from({ length: n }, (_, i) => ranking.at(i)?.sid)

  it('at 0, puts every lexical hit first in lexical order, then the rest in dense order', () => {
    const fused = new FusedRanking(
      new DenseRanking(denseScores(8)),
      [{ sid: 7 }, { sid: 5 }, { sid: 8 }],
      () => 1,
      60,
      0,
    )
    expect(take(fused, 8)).toEqual([7, 5, 8, 1, 2, 3, 4, 6])
    expect(fused.at(3)).toMatchObject({ sid: 1, score: 0, ranks: { dense: 1 } })
    expect(fused.at(0)?.score).toBeCloseTo(1 / 61, 12)
    expect(fused.scoreOf(2)).toBe(0)
  })

  it('at 1, is the full fusion; in between, the dense ranks count in proportion', () => {
    const full = new FusedRanking(new DenseRanking(denseScores(8)), [{ sid: 7 }, { sid: 5 }], () => 1, 60, 1)
    // 5: 1/65 + 1/62 beats 7: 1/67 + 1/61, which beats the dense head's 1/61.
    expect(take(full, 3)).toEqual([5, 7, 1])
    expect(full.at(1)?.score).toBeCloseTo(1 / 67 + 1 / 61, 12)
    const half = new FusedRanking(new DenseRanking(denseScores(8)), [{ sid: 7 }, { sid: 5 }], () => 1, 60, 0.5)
    expect(half.scoreOf(7)).toBeCloseTo(0.5 / 67 + 1 / 61, 12)
    expect(half.scoreOf(1)).toBeCloseTo(0.5 / 61, 12)
  })
})
