import { SiftError } from '../../src/errors'
import type { ForgetSelector, ForgetSentence } from '../../src/types'
import { DATE_EXPECTED, describe, toEpochMs } from './message-input'
import { readInput } from './readable-input'

const KEYS = ['id', 'ids', 'conversationId', 'before', 'after', 'sentences']

/**
 * Validates a `forget` selector: exactly one of `id`, `ids`, `conversationId`, `before`, `after`, `sentences`; dates
 * become epoch milliseconds, and `ids` and `sentences` lose their repeats. Whether each sentence's offsets are a stored
 * sentence's is checked by the store, against the message as it reads it.
 */
export function toForgetSelector(selector: unknown): ForgetSelector {
  return readInput('forget', () => forgetSelector(selector))
}

function forgetSelector(selector: unknown): ForgetSelector {
  const given =
    typeof selector === 'object' && selector !== null
      ? Object.keys(selector).filter((k) => (selector as Record<string, unknown>)[k] !== undefined)
      : []
  if (given.length !== 1 || !KEYS.includes(given[0])) {
    invalid(
      `pass exactly one of { id }, { ids }, { conversationId }, { before }, { after } or { sentences }, got ${given.length ? `{ ${given.join(', ')} }` : describe(selector)}`,
    )
  }
  const [key] = given
  const value = (selector as Record<string, unknown>)[key]
  if (key === 'before')
    return { before: toEpochMs(value) ?? invalid(`before ${DATE_EXPECTED}, got ${describe(value)}`) }
  if (key === 'after') return { after: toEpochMs(value) ?? invalid(`after ${DATE_EXPECTED}, got ${describe(value)}`) }
  if (key === 'ids') return { ids: toIds(value) }
  if (key === 'sentences') return { sentences: toSentences(value) }
  if (typeof value !== 'string' || value === '') invalid(`${key} must be a non-empty string, got ${describe(value)}`)
  return key === 'id' ? { id: value } : { conversationId: value }
}

/** An empty list is valid (a confirmation dialog where the user unticked everything): it removes nothing. */
function toIds(value: unknown): string[] {
  if (!Array.isArray(value)) invalid(`ids must be an array of message ids, got ${describe(value)}`)
  // By index, not `forEach`: a sparse array's hole must be refused too.
  for (let i = 0; i < value.length; i++) {
    const id: unknown = value[i]
    if (typeof id !== 'string' || id === '') invalid(`ids[${i}] must be a non-empty string, got ${describe(id)}`)
  }
  return [...new Set(value as string[])]
}

/** `{ messageId, start, end }` each, offsets whole numbers with `start < end`; an empty list removes nothing. */
function toSentences(value: unknown): ForgetSentence[] {
  if (!Array.isArray(value))
    invalid(
      `sentences must be an array of { messageId, start, end } (as findForgettable gives them), got ${describe(value)}`,
    )
  const seen = new Map<string, ForgetSentence>()
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i]
    if (typeof item !== 'object' || item === null)
      invalid(`sentences[${i}] must be { messageId, start, end }, got ${describe(item)}`)
    const { messageId, start, end } = item as Record<string, unknown>
    if (typeof messageId !== 'string' || messageId === '')
      invalid(`sentences[${i}].messageId must be a non-empty string, got ${describe(messageId)}`)
    if (
      !Number.isSafeInteger(start) ||
      !Number.isSafeInteger(end) ||
      (start as number) < 0 ||
      (end as number) <= (start as number)
    )
      invalid(
        `sentences[${i}] must have whole-number offsets with 0 ≤ start < end, got start ${describe(start)}, end ${describe(end)}`,
      )
    const sentence = { messageId, start: start as number, end: end as number }
    seen.set(`${messageId}\u0000${start}\u0000${end}`, sentence)
  }
  return [...seen.values()]
}

function invalid(message: string): never {
  throw new SiftError('INVALID_INPUT', `forget: ${message}. Nothing was removed.`)
}
