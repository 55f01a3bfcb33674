// The forget tool: a function the LLM calls when the user asks it to forget something ("please forget my old
// address"), answered with what was forgotten. Here its definition as plain JSON Schema, for any SDK, the statements a
// call would forget picked from `findForgettable`'s matches, and its result; src/forget.ts runs it against a memory,
// and `sift-memory/ai` wraps it as an AI SDK tool that asks the app's approval first.
import type { ForgettableMatch, ForgettableSentence, ForgetSentence } from '../history-types'
import { utcDay } from './recall-tool'

/** What the model passes to the forget tool. */
export interface ForgetInput {
  /**
   * What the user wants forgotten, in the model's words or the user's own: a topic ("the user's old address"), a
   * statement ("I live at 12 Oak Street"), or the user's whole message with the request inside it.
   */
  statement: string
}

/**
 * One stored sentence a forget tool call would remove: where it is (what `memory.forget({ sentences })` takes) and
 * what an approval or a `confirm` shows the user.
 */
export interface ForgetStatement extends ForgetSentence {
  /** When it was said: a UTC date, `2026-03-02`. */
  date: string
  /** Who said it. */
  role: string
  /** The sentence, as stored. */
  text: string
  /**
   * Present when this sentence is a later repeat of another statement the call found (a reply that said it back): that
   * statement's text, so that an approval can show the repeat under what it repeats.
   */
  repeatOf?: string
}

/** One statement the forget tool removed, as its result tells the model. */
export interface ForgottenStatement {
  /** When it had been said: a UTC date, `2026-03-02`. */
  date: string
  /** Who had said it. */
  role: string
  /** The sentence that was removed. */
  text: string
}

/** The forget tool's result. */
export interface ForgetResult {
  /**
   * `'forgotten'`: the statements in `forgotten` were removed; `'nothing-matched'`: nothing stored matched what the
   * model passed, and nothing was removed; `'declined'`: the app's `confirm` kept every statement it was shown.
   */
  outcome: 'forgotten' | 'nothing-matched' | 'declined'
  /** The statements removed, oldest first, each followed by its repeats; none unless `outcome` is `'forgotten'`. */
  forgotten: ForgottenStatement[]
}

/** The tool as a function definition in JSON Schema, the shape OpenAI's `tools[].function` and most SDKs take. */
export const FORGET_TOOL = {
  name: 'forget',
  description:
    'Forget something the user said earlier, when the user asks you to (forget it, delete it, scratch it, it is not ' +
    'true anymore). Call it with what the user wants forgotten; the matching statements are removed from the memory ' +
    'once the user approves, and the result says which were removed, with their dates, or that nothing matched. ' +
    'Confirm briefly without repeating what was forgotten: your reply is kept too.',
  parameters: {
    type: 'object',
    properties: {
      statement: {
        type: 'string',
        description:
          "What to forget, e.g. 'my old address' or 'I work at the bank'; the user's own words are best, their whole " +
          'message if the request is part of it.',
      },
    },
    required: ['statement'],
    additionalProperties: false,
  },
} as const

/**
 * How closely a match other than the best must match (`ForgettableMatch.score`, 0 to 1) for its statement to be
 * removed too. A call is approved whole, so every statement it takes that the user did not mean is a fact lost: on the
 * forget set, with each request's whole message as the model's words and every call approved, the matches above
 * `findForgettable`'s own cut-off (0.4) cost 34 of 128 other facts; the best match alone, and the others from 0.6, 4,
 * while removing more of the statements asked for (54 of 60, from 49). Tried: 0.6 and 0.7 for the others; 0.4 to 0.7
 * for all matches, the best match alone, three, and the others within 70–90% of the best's score (BENCHMARKS.md, "The
 * forget tool").
 */
export const OTHER_MATCHES_MIN_SCORE = 0.6

/**
 * The statements a forget tool call removes, oldest first: the best match's best sentence, and that of each other
 * match scoring at least `otherMatchesMinScore`. One sentence per message, because a message that states the fact
 * usually states it once, and its other sentences (the ones that ranked lower) are other news the user did not ask to
 * lose; a message of that one sentence goes whole.
 */
export function statementsToForget(
  matches: readonly ForgettableMatch[],
  otherMatchesMinScore = OTHER_MATCHES_MIN_SCORE,
): ForgetStatement[] {
  return matches
    .filter((match, rank) => match.sentences.length > 0 && (rank === 0 || match.score >= otherMatchesMinScore))
    .map((match) => ({ match, sentence: match.sentences[0] }))
    .sort((a, b) => a.match.timestamp - b.match.timestamp)
    .map(({ match, sentence }) => statementOf(match, sentence))
}

/** A sentence of a match as a statement the forget tool would remove. */
export function statementOf(match: ForgettableMatch, sentence: ForgettableSentence): ForgetStatement {
  const { messageId, timestamp, role } = match
  return { messageId, start: sentence.start, end: sentence.end, date: utcDay(timestamp), role, text: sentence.text }
}

/** The result for the statements removed: `'forgotten'` with them, or `'declined'` when there were none to remove. */
export function forgetResult(removed: readonly ForgetStatement[]): ForgetResult {
  if (removed.length === 0) return { outcome: 'declined', forgotten: [] }
  return { outcome: 'forgotten', forgotten: removed.map(({ date, role, text }) => ({ date, role, text })) }
}

/**
 * The statements a forget tool result (`ForgetResult`, as a tool's JSON output carries it) says were removed; none for
 * any other value, or a result that removed nothing. Read back from a prompt, so every field is checked.
 */
export function forgottenBy(output: unknown): ForgottenStatement[] {
  if (typeof output !== 'object' || output === null) return []
  const { outcome, forgotten } = output as Partial<ForgetResult>
  if (outcome !== 'forgotten' || !Array.isArray(forgotten)) return []
  return forgotten.filter(
    (s): s is ForgottenStatement =>
      typeof s === 'object' && s !== null && typeof s.text === 'string' && typeof s.role === 'string',
  )
}
