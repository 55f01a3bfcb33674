import type { ScoredSentence } from '../../src/core/scored-sentence'
import { CONTEXT_TUNING, type ContextTuning } from './context-tuning'

/** What the neighbour rules read of the selection's tuning: which rules apply, and what a short reply is. */
export type NeighbourTuning = Pick<
  ContextTuning,
  'questionAnswers' | 'continuation' | 'askedAbout' | 'shortReplies' | 'shortReplyTerms'
>

/** Where a candidate's neighbouring turns start and end, in its conversation. */
export interface TurnNeighbours {
  /** The first sentence of the turn after `sentence`'s; undefined after the last turn. */
  openingOfNext(sentence: ScoredSentence): ScoredSentence | undefined
  /** The last sentence of the turn before `sentence`'s; undefined before the first turn. */
  closingOfPrevious(sentence: ScoredSentence): ScoredSentence | undefined
  /** How many content words `sentence` has, in its language (`contentTermCount`). */
  contentTermsOf(sentence: ScoredSentence): number
}

/**
 * Follows ranked candidates with the turns that make them readable, each as a `'neighbor'` candidate right behind
 * it with its score:
 * - a question ("What did you paint?") with the opening of the next turn: a question matches a request's words as
 *   well as its answer does, but only the answer carries the fact; and each of the first `leads` relevant
 *   candidates likewise, when the next turn is another speaker's (a reply, not the same speaker's next note);
 * - each of those first candidates that does not ask:
 *   - with the opening of its speaker's turn after that reply (the continuation), when there is one right after it;
 *   - when it answers a question ("I was in Chicago!" after "Where did you go?"), with the closing sentence of its
 *     speaker's turn before that question, what the question asked about ("Took a trip to a new place.");
 * - a short reply that opens its turn ("Yes, the second option is fine.") with the closing sentence of the turn
 *   before when that turn is another speaker's, the one it answers: alone it says nothing a reader can use.
 * A neighbour is one more candidate for the packer, so the budget is measured exactly; it is skipped if it does not
 * fit or was already offered, and only a turn adjacent in the same conversation counts. `leads` comes from
 * `replyLeadsFor` (context-plan.ts); `tuning` turns each rule off (the ablation rows in BENCHMARKS.md).
 */
export function* withAnswerNeighbours(
  ranked: Iterable<ScoredSentence>,
  turns: TurnNeighbours,
  leads = CONTEXT_TUNING.replyLeads,
  tuning: NeighbourTuning = CONTEXT_TUNING,
): Generator<ScoredSentence> {
  let relevant = 0
  for (const candidate of ranked) {
    yield candidate
    if (candidate.reason !== 'relevant') continue
    const lead = relevant++ < leads
    for (const sentence of neighboursOf(candidate, lead, turns, tuning)) yield neighbourOf(candidate, sentence)
  }
}

/** The neighbours a relevant candidate brings (`lead`: one of the first), rule by rule, in the order they follow it. */
function* neighboursOf(
  candidate: ScoredSentence,
  lead: boolean,
  turns: TurnNeighbours,
  tuning: NeighbourTuning,
): Generator<ScoredSentence> {
  const asks = isQuestion(candidate.text)
  const answers = asks && tuning.questionAnswers
  const reply = lead || answers ? answerOrReply(candidate, answers, turns) : undefined
  if (reply) yield reply
  if (lead && !asks) {
    const continuation = reply && tuning.continuation ? continuationAfter(candidate, reply, turns) : undefined
    if (continuation) yield continuation
    const subject = tuning.askedAbout ? askedAbout(candidate, turns) : undefined
    if (subject) yield subject
  }
  const shortReply =
    tuning.shortReplies && isShortReply(candidate, turns.contentTermsOf(candidate), tuning.shortReplyTerms)
  const question = shortReply ? questionOfShortReply(candidate, turns) : undefined
  if (question) yield question
}

/** The opening of the next turn: a question's answer (whoever gives it), or a lead's reply (another speaker's). */
function answerOrReply(candidate: ScoredSentence, answers: boolean, turns: TurnNeighbours): ScoredSentence | undefined {
  const next = turns.openingOfNext(candidate)
  return next && isAdjacent(candidate, next, 1) && (answers || next.role !== candidate.role) ? next : undefined
}

/** After a lead's `reply`, the opening of the lead's speaker's next turn: the continuation. */
function continuationAfter(
  candidate: ScoredSentence,
  reply: ScoredSentence,
  turns: TurnNeighbours,
): ScoredSentence | undefined {
  const next = turns.openingOfNext(reply)
  return next && isAdjacent(candidate, next, 2) && next.role === candidate.role ? next : undefined
}

/** For a lead that answers another speaker's question, the closing of its speaker's turn before that question. */
function askedAbout(candidate: ScoredSentence, turns: TurnNeighbours): ScoredSentence | undefined {
  const asked = turns.closingOfPrevious(candidate)
  if (!asked || !isAdjacent(candidate, asked, -1) || asked.role === candidate.role || !isQuestion(asked.text))
    return undefined
  const subject = turns.closingOfPrevious(asked)
  return subject && isAdjacent(candidate, subject, -2) && subject.role === candidate.role ? subject : undefined
}

/** For a short reply, the closing of the turn before when another speaker's: the one it answers. */
function questionOfShortReply(candidate: ScoredSentence, turns: TurnNeighbours): ScoredSentence | undefined {
  const asked = turns.closingOfPrevious(candidate)
  return asked && isAdjacent(candidate, asked, -1) && asked.role !== candidate.role ? asked : undefined
}

/** `sentence` brought by `candidate`: a `'neighbor'` with the candidate's score. */
function neighbourOf(candidate: ScoredSentence, sentence: ScoredSentence): ScoredSentence {
  return { ...sentence, score: candidate.score, reason: 'neighbor' }
}

/**
 * A sentence that asks: ends with a question mark, in any script (?, the full-width ？, Arabic's ؟), closing quotes
 * and brackets allowed.
 */
export function isQuestion(text: string): boolean {
  return /[?？؟]["'”’»)\]）」』》]*\s*$/.test(text)
}

/**
 * The first sentence of its turn, with at most `shortReplyTerms` content words (`contentTerms`: "Yes, the second
 * one!", "Sure thing!").
 */
export function isShortReply(
  sentence: Pick<ScoredSentence, 'index'>,
  contentTerms: number,
  shortReplyTerms = CONTEXT_TUNING.shortReplyTerms,
): boolean {
  return sentence.index === 0 && contentTerms <= shortReplyTerms
}

/** `other` is `step` turns after `candidate` (before it when negative) in the same conversation. */
function isAdjacent(candidate: ScoredSentence, other: ScoredSentence, step: 1 | 2 | -1 | -2): boolean {
  return other.conversationId === candidate.conversationId && other.turn === candidate.turn + step
}
