/**
 * How much of a text an embedding model cannot read: the share of its letters (by occurrence) that the model's
 * tokenizer has no piece for, so that they reach the model only as its unknown token. The shipped model's 8,000
 * pieces cover Latin letters and a handful of Cyrillic, Arabic and Devanagari ones: a Chinese, Japanese or Korean
 * text is all unknown to it, a Russian or Arabic one mostly, and its vector then says little about its meaning. A
 * text without letters (digits, emoji) counts as known.
 */
export function unknownLetterShare(text: string, isUnknownLetter: (letter: string) => boolean): number {
  let letters = 0
  let unknown = 0
  for (const [letter] of text.matchAll(LETTER)) {
    letters++
    if (isUnknownLetter(letter)) unknown++
  }
  return letters === 0 ? 0 : unknown / letters
}

const LETTER = /\p{L}/gu
