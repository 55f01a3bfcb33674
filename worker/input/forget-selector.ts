import { SiftError } from '../../src/errors'
import type { ForgetSelector } from '../../src/types'
import { DATE_EXPECTED, describe, toEpochMs } from './message-input'
import { readInput } from './readable-input'

const KEYS = ['id', 'ids', 'conversationId', 'before', 'after']

/**
 * Validates a `forget` selector: exactly one of `id`, `ids`, `conversationId`, `before`, `after`; dates become epoch
 * milliseconds, and `ids` loses its repeats.
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
      `pass exactly one of { id }, { ids }, { conversationId }, { before } or { after }, got ${given.length ? `{ ${given.join(', ')} }` : describe(selector)}`,
    )
  }
  const [key] = given
  const value = (selector as Record<string, unknown>)[key]
  if (key === 'before')
    return { before: toEpochMs(value) ?? invalid(`before ${DATE_EXPECTED}, got ${describe(value)}`) }
  if (key === 'after') return { after: toEpochMs(value) ?? invalid(`after ${DATE_EXPECTED}, got ${describe(value)}`) }
  if (key === 'ids') return { ids: toIds(value) }
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

function invalid(message: string): never {
  throw new SiftError('INVALID_INPUT', `forget: ${message}. Nothing was removed.`)
}
