// The forget tool run against a memory, for any SDK: the statements a call would remove, and the call itself, which
// removes nothing the app has not approved. `sift-memory/ai`'s forgetTool runs the same steps behind the AI SDK's approval.
import { SiftError } from './errors'
import {
  OTHER_MATCHES_MIN_SCORE,
  forgetResult,
  statementsToForget,
  type ForgetInput,
  type ForgetResult,
  type ForgetStatement,
  type ForgottenStatement,
} from './core/forget-tool'
import { quotesIn, REPEAT_SEARCH, repeatsOf, restatementsIn } from './core/forget-repeats'
import type { ForgetSentence } from './history-types'
import type { Memory } from './types'

/** Where the forget tool looks for the statements it removes (`findForgettable`'s options). */
export interface ForgetSearchOptions {
  /**
   * Only this conversation's history.
   *
   * @defaultValue every conversation
   */
  conversationId?: string
  /**
   * Most statements one call removes: one per matching message (`FindForgettableOptions.limit`).
   *
   * Range: an integer from 1 to 100; anything else rejects the call with `INVALID_INPUT`.
   *
   * @defaultValue `10`
   */
  limit?: number
  /**
   * How closely a message must match for its statement to be removed (`FindForgettableOptions.minScore`).
   *
   * Range: a number from 0 to 1; anything else rejects the call with `INVALID_INPUT`.
   *
   * @defaultValue `0.4`: `findForgettable`'s cut-off
   */
  minScore?: number
  /**
   * How closely a match other than the best must match for its statement to be removed too: a call is approved
   * whole, so a statement the user did not mean is a fact lost.
   *
   * Range: a number from 0 to 1; anything else rejects the call with `INVALID_INPUT`. Below `minScore` it changes
   * nothing.
   *
   * @defaultValue `0.6`: on the forget set, the best match and the others from 0.6 lost 4 of 128 other facts where
   * every match above 0.4 lost 34, and removed more of the statements asked for (BENCHMARKS.md, "The forget tool")
   */
  otherMatchesMinScore?: number
  /**
   * Whether the statements found bring their repeats (`ForgetStatement.repeatOf`): the sentences of the reply that said
   * the same thing back. Without them a forgotten fact stays in the memory in the words of that reply. Later lines that
   * mention it again are not taken (mostly the user's own later news: other facts).
   *
   * @defaultValue `true`: on the forget set, with every call approved, the requests whose value is still stored
   * somewhere afterwards fell from 48 to 17 of 60 and the probe contexts holding a retracted value from 86.7% to 48.3%
   * (the app's own flow: 10.0%), with the same 4 of 128 other facts lost (BENCHMARKS.md, "The forget tool's repeats",
   * after the merges)
   */
  repeats?: boolean
}

/**
 * The app's approval of what a forget tool call found: given the statements (never none), it resolves with those to
 * remove (any of them; an empty list or `false` removes nothing). A statement it returns that it was not given rejects
 * the call with `INVALID_INPUT`, and nothing is removed.
 */
export type ForgetConfirm = (
  statements: ForgetStatement[],
) => ForgetStatement[] | false | PromiseLike<ForgetStatement[] | false>

/** How `forgetStatements` runs the forget tool: where it looks, and the app's approval. */
export interface ForgetOptions extends ForgetSearchOptions {
  /** Asked before anything is removed, with the statements found (`ForgetConfirm`). */
  confirm: ForgetConfirm
}

/**
 * The statements a forget tool call (`FORGET_TOOL`) with `input` would remove now, oldest first, each followed by its
 * later repeats (unless `options.repeats` is false), none when nothing matches: for an approval to show.
 * `INVALID_INPUT` when `input.statement` is not a string with a word in it, and as `findForgettable` rejects its
 * options.
 */
export async function findStatementsToForget(
  memory: Pick<Memory, 'findForgettable'>,
  input: ForgetInput,
  options: ForgetSearchOptions = {},
): Promise<ForgetStatement[]> {
  const statement = readStatement(input)
  const { conversationId, limit, minScore, otherMatchesMinScore = OTHER_MATCHES_MIN_SCORE, repeats = true } = options
  if (typeof otherMatchesMinScore !== 'number' || !(otherMatchesMinScore >= 0 && otherMatchesMinScore <= 1))
    throw new SiftError(
      'INVALID_INPUT',
      `The forget tool's otherMatchesMinScore must be a number from 0 to 1, got ${String(otherMatchesMinScore)}.`,
    )
  if (typeof repeats !== 'boolean')
    throw new SiftError('INVALID_INPUT', `The forget tool's repeats must be true or false, got ${String(repeats)}.`)
  const matches = await memory.findForgettable(statement, { conversationId, limit, minScore })
  const found = statementsToForget(matches, otherMatchesMinScore)
  if (!repeats) return found
  const saidAt = new Map(matches.map((match) => [match.messageId, match.timestamp]))
  // A reply that repeats a statement shares its words and meaning, not the request's: each is searched for with the
  // statement's own text.
  const withItsRepeats: ForgetStatement[][] = []
  for (const statement of found) {
    // findForgettable's own cut-off: `minScore` says how closely a statement must match the request, not its repeats.
    const echoes = await memory.findForgettable(statement.text, { conversationId, limit: REPEAT_SEARCH.searchLimit })
    withItsRepeats.push([statement, ...repeatsOf(statement, saidAt.get(statement.messageId) ?? 0, echoes)])
  }
  return listedOnce(withItsRepeats.flat())
}

