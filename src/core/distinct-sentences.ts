import type { ScoredSentence } from './scored-sentence'

/** Lowercase letters and digits of `text`, words joined by single spaces: "Wow, that's great!" → "wow that s great". */
export function normaliseSentence(text: string): string {
  // One replace, no word array: a request normalises every candidate it reads.
  return text.toLowerCase().replace(NON_WORD_RUNS, ' ').trim()
}

const NON_WORD_RUNS = /[^\p{L}\p{N}]+/gu

/**
 * Passes ranked candidates through, holding back any whose normalised text (`normaliseSentence`) equals that of an
 * earlier one until every distinct candidate was offered: chit-chat repeats ("Thanks!", "Wow, that's great!")
 * would otherwise spend the budget several times on one line. The first (best-ranked) copy keeps its place;
 * repeats come last, so a budget large enough for everything still gets everything. Sentences with no letters or
 * digits are never held back.
 */
export function* distinctSentences(ranked: Iterable<ScoredSentence>): Generator<ScoredSentence> {
  const seen = new Set<string>()
  const repeats: ScoredSentence[] = []
  for (const candidate of ranked) {
    const key = normaliseSentence(candidate.text)
    if (key !== '') {
      if (seen.has(key)) {
        repeats.push(candidate)
        continue
      }
      seen.add(key)
    }
    yield candidate
  }
  yield* repeats
}
