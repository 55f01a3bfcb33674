import type { ScoredSentence } from '../../src/core/scored-sentence'
import { CONTEXT_TUNING } from './context-tuning'

interface CliffOptions {
  /**
   * The next candidates are past a cliff when their mean score is below `ratio` × the mean score of the best
   * ones. Default `cliffRatio` of the tuning table. Lower stops later (closer to filling the budget), higher stops
   * sooner and saves more text.
   */
  ratio?: number
  /** How many ranked candidates make up "the best ones" and "the next ones". Default `cliffWindow` of the tuning table. */
  window?: number
}

/**
 * Whether relevance has fallen off a cliff: the mean of `next` is below `ratio` × the mean of `best` (both scores
 * in rank order, on one strategy's scale). False when either list is empty or the best mean is not positive
 * (nothing to compare against). Scale-free, so it applies to cosines, BM25 and fused ranks alike.
 */
export function isRelevanceCliff(
  best: readonly number[],
  next: readonly number[],
  ratio = CONTEXT_TUNING.cliffRatio,
): boolean {
  if (best.length === 0 || next.length === 0) return false
  const top = mean(best)
  return top > 0 && mean(next) < ratio * top
}

/**
 * Passes ranked candidates through until the next `window` relevance-ranked ones (reason `'relevant'`) fall off a
 * cliff relative to the first `window` (`isRelevanceCliff`); then calls `onCliff` and ends. Other candidates
 * (e.g. `'neighbor'`s) travel with the relevant one before them and do not count. Looks ahead by at most
 * `window` relevant candidates; the first `window` always pass.
 */
export function* untilRelevanceCliff(
  ranked: Iterable<ScoredSentence>,
  onCliff: () => void,
  options: CliffOptions = {},
): Generator<ScoredSentence> {
  const { ratio = CONTEXT_TUNING.cliffRatio, window = CONTEXT_TUNING.cliffWindow } = options
  const best: number[] = []
  const ahead: ScoredSentence[] = []
  const scoresAhead = (): number[] => ahead.filter((c) => c.reason === 'relevant').map((c) => c.score)
  for (const candidate of ranked) {
    const relevant = candidate.reason === 'relevant'
    if (best.length < window || (!relevant && ahead.length === 0)) {
      if (relevant) best.push(candidate.score)
      yield candidate
      continue
    }
    ahead.push(candidate)
    if (!relevant || scoresAhead().length < window) continue
    if (isRelevanceCliff(best, scoresAhead(), ratio)) {
      onCliff()
      return
    }
    // Release the first relevant candidate ahead with the ones travelling behind it.
    do yield ahead.shift()!
    while (ahead.length > 0 && ahead[0].reason !== 'relevant')
  }
  yield* ahead
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length
}
