/**
 * Where text becomes words, in every script: the one tokenizer of the engine (BM25, the heuristics that count words,
 * de-duplication, the request's words).
 *
 * A word is a run of letters, combining marks and digits (`WORD_CHARACTER`): marks belong to the letter they follow
 * (Devanagari's vowel signs, Arabic's harakat, a decomposed accent), so a Hindi word is not cut at every vowel sign.
 * Scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer, Myanmar) are split further by
 * the platform's dictionary segmentation (`Intl.Segmenter`, word granularity). Text is normalised first: NFKC
 * (full-width Latin and digits, ligatures, compatibility forms become their plain letters) and case-folded
 * (lowercase, final sigma as sigma, ß as ss), so a word and its other spellings meet.
 */

/** Letters, combining marks and digits of any script (the `u`-flag class body, for the patterns below). */
const WORD_CHARACTERS = '\\p{L}\\p{M}\\p{N}'
const WORD_RUN = new RegExp(`[${WORD_CHARACTERS}]+`, 'gu')
const NON_WORD = new RegExp(`[^${WORD_CHARACTERS}]+`, 'u')
const WORD_CHARACTER = new RegExp(`[${WORD_CHARACTERS}]`, 'u')

/** A character of a script written without spaces between words, which only a dictionary can split. */
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u

/** What lowercasing leaves unfolded: final sigma and sharp s (Unicode's full case folding). */
const UNFOLDED = /[ςß]/g
const FOLDED: Record<string, string> = { ς: 'σ', ß: 'ss' }

/** Only ASCII letters, digits and punctuation: nothing to normalise, nothing to segment by dictionary. */
const PRINTABLE_ASCII = /^[\x20-\x7e\t\n\r]*$/

let dictionarySegmenter: Intl.Segmenter | undefined

/**
 * ICU's word segmentation: a dictionary for Chinese and Japanese (one for both), Thai, Lao, Khmer and Burmese. One
 * instance, made on first use (construction loads ICU data); a fixed locale, so the same text always splits the same way.
 */
function segmenter(): Intl.Segmenter {
  dictionarySegmenter ??= new Intl.Segmenter('und', { granularity: 'word' })
  return dictionarySegmenter
}

/** `text` NFKC-normalised and case-folded: what words are read from. */
export function foldedText(text: string): string {
  if (PRINTABLE_ASCII.test(text)) return text.toLowerCase()
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(UNFOLDED, (character) => FOLDED[character])
}

/**
 * The words of `text`, normalised (`foldedText`), in order, repeats kept: "Wow, Mel's café!" → wow, mel, s, café;
 * "我在七宝买了房子" → 我, 在, 七宝, 买了, 房子 (as the dictionary splits it).
 */
export function words(text: string): string[] {
  const folded = foldedText(text)
  const found: string[] = []
  if (!UNSPACED_SCRIPT.test(folded)) {
    for (const piece of folded.split(NON_WORD)) if (piece !== '') found.push(piece)
    return found
  }
  for (const [run] of folded.matchAll(WORD_RUN)) {
    if (!UNSPACED_SCRIPT.test(run)) {
      found.push(run)
      continue
    }
    for (const piece of segmenter().segment(run)) if (piece.isWordLike) found.push(piece.segment)
  }
  return found
}

/** Whether `text` holds a word at all. */
export function hasWord(text: string): boolean {
  return WORD_CHARACTER.test(text)
}

/**
 * `text`'s words joined by single spaces (`words(text).join(' ')`): "Wow, that's great!" → "wow that s great", what
 * de-duplication compares.
 */
export function normalizeSentence(text: string): string {
  return words(text).join(' ')
}

/** `normalizedHash` of a text whose normalised form is empty. */
export const EMPTY_HASH = -1
/** `normalizedHash` of a text with a character beyond ASCII: only `normalizeSentence` knows its normalised form. */
export const NOT_ASCII_HASH = -2

/**
 * A 32-bit FNV-1a hash of `normalizeSentence(text)` for ASCII text, computed in one pass without building that
 * string; `EMPTY_HASH` or `NOT_ASCII_HASH` otherwise. For ASCII, a word's characters are [a-z0-9] after lowercasing,
 * and every other run is one space, trimmed.
 */
export function normalizedHash(text: string): number {
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

/** A word with an optional possessive ending ("Melanie's", "Melanie’s"). */
const WORD_WITH_POSSESSIVE = new RegExp(`([${WORD_CHARACTERS}]+)(?:['’]s)?`, 'gu')

/**
 * `text` with each word that `removed` holds (as `words` gives them) taken out, its possessive ending ("Melanie's")
 * with it, and nothing else changed; `text` itself when it holds none of them.
 */
export function withoutWords(text: string, removed: ReadonlySet<string>): string {
  let found = false
  const kept = text.replace(WORD_WITH_POSSESSIVE, (whole, word: string) => {
    if (!removed.has(foldedText(word))) return whole
    found = true
    return ''
  })
  return found ? kept : text
}
