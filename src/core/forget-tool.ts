// The forget tool: a function the LLM calls when the user asks it to forget something ("please forget my old
// address"), answered with what was forgotten. Here its definition as plain JSON Schema, for any SDK, the statements a
// call would forget picked from `findForgettable`'s matches, and its result; src/forget.ts runs it against a memory,
// and `sift-memory/ai` wraps it as an AI SDK tool that asks the app's approval first.
import type { ForgettableMatch, ForgetSentence } from '../history-types'
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
  /** The statements removed, oldest first; none unless `outcome` is `'forgotten'`. */
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
 * The statements a forget tool call removes, oldest first: each match's best sentence. One sentence per message,
 * because a message that states the fact usually states it once, and its other sentences (the ones that ranked lower)
 * are other news the user did not ask to lose; a message of that one sentence goes whole.
 */
export function statementsToForget(matches: readonly ForgettableMatch[]): ForgetStatement[] {
  return matches
    .filter((match) => match.sentences.length > 0)
    .map((match) => ({ match, sentence: match.sentences[0] }))
    .sort((a, b) => a.match.timestamp - b.match.timestamp)
    .map(({ match, sentence }) => ({
      messageId: match.messageId,
      start: sentence.start,
      end: sentence.end,
      date: utcDay(match.timestamp),
      role: match.role,
      text: sentence.text,
    }))
}

/** The result for the statements removed: `'forgotten'` with them, or `'declined'` when there were none to remove. */
export function forgetResult(removed: readonly ForgetStatement[]): ForgetResult {
  if (removed.length === 0) return { outcome: 'declined', forgotten: [] }
  return { outcome: 'forgotten', forgotten: removed.map(({ date, role, text }) => ({ date, role, text })) }
}