/**
 * The statements in order, a sentence found twice (a repeat of two statements, or of one found itself) listed once,
 * where it first came.
 */
function listedOnce(statements: readonly ForgetStatement[]): ForgetStatement[] {
  const listed = new Set<string>()
  return statements.filter((s) => !listed.has(keyOf(s)) && listed.add(keyOf(s)) !== undefined)
}

/**
 * Runs the forget tool (`FORGET_TOOL`) for `input`, the arguments the model called it with, for any SDK: finds the
 * statements (`findStatementsToForget`), asks `options.confirm`, and removes those it approves with
 * `memory.forget({ sentences })`. Resolves with what was removed, or that nothing matched; rejects as
 * `findStatementsToForget` and `forget` do, having removed nothing.
 */
export async function forgetStatements(
  memory: Pick<Memory, 'findForgettable' | 'forget'>,
  input: ForgetInput,
  options: ForgetOptions,
): Promise<ForgetResult> {
  if (typeof options?.confirm !== 'function')
    throw new SiftError(
      'INVALID_INPUT',
      'forgetStatements: options.confirm must be a function: nothing is forgotten without the app approving it.',
    )
  return forgetApproved(memory, input, options, options.confirm)
}

/** Finds `input`'s statements, has `confirm` (when given) approve them, and removes the approved ones. */
export async function forgetApproved(
  memory: Pick<Memory, 'findForgettable' | 'forget'>,
  input: ForgetInput,
  search: ForgetSearchOptions,
  confirm: ForgetConfirm | undefined,
): Promise<ForgetResult> {
  const found = await findStatementsToForget(memory, input, search)
  if (found.length === 0) return { outcome: 'nothing-matched', forgotten: [] }
  const approved = confirm ? offeredOnly(found, await confirm(found.map((s) => ({ ...s })))) : found
  if (approved.length > 0)
    await memory.forget({ sentences: approved.map(({ messageId, start, end }) => ({ messageId, start, end })) })
  return forgetResult(approved)
}

/** The statements `confirm` approved, as they were found; `INVALID_INPUT` for one it was not given. */
function offeredOnly(found: readonly ForgetStatement[], approved: ForgetStatement[] | false): ForgetStatement[] {
  if (approved === false) return []
  if (!Array.isArray(approved))
    throw new SiftError(
      'INVALID_INPUT',
      "The forget tool's confirm must resolve with an array of the statements it was given, or false.",
    )
  const approvedKeys = new Set(approved.map(keyOf))
  const offeredKeys = new Set(found.map(keyOf))
  for (const key of approvedKeys)
    if (!offeredKeys.has(key))
      throw new SiftError(
        'INVALID_INPUT',
        `The forget tool's confirm returned a statement it was not given (${key}); nothing was forgotten.`,
      )
  return found.filter((s) => approvedKeys.has(keyOf(s)))
}

/** A sentence's place, as a key: what tells two statements apart. */
const keyOf = (s: Partial<ForgetStatement> | null) => `${s?.start}:${s?.end}:${s?.messageId}`

/** The statement the model passed, trimmed; `INVALID_INPUT` when there is none. */
function readStatement(input: ForgetInput): string {
  const statement = (input as Partial<ForgetInput> | null | undefined)?.statement
  if (typeof statement !== 'string' || statement.trim() === '')
    throw new SiftError(
      'INVALID_INPUT',
      `The forget tool needs a statement: what the user wants forgotten, as a non-empty string (e.g. "my old address"), got ${statement === '' ? 'an empty string' : typeof statement === 'string' ? 'only spaces' : typeof statement}.`,
    )
  return statement.trim()
}

/**
 * Removes, from the messages stored under `exchange` (the ids of the exchange in which the user asked for a forget),
 * the sentences that restate a statement that forget removed: the user's "please forget that I …" and the reply that
 * tells what was forgotten say the fact again, and storing them would keep what was just forgotten. A sentence goes
 * when it quotes a removed statement (`quotesIn`) or is the best sentence of a message of the exchange that matches one
 * (`restatementsIn`). Resolves with the sentences removed; rejects as `messages`, `findForgettable` and `forget` do.
 */
export async function forgetRestatements(
  memory: Pick<Memory, 'findForgettable' | 'forget' | 'messages'>,
  forgotten: readonly ForgottenStatement[],
  exchange: readonly string[],
  conversationId?: string,
  minScore: number = REPEAT_SEARCH.exchangeMinScore,
): Promise<ForgetSentence[]> {
  const ids = new Set(exchange)
  const found = new Map<string, ForgetSentence>()
  const stored = (await memory.messages({ ids: [...ids] })).messages
  for (const statement of forgotten) {
    if (statement.text.trim() === '') continue
    const search = { conversationId, limit: REPEAT_SEARCH.searchLimit, minScore }
    const matches = await memory.findForgettable(statement.text, search)
    const quoted = stored.flatMap((message) => quotesIn(message.id, message.content, statement.text))
    for (const sentence of [...restatementsIn(matches, ids), ...quoted]) found.set(keyOf(sentence), sentence)
  }
  const sentences = [...found.values()]
  if (sentences.length > 0) await memory.forget({ sentences })
  return sentences
}
