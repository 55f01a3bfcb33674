import { SiftError } from '../../src/errors'
import type { MessageInput, StoredMessage } from '../../src/types'
import { readInput } from './readable-input'

/** A message that passed validation, defaults applied, ready to store (the store gives it its `seq`). */
export type ValidMessage = Omit<StoredMessage, 'seq'>

/** The conversation a message joins when it names none. */
export const DEFAULT_CONVERSATION = 'default'

/**
 * Validates what the app passed to `add` and applies defaults; throws `INVALID_INPUT`/`DUPLICATE_ID` before anything is
 * stored. `content` is taken as it is, control characters and lone surrogates included (it is what the user said, and
 * the memory gives it back), except the line breaks a sentence would keep (`toStoredContent`). `role`, `id` and
 * `conversationId` are labels and keys, so they are refused with control characters, line and paragraph separators,
 * bidirectional controls or lone surrogates: a line break in a role would forge a line of the rendered context, and a
 * direction override would make it read as another.
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
      invalid(
        `${where}.${field} must not contain control characters, line or paragraph separators, bidirectional controls or lone surrogates, got ${describe(label)}`,
      )
  }
  return {
    id: id ?? newId(),
    role,
    content: toStoredContent(content),
    conversationId: conversationId ?? DEFAULT_CONVERSATION,
    timestamp:
      timestamp === undefined
        ? now
        : (toEpochMs(timestamp) ?? invalid(`${where}.timestamp ${DATE_EXPECTED}, got ${describe(timestamp)}`)),
  }
}

/** Whether a label or key has no control character (C0, DEL, C1), separator, direction control or unpaired surrogate. */
function isPlainLabel(label: string): boolean {
  return !CONTROL_CHARACTER.test(label) && !LAYOUT_CHARACTER.test(label) && !LONE_SURROGATE.test(label)
}

/**
 * `content` as stored: the characters that some readers take for a line break but that neither ends a sentence nor
 * is trimmed from one (VT, FF, NEL and the separators FS, GS, RS) become '\n', which ends a sentence, so none of them
 * ever reaches the rendered context, where it would start what reads as a line of its own (`role: …`: the rule stated
 * at `LINE_BREAK` in src/core/render-context.ts). One character for one: offsets and lengths are those of the content
 * given. Every other line break (LF, CR, LS, PS) already ends a sentence and is trimmed from it.
 */
export function toStoredContent(content: string): string {
  return content.replace(SENTENCE_KEPT_LINE_BREAK, '\n')
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what it is for.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/
/** The line and paragraph separators and the bidirectional controls (marks, embeddings, overrides, isolates). */
const LAYOUT_CHARACTER = /[\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: line-breaking control characters are what it is for.
const SENTENCE_KEPT_LINE_BREAK = /[\u000b\u000c\u001c-\u001e\u0085]/g
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** How a date given to Sift may be written. */
export const DATE_EXPECTED =
  'must be epoch milliseconds, an ISO 8601 date string such as 2020-03-07 or 2020-03-07T10:00:00Z, or a valid Date (within ±8.64e15 ms)'

/**
 * Epoch milliseconds from a number, an ISO 8601 string (the forms ECMAScript's Date Time String Format defines: a
 * date, a date and time, a UTC offset or Z) or a Date; `undefined` when it is none of these, names a day its month
 * does not have, or lies outside what a Date can hold. `Date.parse` alone would take far more ("March 7, 2020", "0"
 * as the year 2000) and read it differently from one engine to the next.
 */
export function toEpochMs(value: unknown): number | undefined {
  const ms =
    typeof value === 'number'
      ? value
      : typeof value === 'string'
        ? isoDateMs(value)
        : value instanceof Date
          ? value.getTime()
          : NaN
  // A timestamp a Date cannot hold could be stored but not compared by IndexedDB's key ranges (`forget({ before })`).
  return Math.abs(ms) <= MAX_DATE_MS ? ms : undefined
}

const ISO_DATE =
  /^([+-]\d{6}|\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})?)?$/

function isoDateMs(text: string): number {
  const match = ISO_DATE.exec(text)
  if (!match) return NaN
  const [, year, month = '01', day = '01'] = match
  // Day 0 of the next month is this month's last; setUTCFullYear, unlike Date.UTC, reads the years 0–99 as given.
  const monthEnd = new Date(0)
  monthEnd.setUTCFullYear(Number(year), Number(month), 0)
  const daysInMonth = monthEnd.getUTCDate()
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > daysInMonth) return NaN
  return Date.parse(text)
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
