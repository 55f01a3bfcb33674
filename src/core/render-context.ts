import type { ScoredSentence } from './scored-sentence'

/** How `renderContext` writes the lines. */
export interface RenderOptions {
  /**
   * Show a message's date (UTC, e.g. "8 May 2023") on its line when it differs from the previous line's.
   *
   * @defaultValue `true`: lets the model tell old facts from new ones, at ~15 characters per date change
   */
  dates?: boolean
}

/** Joins two sentences of one message that were adjacent in it. */
export const SENTENCE_JOIN = ' '
/** Joins two sentences of one message with something left out between them. */
const SENTENCE_GAP = ' […] '
/**
 * Follows a sentence a later statement by the same speaker superseded (`ScoredSentence.supersededBy`): short, and
 * a hint rather than a verdict, since the same-subject test that set it can be wrong; the reader weighs it beside
 * the dates and the newer line itself.
 */
export const SUPERSEDED_MARK = ' [may be updated below]'
/**
 * Where a reader may begin a new line: Unicode's mandatory breaks (LF, CR, VT, FF, NEL, LS, PS) and the information
 * separators FS, GS and RS, which Python's str.splitlines also splits at. The rule every part of a context keeps: its
 * lines are Sift's own (a message's label, a section's header, the gap marks), and no text the app or its users gave
 * can start one. A message's sentences never hold a line break (those that would not end a sentence are stored as
 * '\n', which does: worker/input/message-input.ts); any other text is put on one line by `onOneLine`.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: line-breaking control characters are what it is for.
const LINE_BREAK = /[\n\r\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]/

/**
 * `text` as a context may hold it (`LINE_BREAK`): its lines trimmed and joined as two sentences are, blank ones left
 * out. Split rather than matched by one pattern, which would backtrack over every long run of spaces.
 */
export function onOneLine(text: string): string {
  return text
    .split(LINE_BREAK)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(SENTENCE_JOIN)
}

/** Joins two message lines that were consecutive turns of one conversation. */
const LINE_JOIN = '\n'
/** Joins two message lines with turns left out between them (or from different conversations). */
const LINE_GAP = '\n[…]\n'

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

/** "8 May 2023": UTC, English month names, independent of the machine's locale and time zone. '' when the timestamp is not a valid date. */
export function formatUtcDate(timestamp: number): string {
  // Memoised per UTC day: a request formats the date of every candidate it packs, and most share a few days.
  // Beyond ±8.64e15 milliseconds a Date is invalid, so the last valid day's bucket would also hold invalid timestamps.
  if (!(Math.abs(timestamp) < MAX_DATE_MS)) return formatDate(timestamp)
  const day = Math.floor(timestamp / DAY_MS)
  let formatted = datesByDay.get(day)
  if (formatted === undefined) {
    formatted = formatDate(timestamp)
    if (datesByDay.size >= MEMOISED_DAYS) datesByDay.clear()
    datesByDay.set(day, formatted)
  }
  return formatted
}

function formatDate(timestamp: number): string {
  const date = new Date(timestamp)
  return Number.isNaN(date.getTime())
    ? ''
    : `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`
}

const DAY_MS = 86_400_000
const MAX_DATE_MS = 8.64e15
const MEMOISED_DAYS = 4096
const datesByDay = new Map<number, string>()

/**
 * Chronological order: by the message's timestamp, ties by its `seq` (the order it was added), then by position in the
 * message; `sid` keeps it total. A message's sentences share its timestamp and `seq`, so they stay together.
 */
export function compareChronological(a: ScoredSentence, b: ScoredSentence): number {
  return compareTimeOrder(a, b) || a.index - b.index || a.sid - b.sid
}

/** Messages in time order: by timestamp, ties by `seq` (the order of `add`). */
export function compareTimeOrder(a: { timestamp: number; seq: number }, b: { timestamp: number; seq: number }): number {
  return compareTimestamps(a.timestamp, b.timestamp) || a.seq - b.seq
}

/** Earlier first; an invalid (NaN) timestamp sorts before every valid one, so that orders built on this stay total. */
function compareTimestamps(a: number, b: number): number {
  if (a < b) return -1
  if (a > b) return 1
  return Number.isNaN(a) ? (Number.isNaN(b) ? 0 : -1) : Number.isNaN(b) ? 1 : 0
}

/** A sentence as rendered: its text, then `SUPERSEDED_MARK` when a later statement superseded it. */
export function renderedSentence(item: ScoredSentence): string {
  return item.supersededBy === undefined ? item.text : item.text + SUPERSEDED_MARK
}

/** What goes between two sentences of the same message line. */
export function sentenceSeparator(previous: ScoredSentence, next: ScoredSentence): string {
  return next.index === previous.index + 1 ? SENTENCE_JOIN : SENTENCE_GAP
}

/** What goes between two message lines. */
export function lineSeparator(previous: ScoredSentence, next: ScoredSentence): string {
  return next.conversationId === previous.conversationId && next.turn === previous.turn + 1 ? LINE_JOIN : LINE_GAP
}

/**
 * The label that starts a message line. `date` is the line's formatted date ('' for none); it is shown only when
 * it differs from `previousDate`, the previous line's date (undefined on the first line).
 */
export function lineLabel(role: string, date: string, previousDate: string | undefined): string {
  return date !== '' && date !== previousDate ? `${role} (${date}): ` : `${role}: `
}

/** The date a line carries under these options: '' when dates are off. */
export function lineDate(item: ScoredSentence, options: RenderOptions): string {
  return options.dates === false ? '' : formatUtcDate(item.timestamp)
}

/**
 * Items in any order → text in chronological order (`compareChronological`: by timestamp, then `seq`, then `index`;
 * conversations interleave by time).
 * One line per message: `${role}: ${body}`, or `${role} (8 May 2023): ${body}` when the date changed. Within a
 * message, adjacent sentences are joined by ' ', others by ' […] '; a superseded sentence is followed by
 * `SUPERSEDED_MARK`. Between two lines: '\n' when the second is the next turn of the same conversation, else
 * '\n[…]\n'. No items → ''.
 */
export function renderContext(items: readonly ScoredSentence[], options: RenderOptions = {}): string {
  const sorted = [...items].sort(compareChronological)
  let text = ''
  let previous: ScoredSentence | undefined
  let previousDate: string | undefined
  for (const item of sorted) {
    if (previous && previous.seq === item.seq) {
      text += sentenceSeparator(previous, item) + renderedSentence(item)
    } else {
      const date = lineDate(item, options)
      if (previous) text += lineSeparator(previous, item)
      text += lineLabel(item.role, date, previousDate) + renderedSentence(item)
      previousDate = date
    }
    previous = item
  }
  return text
}
