import { onOneLine } from '../../src/core/render-context'
import { SiftError } from '../../src/errors'
import { describe } from './message-input'
import { readInput } from './readable-input'

/** A validated `setSummary` call. */
export interface SummaryRequest {
  conversationId: string
  text: string
  /** The id of the last message the summary covers (checked against the store in the write). */
  through: string
  /** The forget revision the app read the summarised turns at (`SetSummaryOptions.asOf`), when it gave one. */
  asOf?: number
}

/**
 * Validates a `setSummary` call, reading its options once (a getter or Proxy that throws is `INVALID_INPUT`,
 * `readInput`); throws `INVALID_INPUT` naming what is wrong.
 */
export function toSummaryRequest(
  conversationId: unknown,
  text: unknown,
  options: unknown,
  maxChars: number,
): SummaryRequest {
  return readInput('setSummary', () => summaryRequest(conversationId, text, options, maxChars))
}

/** A summary method's `conversationId`, checked. */
export function toConversationId(method: string, conversationId: unknown): string {
  if (typeof conversationId !== 'string')
    throw new SiftError('INVALID_INPUT', `${method}: conversationId must be a string, got ${describe(conversationId)}.`)
  return conversationId
}

function summaryRequest(conversationId: unknown, text: unknown, options: unknown, maxChars: number): SummaryRequest {
  const id = toConversationId('setSummary', conversationId)
  if (typeof text !== 'string') invalid(`text must be a non-empty string, got ${describe(text)}`)
  if (text.length > maxChars)
    invalid(`the text has ${text.length} characters, over maxMessageChars (${maxChars}); shorten it`)
  // What a context would show of it (`onOneLine`): a text of spaces and line breaks only would be an empty section.
  if (onOneLine(text) === '') invalid(`text must be a non-empty string, got ${describe(text)}`)
  const { through, asOf } = (typeof options === 'object' && options !== null ? options : {}) as Record<string, unknown>
  if (typeof through !== 'string' || through === '')
    invalid(`options.through must be the id of the last message the summary covers, got ${describe(through)}`)
  if (asOf !== undefined && !(Number.isSafeInteger(asOf) && (asOf as number) >= 0))
    invalid(
      `options.asOf must be a revision a page of messages() gave (an integer ≥ 0) when given, got ${describe(asOf)}`,
    )
  return { conversationId: id, text, through, ...(asOf !== undefined && { asOf: asOf as number }) }
}

function invalid(message: string): never {
  throw new SiftError('INVALID_INPUT', `setSummary: ${message}.`)
}
