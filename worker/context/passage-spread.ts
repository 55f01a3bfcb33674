import type { ScoredSentence } from '../../src/core/scored-sentence'
import { CONTEXT_TUNING } from './context-tuning'

/**
 * Passes ranked candidates through, holding back each one within `radius` sentences of a sentence of its
 * message already passed, until every other candidate with a positive score was offered; the held ones then follow
 * in rank order, before the candidates the ranking gives nothing (`hybrid`'s dense-only sentences when the dense
 * ranking counts for nothing, `ContextStats.denseTrust`: a matched passage's sentences beat unmatched ones). A
 * passage's best-ranked sentence is usually the one that holds what the request matched, and the sentences around
 * it mostly elaborate it, while a question's evidence is often spread over several turns: a budget spent on one
 * sentence from each of more passages holds more of it (recall per budget: BENCHMARKS.md, "Ablation, issue 13").
 * The `followers` sentences right after a passed one are not held back (`passageFollowers`, which the context
 * asks for only where `hybrid` does not trust the dense ranking). Nothing is dropped, so a budget large enough for
 * everything still gets everything. Lazy: a candidate is pulled
 * only when the next one is wanted, until the held ones are due.
 */
export function* spreadOverPassages(
  ranked: Iterable<ScoredSentence>,
  radius = CONTEXT_TUNING.passageRadius,
  followers = 0,
): Generator<ScoredSentence> {
  const passedIndexes = new Map<string, number[]>()
  const held: ScoredSentence[] = []
  for (const candidate of ranked) {
    if (candidate.score <= 0 && held.length > 0) yield* held.splice(0)
    const passed = passedIndexes.get(candidate.messageId)
    if (passed === undefined) passedIndexes.set(candidate.messageId, [candidate.index])
    else if (passed.some((index) => holds(candidate.index - index, radius, followers))) {
      held.push(candidate)
      continue
    } else passed.push(candidate.index)
    yield candidate
  }
  yield* held
}

/** Whether a sentence `offset` sentences after an offered one of its message (before it when negative) waits. */
function holds(offset: number, radius: number, followers: number): boolean {
  return Math.abs(offset) <= radius && !(offset >= 1 && offset <= followers)
}
