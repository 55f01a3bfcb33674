import { SiftError } from '../../src/errors'
import type { MessageInput, StoredMessage } from '../../src/types'
import { readInput } from './readable-input'

/** A message that passed validation, defaults applied, ready to store (the store gives it its `seq`). */
export type ValidMessage = Omit<StoredMessage, 'seq'>

/** The conversation a message joins when it names none. */
export const DEFAULT_CONVERSATION = 'default'

/**
 * Validates what the app passed to `add` and applies defaults; throws `INVALID_INPUT`/`DUPLICATE_ID` before anything is
 * stored. `content` is taken as it is, control characters and lone surrogates included: it is what the user said, and
 * the memory gives it back unchanged. `role`, `id` and `conversationId` are labels and keys, so they are refused with
 * those: a line break in a role would forge a line of the rendered context.
 */
export function toValidMessages(
  input: unknown,
  now: number,
  newId: () => string,
  maxMessageChars: number,
): ValidMessage[] {
  return readInput('add', () => validMessages(input, now, newId, maxMessageChars))
}

function validMessages(input: unknown, now: number, newId: () => string, maxMessageChars: number): ValidMessage[] {
  const list = Array.isArray(input) ? input : [input]
  // Array.from visits a hole (a sparse array's missing element) as undefined, which is then refused like one.
  const messages = Array.from(list, (item: unknown, i) =>
    toValidMessage(item, Array.isArray(input) ? `message[${i}]` : 'message', now, newId, maxMessageChars),
  )
  const seen = new Set<string>()
  for (const { id } of messages) {
    if (seen.has(id))
      throw new SiftError(
        'DUPLICATE_ID',
        `The id "${id}" appears twice in this batch; give each message a unique id. Nothing was stored.`,
      )
    seen.add(id)
  }
  return messages
}

/** One message of `add`'s input, validated with defaults applied; `where` names it in the error (`message[3]`). */
export function toValidMessage(
  item: unknown,
  where: string,
  now: number,
  newId: () => string,
  maxMessageChars: number,
): ValidMessage {
  if (typeof item !== 'object' || item === null || Array.isArray(item))
    invalid(`${where} must be an object like { role: 'user', content: 'Hi' }, got ${describe(item)}`)
  const { role, content, conversationId, id, timestamp } = item as MessageInput
  if (typeof role !== 'string' || role.trim() === '')
    invalid(`${where}.role must be a non-empty string such as 'user' or 'assistant', got ${describe(role)}`)
  if (typeof content !== 'string') invalid(`${where}.content must be a string, got ${describe(content)}`)
  if (content.length > maxMessageChars) {
    invalid(
      `${where}.content has ${content.length} characters, more than the limit of ${maxMessageChars} (MemoryOptions.maxMessageChars); split it into several messages or raise the limit`,
    )
  }
  if (conversationId !== undefined && (typeof conversationId !== 'string' || conversationId === '')) {
    invalid(`${where}.conversationId must be a non-empty string when given, got ${describe(conversationId)}`)
  }
  if (id !== undefined && (typeof id !== 'string' || id === ''))
    invalid(`${where}.id must be a non-empty string when given (or omit it), got ${describe(id)}`)
  for (const [field, label] of [
    ['role', role],
    ['conversationId', conversationId],
    ['id', id],
  ] as const) {
    if (label !== undefined && !isPlainLabel(label))
      invalid(`${where}.${field} must not contain control characters or lone surrogates, got ${describe(label)}`)
  }
  return {
    id: id ?? newId(),
    role,
    content,
    conversationId: conversationId ?? DEFAULT_CONVERSATION,
    timestamp:
      timestamp === undefined
        ? now
        : (toEpochMs(timestamp) ?? invalid(`${where}.timestamp ${DATE_EXPECTED}, got ${describe(timestamp)}`)),
  }
}

/** Whether a label or key has no control character (C0, DEL, C1) and no unpaired surrogate. */
function isPlainLabel(label: string): boolean {
  return !CONTROL_CHARACTER.test(label) && !LONE_SURROGATE.test(label)
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what it is for.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** How a date given to Sift may be written. */
export const DATE_EXPECTED = 'must be epoch milliseconds, an ISO date string or a valid Date (within ±8.64e15 ms)'

/** Epoch milliseconds from a number, an ISO string or a Date; `undefined` when it is none of these or outside what a Date can hold. */
export function toEpochMs(value: unknown): number | undefined {
  const ms =
    typeof value === 'number'
      ? value
      : typeof value === 'string'
        ? Date.parse(value)
        : value instanceof Date
          ? value.getTime()
          : NaN
  // A timestamp a Date cannot hold could be stored but not compared by IndexedDB's key ranges (`forget({ before })`).
  return Math.abs(ms) <= MAX_DATE_MS ? ms : undefined
}

const MAX_DATE_MS = 8.64e15

function invalid(message: string): never {
  throw new SiftError('INVALID_INPUT', `${message}. Nothing was stored.`)
}

export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
  if (value instanceof Date) return 'an invalid Date'
  return value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'object'
        ? 'an object'
        : String(value)
}
