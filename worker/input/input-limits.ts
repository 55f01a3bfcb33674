import { SiftError } from '../../src/errors'
import { describe } from './message-input'

/** The size limits `add` and `buildContext` enforce, from `MemoryOptions` with defaults applied. */
export interface InputLimits {
  /** Characters of one message's `content`. */
  maxMessageChars: number
  /** Characters of one `buildContext` request and its extra `queries` together. */
  maxRequestChars: number
}

/**
 * A message's sentences are split, stored in one transaction and indexed in one synchronous pass on the engine's
 * thread, and embedded as one backlog: the cost grows faster than its length, and every other call waits behind it.
 * 100,000 characters (a long pasted document, about 400 sentence chunks) keeps that short; longer texts belong in
 * several messages.
 */
export const DEFAULT_MAX_MESSAGE_CHARS = 100_000

/**
 * A request is embedded and searched word by word while the engine answers nothing else; 100,000 characters admits a
 * pasted document as the user's next message, and refuses what no chat request needs.
 */
export const DEFAULT_MAX_REQUEST_CHARS = 100_000

/** Validates the size limits among `options` (`INVALID_INPUT` naming the option) and applies their defaults. */
export function toInputLimits(options: { maxMessageChars?: unknown; maxRequestChars?: unknown }): InputLimits {
  return {
    maxMessageChars: limitOption('maxMessageChars', options.maxMessageChars, DEFAULT_MAX_MESSAGE_CHARS),
    maxRequestChars: limitOption('maxRequestChars', options.maxRequestChars, DEFAULT_MAX_REQUEST_CHARS),
  }
}

function limitOption(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback
  if (typeof value === 'number' && ((Number.isInteger(value) && value > 0) || value === Infinity)) return value
  throw new SiftError(
    'INVALID_INPUT',
    `${name} must be a positive integer number of characters (or Infinity for no limit), got ${describe(value)}.`,
  )
}
