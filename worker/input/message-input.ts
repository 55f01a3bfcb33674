import { SiftError } from '../../src/errors'
import type { MessageInput, StoredMessage } from '../../src/types'

/** A message that passed validation, defaults applied, ready to store (the store gives it its `seq`). */
export type ValidMessage = Omit<StoredMessage, 'seq'>

/** The conversation a message joins when it names none. */
export const DEFAULT_CONVERSATION = 'default'

/** Validates what the app passed to `add` and applies defaults; throws `INVALID_INPUT`/`DUPLICATE_ID` before anything is stored. */
export function toValidMessages(input: unknown, now: number, newId: () => string): ValidMessage[] {
  const list = Array.isArray(input) ? input : [input]
  const messages = list.map((item, i) => toValidMessage(item, Array.isArray(input) ? `message[${i}]` : 'message', now, newId))
  const seen = new Set<string>()
  for (const { id } of messages) {
    if (seen.has(id)) throw new SiftError('DUPLICATE_ID', `The id "${id}" appears twice in this batch; give each message a unique id. Nothing was stored.`)
    seen.add(id)
  }
  return messages
}

function toValidMessage(item: unknown, where: string, now: number, newId: () => string): ValidMessage {
  if (typeof item !== 'object' || item === null) invalid(`${where} must be an object like { role: 'user', content: 'Hi' }, got ${describe(item)}`)
  const { role, content, conversationId, id, timestamp } = item as MessageInput
  if (typeof role !== 'string' || role.trim() === '') invalid(`${where}.role must be a non-empty string such as 'user' or 'assistant', got ${describe(role)}`)
  if (typeof content !== 'string') invalid(`${where}.content must be a string, got ${describe(content)}`)
  if (conversationId !== undefined && (typeof conversationId !== 'string' || conversationId === '')) {
    invalid(`${where}.conversationId must be a non-empty string when given, got ${describe(conversationId)}`)
  }
  if (id !== undefined && (typeof id !== 'string' || id === '')) invalid(`${where}.id must be a non-empty string when given (or omit it), got ${describe(id)}`)
  return {
    id: id ?? newId(),
    role,
    content,
    conversationId: conversationId ?? DEFAULT_CONVERSATION,
    timestamp: timestamp === undefined ? now : (toEpochMs(timestamp) ?? invalid(`${where}.timestamp ${DATE_EXPECTED}, got ${describe(timestamp)}`)),
  }
}

/** How a date given to Sift may be written. */
export const DATE_EXPECTED = 'must be epoch milliseconds, an ISO date string or a valid Date'

/** Epoch milliseconds from a number, an ISO string or a Date; `undefined` when it is none of these. */
export function toEpochMs(value: unknown): number | undefined {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : value instanceof Date ? value.getTime() : NaN
  return Number.isFinite(ms) ? ms : undefined
}

function invalid(message: string): never {
  throw new SiftError('INVALID_INPUT', `${message}. Nothing was stored.`)
}

export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
  if (value instanceof Date) return 'an invalid Date'
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : String(value)
}
