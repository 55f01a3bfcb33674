import { SiftError } from '../../src/errors'
import type { ForgetSelector } from '../../src/types'
import { DATE_EXPECTED, describe, toEpochMs } from './message-input'

/** Validates a `forget` selector: exactly one of `id`, `conversationId`, `before`; dates become epoch milliseconds. */
export function toForgetSelector(selector: unknown): ForgetSelector {
  const given = typeof selector === 'object' && selector !== null ? Object.keys(selector).filter((k) => (selector as Record<string, unknown>)[k] !== undefined) : []
  if (given.length !== 1 || !['id', 'conversationId', 'before'].includes(given[0])) {
    invalid(`pass exactly one of { id }, { conversationId } or { before }, got ${given.length ? `{ ${given.join(', ')} }` : describe(selector)}`)
  }
  const [key] = given
  const value = (selector as Record<string, unknown>)[key]
  if (key === 'before') return { before: toEpochMs(value) ?? invalid(`before ${DATE_EXPECTED}, got ${describe(value)}`) }
  if (typeof value !== 'string' || value === '') invalid(`${key} must be a non-empty string, got ${describe(value)}`)
  return key === 'id' ? { id: value } : { conversationId: value }
}

function invalid(message: string): never {
  throw new SiftError('INVALID_INPUT', `forget: ${message}. Nothing was removed.`)
}
