import { STOP_WORDS, stemEnglish } from './english'

/**
 * Where text becomes words and terms, for every part of the engine that reads words: BM25 (`bm25Tokens`, `indexTerm`,
 * `queryTerm`), the short-sentence penalty and short replies (`contentTermCount`), speakers' names (`contentWords`,
 * `withoutWords`), de-duplication (`normaliseSentence`), stand-ins (`contentWords`) and the bench's question-set
 * check (`contentTerms`).
 *
 * A word is a run of letters and digits, in any script (`WORD_CHARACTERS`), lowercased after it is found: lowercasing
 * never splits a word. BM25 alone splits otherwise (`bm25Tokens`): on whitespace and punctuation only, as the index
 * was tuned with and as its stored snapshots hold their terms.
 */

/** What a language brings: the words that carry no topic, and how a lowercase word folds into its term. */
interface LanguageRules {
  stopWords: ReadonlySet<string>
  stem(word: string): string
}

const ENGLISH: LanguageRules = { stopWords: STOP_WORDS, stem: stemEnglish }

/**
 * The rules every function below applies: English, the one language so far. A language parameter replaces this
 * constant (a `LanguageRules` per language); nothing else in the engine knows a stop word or a stem.
 */
const RULES: LanguageRules = ENGLISH

/** The characters of a word: letters and digits of any script (the `u`-flag class body, for the patterns below). */
const WORD_CHARACTERS = '\\p{L}\\p{N}'
const NON_WORD = new RegExp(`[^${WORD_CHARACTERS}]+`, 'u')
const NON_WORD_RUNS = new RegExp(`[^${WORD_CHARACTERS}]+`, 'gu')
const WORD_CHARACTER = new RegExp(`[${WORD_CHARACTERS}]`, 'u')
/** A word with an optional possessive ending ("Melanie's", "Melanie’s"). */
const WORD_WITH_POSSESSIVE = new RegExp(`([${WORD_CHARACTERS}]+)(?:['’]s)?`, 'gu')

/** The words of `text`, lowercase, in order, repeats kept: "Wow, Mel's café!" → wow, mel, s, café. */
export function words(text: string): string[] {
  const found: string[] = []
  for (const piece of text.split(NON_WORD)) if (piece !== '') found.push(piece.toLowerCase())
  return found
}

/** Whether `text` holds a word at all. */
export function hasWord(text: string): boolean {
  return WORD_CHARACTER.test(text)
}

/** Whether a lowercase word is one that carries no topic ("what", "did", and contractions' fragments "s", "ll"). */
function isStopWord(word: string): boolean {
  return RULES.stopWords.has(word)
}

/** The words of `text` that are not stop words, lowercase, in order. */
export function contentWords(text: string): string[] {
  return words(text).filter((word) => !isStopWord(word))
}

/** How many content words `text` has (`contentWords`): what the short-sentence penalty and short replies count. */
export function contentTermCount(text: string): number {
  return contentWords(text).length
}

/** The terms of `text`'s content words (stemmed, stop words dropped), each once. */
export function contentTerms(text: string): Set<string> {
  return new Set(contentWords(text).map(RULES.stem))
}

/** A token (any case) as the index stores it: its stem. */
export function indexTerm(token: string): string {
  return RULES.stem(token.toLowerCase())
}

/** A token (any case) as a query uses it: null for a stop word (dropped), else its stem. */
export function queryTerm(token: string): string | null {
  const lower = token.toLowerCase()
  return isStopWord(lower) ? null : RULES.stem(lower)
}

/** BM25's split, MiniSearch's default tokenizer (what the index was tuned with): on whitespace and punctuation. */
const SPACE_OR_PUNCTUATION = /[\n\r\p{Z}\p{P}]+/u

/**
 * BM25's raw tokens of a text, before normalisation (`indexTerm`, `queryTerm`); may hold empty strings at the ends.
 * Not `words`: symbols stay inside a token ("$50", "c++"), and a stored index holds its terms as this split made them.
 */
export function bm25Tokens(text: string): string[] {
  return text.split(SPACE_OR_PUNCTUATION)
}

/** The query terms of `text`'s BM25 tokens: stop words dropped, the rest stemmed. */
export function bm25ContentTerms(text: string): string[] {
  return bm25Tokens(text)
    .map(queryTerm)
    .filter((term): term is string => !!term)
}

/** A BM25 query's terms: its content terms (`bm25ContentTerms`), or, when it has none, all its tokens' terms. */
export function bm25QueryTerms(query: string): string[] {
  const content = bm25ContentTerms(query)
  if (content.length > 0) return content
  return bm25Tokens(query)
    .map(indexTerm)
    .filter((term) => term !== '')
}

/**
 * `text`'s words joined by single spaces (`words(text).join(' ')`): "Wow, that's great!" → "wow that s great", what
 * de-duplication compares. One replace, no word array: this runs for candidate after candidate.
 */
export function normaliseSentence(text: string): string {
  return text.replace(NON_WORD_RUNS, ' ').trim().toLowerCase()
}

/** `normalisedHash` of a text whose normalised form is empty. */
export const EMPTY_HASH = -1
/** `normalisedHash` of a text with a character beyond ASCII: only `normaliseSentence` knows its normalised form. */
export const NOT_ASCII_HASH = -2

/**
 * A 32-bit FNV-1a hash of `normaliseSentence(text)` for ASCII text, computed in one pass without building that
 * string (a Unicode-aware regex replace is the costliest step of reading a candidate); `EMPTY_HASH` or
 * `NOT_ASCII_HASH` otherwise. For ASCII, a word's characters are [a-z0-9] after lowercasing, and every other run
 * is one space, trimmed.
 */
export function normalisedHash(text: string): number {
  let hash = 0x811c9dc5
  let gap = false
  let found = false
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i)
    if (c > 127) return NOT_ASCII_HASH
    if (c >= 65 && c <= 90) c += 32
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (gap && found) hash = Math.imul(hash ^ 32, 16777619)
      gap = false
      found = true
      hash = Math.imul(hash ^ c, 16777619)
    } else gap = true
  }
  return found ? hash >>> 0 : EMPTY_HASH
}

/**
 * `text` with each word that `removed` holds (lowercase, as `words` gives them) taken out, its possessive ending
 * ("Melanie's") with it, and nothing else changed; `text` itself when it holds none of them.
 */
export function withoutWords(text: string, removed: ReadonlySet<string>): string {
  let found = false
  const kept = text.replace(WORD_WITH_POSSESSIVE, (whole, word: string) => {
    if (!removed.has(word.toLowerCase())) return whole
    found = true
    return ''
  })
  return found ? kept : text
}
