import type { ScoredSentence } from './scored-sentence'

/**
 * Follows each ranked question ("What did you paint?") with the opening of the turn that answers it, as a
 * `'neighbour'` candidate right behind it. A question matches a request's words as well as its answer does, but
 * only the answer carries the fact. The neighbour is one more candidate for the packer, so the budget is
 * measured exactly; it is skipped if it does not fit or was already offered. `answerOf` gives the first sentence
 * of the next turn in the same conversation, or undefined.
 */
export function* withAnswerNeighbours(
  ranked: Iterable<ScoredSentence>,
  answerOf: (question: ScoredSentence) => ScoredSentence | undefined,
): Generator<ScoredSentence> {
  for (const candidate of ranked) {
    yield candidate
    if (!isQuestion(candidate.text)) continue
    const answer = answerOf(candidate)
    if (answer && answer.conversationId === candidate.conversationId && answer.turn === candidate.turn + 1) {
      yield { ...answer, score: candidate.score, reason: 'neighbour' }
    }
  }
}

/** A sentence that asks: ends with a question mark (closing quotes and brackets allowed). */
export function isQuestion(text: string): boolean {
  return /\?["'”’)\]]*\s*$/.test(text)
}
