import { type Language, rulesFor } from './language-rules'
import { TEXT_TUNING } from './text-tuning'
import { words } from './word-segmentation'

/**
 * Where words become terms, for every part of the engine that reads them: BM25 (`indexTerms`, `queryTerms`), the
 * short-sentence penalty and short replies (`contentTermCount`), speakers' names and stand-ins (`contentWords`,
 * `wordQueryTerms`) and the bench's question-set check (`contentTerms`). The words come from `word-segmentation.ts`; each
 * text's language (`language-detection.ts`) decides its stop words and how a word folds into its term
 * (`language-rules.ts`), and words of Chinese, Japanese and Korean script become overlapping character pairs
 * (`cjkTerms`).
 */

export type { Language } from './language-rules'
export {
  EMPTY_HASH,
  hasWord,
  NOT_ASCII_HASH,
  normalizedHash,
  normalizeSentence,
  withoutWords,
  words,
} from './word-segmentation'

/** A word in Chinese, Japanese or Korean script: its terms are character pairs rather than the word. */
const CJK_WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u

/**
 * The terms of one CJK word: each pair of adjacent characters ("装修公司" → 装修, 修公, 公司), or the word itself when
 * it is one character. The dictionary's segmentation of the same words differs with their neighbours (a compound in
 * one sentence is two words in the next, a Korean noun carries its particle), and pairs meet across those splits.
 */
function cjkTerms(word: string): string[] {
  const characters = Array.from(word)
  if (characters.length < 2) return [word]
  const pairs: string[] = []
  for (let i = 0; i + 1 < characters.length; i++) pairs.push(characters[i] + characters[i + 1])
  return pairs
}

/**
 * A word (as `words` gives it) folded by `language`'s stemmer: what matches a word by its stem rather than by its BM25
 * terms (no CJK pairs, no compound grams), as the forget cues do.
 */
export function wordStem(word: string, language: Language | undefined): string {
  return rulesFor(language).stem(word)
}

/** The terms of one word (as `words` gives it) in `language`: its stem, or its CJK character pairs. */
function wordTerms(word: string, language: Language | undefined): string[] {
  const term = rulesFor(language).stem(word)
  return CJK_WORD.test(term) ? cjkTerms(term) : [term]
}

const { compoundGramLength } = TEXT_TUNING
const MARKS = /\p{M}/gu

/**
 * The character n-grams (`compoundGramLength` letters, `text-tuning.ts`) of a word of a compounding language, marks dropped ("Hausärztin" → haus, ausa, …, ztin),
 * each prefixed so that it never equals a stem: a compound and its parts written apart ("Yogakurs", "Kurs für Yoga")
 * share them, where their stems share nothing.
 */
function compoundGrams(word: string): string[] {
  const letters = Array.from(word.normalize('NFD').replace(MARKS, ''))
  const grams: string[] = []
  for (let i = 0; i + compoundGramLength <= letters.length; i++)
    grams.push(`#${letters.slice(i, i + compoundGramLength).join('')}`)
  return grams
}

/** A word's BM25 terms: `wordTerms`, and in a compounding language its character n-grams (`compoundGrams`). */
function matchTerms(word: string, language: Language | undefined): string[] {
  const terms = wordTerms(word, language)
  return rulesFor(language).compounds ? [...terms, ...compoundGrams(word)] : terms
}

/** Most words a `TermMemo` keeps before it starts over. */
const MEMO_LIMIT = 50_000

/**
 * Words' terms remembered while a history is indexed: a history repeats its words, and a stem costs microseconds.
 * Its owner (the lexical index) lets go of every remembered word when a message is forgotten (`forget`), so that
 * no word of it stays in memory.
 */
export class TermMemo {
  private readonly terms = new Map<string, string[]>()

  /** Words remembered. */
  get size(): number {
    return this.terms.size
  }

  /** `matchTerms(word, language)`, remembered. */
  termsOf(word: string, language: Language | undefined): string[] {
    const key = `${language ?? ''}\u0000${word}`
    let terms = this.terms.get(key)
    if (terms === undefined) {
      if (this.terms.size >= MEMO_LIMIT) this.terms.clear()
      terms = matchTerms(word, language)
      this.terms.set(key, terms)
    }
    return terms
  }

  forget(): void {
    this.terms.clear()
  }
}

/** Whether a word (as `words` gives it) carries no topic in `language` ("what", "der", "的"). */
export function isStopWord(word: string, language: Language | undefined): boolean {
  return rulesFor(language).stopWords.has(word)
}

/** The words of `text` that are not stop words in `language`, in order. */
export function contentWords(text: string, language: Language | undefined): string[] {
  const { stopWords } = rulesFor(language)
  return words(text).filter((word) => !stopWords.has(word))
}

/** How many content words `text` has (`contentWords`): what the short-sentence penalty and short replies count. */
export function contentTermCount(text: string, language: Language | undefined): number {
  return contentWords(text, language).length
}

/** The terms of `text`'s content words, each once. */
export function contentTerms(text: string, language: Language | undefined): Set<string> {
  return new Set(contentWords(text, language).flatMap((word) => wordTerms(word, language)))
}

/** A BM25 document's terms: every word's, stop words included, repeats kept (remembered in `memo`, when given). */
export function indexTerms(text: string, language: Language | undefined, memo?: TermMemo): string[] {
  return words(text).flatMap((word) => (memo ? memo.termsOf(word, language) : matchTerms(word, language)))
}

/** A word (as `words` gives it) as a query uses it: none for a stop word (dropped), else its terms. */
export function wordQueryTerms(word: string, language: Language | undefined): string[] {
  return isStopWord(word, language) ? [] : wordTerms(word, language)
}

/** The BM25 terms of `text`'s content words (`matchTerms`), in order, repeats kept. */
export function contentTermList(text: string, language: Language | undefined): string[] {
  return contentWords(text, language).flatMap((word) => matchTerms(word, language))
}

/** A BM25 query's terms: its content terms (`contentTermList`), or, when it has none, all its words' terms. */
export function queryTerms(query: string, language: Language | undefined): string[] {
  const content = contentTermList(query, language)
  return content.length > 0 ? content : indexTerms(query, language)
}
