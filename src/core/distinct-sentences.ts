import type { ScoredSentence } from './scored-sentence'

/** Lowercase letters and digits of `text`, words joined by single spaces: "Wow, that's great!" → "wow that s great". */
export function normaliseSentence(text: string): string {
  // One replace, no word array.
  return text.toLowerCase().replace(NON_WORD_RUNS, ' ').trim()
}

const NON_WORD_RUNS = /[^\p{L}\p{N}]+/gu

/** `normalisedHash` of a text whose normalised form is empty. */
const EMPTY = -1
/** `normalisedHash` of a text with a character beyond ASCII: only `normaliseSentence` knows its normalised form. */
const NOT_ASCII = -2

/**
 * A 32-bit FNV-1a hash of `normaliseSentence(text)` for ASCII text, computed in one pass without building that
 * string (a Unicode-aware regex replace is the costliest step of reading a candidate); `EMPTY` or `NOT_ASCII` otherwise.
 * For ASCII, `normaliseSentence` keeps [a-z0-9] after lowercasing and turns every other run into one space, trimmed.
 */
export function normalisedHash(text: string): number {
  let hash = 0x811c9dc5
  let gap = false
  let words = false
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i)
    if (c > 127) return NOT_ASCII
    if (c >= 65 && c <= 90) c += 32
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (gap && words) hash = Math.imul(hash ^ 32, 16777619)
      gap = false
      words = true
      hash = Math.imul(hash ^ c, 16777619)
    } else gap = true
  }
  return words ? hash >>> 0 : EMPTY
}

/**
 * Passes ranked candidates through, holding back any whose normalised text (`normaliseSentence`) equals that of an
 * earlier one until every distinct candidate was offered: chit-chat repeats ("Thanks!", "Wow, that's great!")
 * would otherwise spend the budget several times on one line. The first (best-ranked) copy keeps its place;
 * repeats come last, so a budget large enough for everything still gets everything. Sentences with no letters or
 * digits are never held back. Texts are compared by hash first (`normalisedHash`); the normalised strings only
 * when hashes meet, so a collision never holds a sentence back.
 */
export function* distinctSentences(ranked: Iterable<ScoredSentence>): Generator<ScoredSentence> {
  const offered = new Map<number | string, string[]>()
  const repeats: ScoredSentence[] = []
  for (const candidate of ranked) {
    const { text } = candidate
    let key: number | string = normalisedHash(text)
    if (key === NOT_ASCII) {
      const normalised = normaliseSentence(text)
      // A normalised form that is ASCII ("that’s" → "that s") must meet the ASCII texts' hashes.
      key = normalised === '' ? EMPTY : NON_ASCII_CHAR.test(normalised) ? normalised : normalisedHash(normalised)
    }
    if (key !== EMPTY) {
      const earlier = offered.get(key)
      if (earlier === undefined) offered.set(key, [text])
      else {
        const normalised = normaliseSentence(text)
        if (earlier.some((other) => normaliseSentence(other) === normalised)) {
          repeats.push(candidate)
          continue
        }
        earlier.push(text)
      }
    }
    yield candidate
  }
  yield* repeats
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the range is every ASCII code point, control characters included.
const NON_ASCII_CHAR = /[^\x00-\x7f]/
