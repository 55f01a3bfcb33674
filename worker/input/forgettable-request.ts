import { SiftError } from '../../src/errors'
import type { ForgetRequest } from '../../src/types'
import { readForgetRequest } from './forget-request-topic'
import { DEFAULT_MAX_REQUEST_CHARS } from './input-limits'
import { describe } from './message-input'
import { readInput } from './readable-input'

/** A validated `findForgettable` call with its defaults applied. */
export interface ForgettableRequest {
  /** What the request is about (`readForgetRequest`): what is ranked. */
  topic: string
  conversationId: string | undefined
  limit: number
  minScore: number
}

export const DEFAULT_FORGETTABLE_LIMIT = 10
/**
 * Below this `ForgettableMatch.score` a message is not offered: it shares under a third of the topic's weighted words
 * and its best sentence is no closer in meaning than unrelated sentences of a chat come (BENCHMARKS.md, "Forgetting").
 */
export const DEFAULT_FORGETTABLE_MIN_SCORE = 0.4
/** A list for a person to read and confirm; more than this is a search, not a confirmation. */
export const MAX_FORGETTABLE_LIMIT = 100

/** Validates a `findForgettable` call and applies defaults; throws `INVALID_INPUT` naming what is wrong. */
export function toForgettableRequest(
  text: unknown,
  options: unknown = {},
  maxRequestChars = DEFAULT_MAX_REQUEST_CHARS,
): ForgettableRequest {
  return readInput('findForgettable', () => forgettableRequest(text, options, maxRequestChars))
}

/**
 * Validates a `findForgetRequest` call and reads the request in it (`readForgetRequest`): undefined when no sentence
 * asks to forget or retract. Throws `INVALID_INPUT` naming what is wrong.
 */
export function toForgetRequest(text: unknown, maxRequestChars = DEFAULT_MAX_REQUEST_CHARS): ForgetRequest | undefined {
  return readInput('findForgetRequest', () => requestIn(requestText(text, maxRequestChars)))
}

function requestIn(text: string): ForgetRequest | undefined {
  const reading = readForgetRequest(text)
  return reading.sentences.length > 0 ? { sentences: reading.sentences, topic: reading.topic } : undefined
}

function requestText(text: unknown, maxRequestChars: number): string {
  if (typeof text !== 'string')
    invalid(`text must be a string (the user's request, e.g. "forget that I smoke"), got ${describe(text)}`)
  if (text.length > maxRequestChars)
    invalid(
      `text has ${text.length} characters, more than the limit of ${maxRequestChars} (MemoryOptions.maxRequestChars)`,
    )
  return text
}

function forgettableRequest(text: unknown, options: unknown, maxRequestChars: number): ForgettableRequest {
  const checked = requestText(text, maxRequestChars)
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    invalid(`options must be an object like { limit: 10 }, got ${describe(options)}`)
  const {
    conversationId,
    limit = DEFAULT_FORGETTABLE_LIMIT,
    minScore = DEFAULT_FORGETTABLE_MIN_SCORE,
  } = options as Record<string, unknown>
  if (conversationId !== undefined && typeof conversationId !== 'string')
    invalid(`conversationId must be a string when given, got ${describe(conversationId)}`)
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_FORGETTABLE_LIMIT)
    invalid(`limit must be an integer from 1 to ${MAX_FORGETTABLE_LIMIT}, got ${describe(limit)}`)
  if (typeof minScore !== 'number' || !(minScore >= 0 && minScore <= 1))
    invalid(`minScore must be a number from 0 to 1, got ${describe(minScore)}`)
  return { topic: readForgetRequest(checked).topic, conversationId, limit, minScore }
}

function invalid(message: string): never {
  throw new SiftError('INVALID_INPUT', `findForgettable: ${message}.`)
}
