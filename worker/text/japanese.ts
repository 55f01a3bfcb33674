/**
 * Japanese's term for a word (`language-rules.ts`): the dictionary segmentation gives a verb or adjective with its
 * okurigana (行き, 行っ, 待つ, 高かっ), whose kana change with every conjugation while the kanji stem stays; a word
 * that starts with kanji loses its trailing hiragana, so 行きました, 行った and 行く meet at 行. Katakana words
 * (loan words) and hiragana-only words are kept as they are.
 */

const STARTS_WITH_KANJI = /^\p{Script=Han}/u
const TRAILING_HIRAGANA = /\p{Script=Hiragana}+$/u

export function stemJapanese(word: string): string {
  return STARTS_WITH_KANJI.test(word) ? word.replace(TRAILING_HIRAGANA, '') : word
}
