import { SiftError } from '../errors'

/** A sentence (or a chunk of a long one) and where it sits in its message: `content.slice(start, end) === text`. */
export interface SentenceSpan {
  /** The sentence or chunk, trimmed. */
  text: string
  /** Where it starts in the content. */
  start: number
  /** Where it ends in the content (exclusive). */
  end: number
}

/** How `splitSentences` cuts a text. */
export interface SplitOptions {
  /**
   * Longest chunk, in UTF-16 code units (what `String.length` counts). Longer sentences are cut at word
   * boundaries. Smaller chunks make retrieval more precise and packing tighter, but each chunk costs an
   * embedding and loses context of its neighbours.
   *
   * Range: an integer ≥ 2 (so a surrogate pair is never cut); anything else is refused with `INVALID_INPUT`.
   *
   * @defaultValue `250`, the length the memory stores sentences at
   */
  maxChars?: number
  /**
   * BCP 47 locale for `Intl.Segmenter`: a fixed value rather than the machine's locale so the same content always
   * splits the same way; ICU's rules handle other scripts (CJK, Thai, Arabic…) either way.
   *
   * @defaultValue `'en'`
   */
  locale?: string
}

const WHITESPACE = /\s/
const NON_WHITESPACE_RUN = /\S+/g

const segmenters = new Map<string, Intl.Segmenter>()

/** Intl.Segmenter construction loads ICU data; reuse one per (locale, granularity). */
function segmenter(locale: string, granularity: 'sentence' | 'word'): Intl.Segmenter {
  const key = `${granularity}:${locale}`
  let found = segmenters.get(key)
  if (!found) {
    found = new Intl.Segmenter(locale, { granularity })
    segmenters.set(key, found)
  }
  return found
}

/**
 * Splits a message into sentences with `Intl.Segmenter('sentence')`, for any language; abbreviations and
 * decimals are as ICU handles them, and a '?' or '!' glued to what follows (a URL's query) ends no sentence.
 * Each piece is trimmed, empty pieces are dropped, and a sentence longer than `maxChars` is cut into chunks of
 * at most `maxChars`: between whitespace-separated words first, at `Intl.Segmenter('word')` boundaries inside a
 * run without spaces (Chinese, Japanese, long URLs), and hard-cut at a code point only when one word is longer.
 */
export function splitSentences(content: string, options: SplitOptions = {}): SentenceSpan[] {
  const maxChars = options.maxChars ?? 250
  if (!Number.isInteger(maxChars) || maxChars < 2) {
    throw new SiftError('INVALID_INPUT', `splitSentences: maxChars must be an integer ≥ 2, got ${maxChars}.`)
  }
  const locale = options.locale ?? 'en'
  const spans: SentenceSpan[] = []
  for (let [start, end] of sentenceRanges(content, locale)) {
    while (start < end && WHITESPACE.test(content[start])) start++
    while (end > start && WHITESPACE.test(content[end - 1])) end--
    if (start === end) continue
    if (end - start <= maxChars) {
      spans.push({ text: content.slice(start, end), start, end })
      continue
    }
    for (const [chunkStart, chunkEnd] of packAtoms(wordAtoms(content, start, end, maxChars, locale), maxChars)) {
      spans.push({ text: content.slice(chunkStart, chunkEnd), start: chunkStart, end: chunkEnd })
    }
  }
  return spans
}

type Range = [start: number, end: number]

