import { describe, expect, it } from 'vitest'
import { DenseRanking } from '../../worker/rank/dense-ranking'
import { denseScores } from './dense-scores'
import { FusedRanking } from '../../worker/rank/fused-ranking'
import { RANK_TUNING } from '../../worker/rank/rank-tuning'

/** `hybrid`'s fusion as shipped: lexical hits counted above a sentence outside their list (`lexicalListEnd`). */
const shipped = RANK_TUNING.lexicalListEnd ? RANK_TUNING.lexicalListEndMin : undefined
const k = RANK_TUNING.rrfK

/** `absentRankMin` null: the classic fusion. */
function fused(
  lexical: readonly number[],
  share: number,
  absentRankMin: number | null = shipped ?? null,
  sentences = 300,
): FusedRanking {
  const hits = lexical.map((sid) => ({ sid }))
  return new FusedRanking(new DenseRanking(denseScores(sentences)), hits, () => share, k, 1, absentRankMin ?? undefined)
}

function positionOf(ranking: FusedRanking, sid: number): number {
  for (let i = 0; ; i++) if (ranking.at(i)?.sid === sid) return i
}

describe('FusedRanking: a lexical hit counts above a sentence outside the list', () => {
  it('keeps incidental word matches from far down the dense ranking out of its head', () => {
    // A question worded unlike its answer: the answer (dense rank 11) shares no word with it; BM25's hits each hold
    // one common word of the question (their share 0.92, as `lexicalShare` gives a quarter of a request whose words
    // the history uses) and the dense ranking puts them past 150. About 15 ranked sentences fill 2,000 characters.
    const incidental = [180, 150, 220, 160, 240, 170, 200, 190, 230, 210]
    const ranking = fused(incidental, 0.92)
    expect(positionOf(ranking, 11)).toBe(10)
    expect(incidental.every((sid) => positionOf(ranking, sid) > 11)).toBe(true)
  })

  it('takes off what a sentence at the absent rank would get: the list’s length + 1, or the minimum', () => {
    const ranking = fused([150, 160, 170], 0.5, 0)
    expect(ranking.scoreOf(170)).toBeCloseTo(1 / (k + 170) + 0.5 * (1 / (k + 3) - 1 / (k + 4)), 15)
    expect(fused([150, 160, 170], 0.5, 100).scoreOf(150)).toBeCloseTo(
      1 / (k + 150) + 0.5 * (1 / (k + 1) - 1 / (k + 100)),
      15,
    )
    // Without it, the classic fusion.
    expect(fused([150, 160, 170], 0.5, null).scoreOf(150)).toBeCloseTo(1 / (k + 150) + 0.5 / (k + 1), 15)
  })

  it('still lifts a rare word’s match from down the dense ranking to the top, which right after the list would not', () => {
    // Three sentences hold the request's rare word; the first is 60th by meaning.
    expect(positionOf(fused([60, 250, 280], 1), 60)).toBe(0)
    expect(positionOf(fused([60, 250, 280], 1, 0), 60)).toBeGreaterThan(30)
  })

  it('changes a long list of matches (every line of a named speaker) by at most its last rank’s share', () => {
    const lexical = Array.from({ length: 1500 }, (_, i) => ((i * 7) % 2000) + 1)
    const shippedRanking = fused(lexical, 1, undefined, 2000)
    const classic = fused(lexical, 1, null, 2000)
    for (const sid of [1, 8, 701, 1500]) {
      const gap = classic.scoreOf(sid)! - shippedRanking.scoreOf(sid)!
      expect(gap).toBeGreaterThanOrEqual(0)
      expect(gap).toBeLessThanOrEqual(1 / (k + 1501) + 1e-15)
    }
  })
})