/** Boundaries after an ASCII '?' or '!' glued to what follows ("?q=1", "!x") are inside a URL, not sentence ends. */
const GLUED_TERMINATOR = /[?!]/
const URL_CONTINUATION = /^[A-Za-z0-9=&%#/_~+-]/

/**
 * A sentence that ends in '?' or '!' (any script's) and a closing quote that is not ASCII, followed by a lowercase
 * word: the quote's attribution ("„Kommst du mit?“ fragte sie."), one sentence. An ASCII quote is left as ICU
 * splits it: it cannot tell an opening quote from a closing one.
 */
const QUOTED_QUESTION_END = /[?!？！‼⁉][\p{Pe}\p{Pf}“»」』]+\s*$/u
const LOWERCASE_START = /^\p{Ll}/u
/** Opening brackets and quotes ICU leaves at the end of the sentence before the one they open ("はい！「"). */
const TRAILING_OPENERS = /[\p{Ps}]+\s*$/u
/** Whitespace between two Thai letters: Thai writes no sentence punctuation, a space ends a sentence or a clause. */
const THAI_SPACE = /(?<=\p{Script=Thai})\s+(?=\p{Script=Thai})/gu

/**
 * Sentence ranges of the whole content (untrimmed, contiguous): ICU's, with URL-internal boundaries and quote
 * attributions joined back, opening brackets moved to the sentence they open, and Thai split at its spaces.
 */
function sentenceRanges(content: string, locale: string): Range[] {
  const ranges: Range[] = []
  for (const piece of segmenter(locale, 'sentence').segment(content)) {
    const last = ranges[ranges.length - 1]
    const start = piece.index
    const end = start + piece.segment.length
    if (last && joinsPrevious(content.slice(last[0], last[1]), piece.segment)) {
      last[1] = end
      continue
    }
    const openers = last ? TRAILING_OPENERS.exec(content.slice(last[0], last[1])) : null
    if (last && openers && openers.index > 0) {
      const moved = last[0] + openers.index
      last[1] = moved
      ranges.push([moved, end])
    } else ranges.push([start, end])
  }
  return ranges.flatMap((range) => splitThai(content, range))
}

function joinsPrevious(previous: string, next: string): boolean {
  if (GLUED_TERMINATOR.test(previous[previous.length - 1]) && URL_CONTINUATION.test(next)) return true
  return QUOTED_QUESTION_END.test(previous) && LOWERCASE_START.test(next)
}

/** A range cut after each whitespace run between Thai letters (the pieces stay contiguous). */
function splitThai(content: string, [start, end]: Range): Range[] {
  const spaces = [...content.slice(start, end).matchAll(THAI_SPACE)]
  if (spaces.length === 0) return [[start, end]]
  const pieces: Range[] = []
  let from = start
  for (const space of spaces) {
    const cut = start + space.index + space[0].length
    pieces.push([from, cut])
    from = cut
  }
  pieces.push([from, end])
  return pieces
}

/** Non-whitespace ranges of content[start, end), each at most maxChars long, in order. */
function wordAtoms(content: string, start: number, end: number, maxChars: number, locale: string): Range[] {
  const atoms: Range[] = []
  const text = content.slice(start, end)
  for (const run of text.matchAll(NON_WHITESPACE_RUN)) {
    const runStart = start + run.index
    if (run[0].length <= maxChars) {
      atoms.push([runStart, runStart + run[0].length])
      continue
    }
    for (const word of segmenter(locale, 'word').segment(run[0])) {
      const wordStart = runStart + word.index
      const wordEnd = wordStart + word.segment.length
      if (wordEnd - wordStart <= maxChars) atoms.push([wordStart, wordEnd])
      else atoms.push(...hardCut(content, wordStart, wordEnd, maxChars))
    }
  }
  return atoms
}

/** Cuts content[start, end) into pieces of at most maxChars, never between the halves of a surrogate pair. */
function hardCut(content: string, start: number, end: number, maxChars: number): Range[] {
  const pieces: Range[] = []
  let from = start
  while (end - from > maxChars) {
    let to = from + maxChars
    if (isHighSurrogate(content.charCodeAt(to - 1)) && isLowSurrogate(content.charCodeAt(to))) to--
    pieces.push([from, to])
    from = to
  }
  pieces.push([from, end])
  return pieces
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

/** Greedily groups consecutive atoms into chunks spanning at most maxChars (gaps between atoms included). */
function packAtoms(atoms: readonly Range[], maxChars: number): Range[] {
  const chunks: Range[] = []
  let current: Range | undefined
  for (const [start, end] of atoms) {
    if (current && end - current[0] <= maxChars) {
      current[1] = end
    } else {
      if (current) chunks.push(current)
      current = [start, end]
    }
  }
  if (current) chunks.push(current)
  return chunks
}
