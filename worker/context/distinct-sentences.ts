import type { ScoredSentence } from '../../src/core/scored-sentence'
import { EMPTY_HASH, NOT_ASCII_HASH, normalizedHash, normalizeSentence } from '../text/text-analysis'

/**
 * Passes ranked candidates through, holding back any whose normalised text (`normalizeSentence`) equals that of an
 * earlier one until every distinct candidate was offered: chit-chat repeats ("Thanks!", "Wow, that's great!")
 * would otherwise spend the budget several times on one line. The first (best-ranked) copy keeps its place;
 * repeats come last, so a budget large enough for everything still gets everything. Sentences with no letters or
 * digits are never held back. Texts are compared by hash first (`normalizedHash`); the normalised strings only
 * when hashes meet, so a collision never holds a sentence back.
 */
export function* distinctSentences(ranked: Iterable<ScoredSentence>): Generator<ScoredSentence> {
  const offered = new Map<number | string, string[]>()
  const repeats: ScoredSentence[] = []
  for (const candidate of ranked) {
    const { text } = candidate
    let key: number | string = normalizedHash(text)
    if (key === NOT_ASCII_HASH) {
      const normalized = normalizeSentence(text)
      // A normalised form that is ASCII ("that’s" → "that s") must meet the ASCII texts' hashes.
      key = normalized === '' ? EMPTY_HASH : NON_ASCII_CHAR.test(normalized) ? normalized : normalizedHash(normalized)
    }
    if (key !== EMPTY_HASH) {
      const earlier = offered.get(key)
      if (earlier === undefined) offered.set(key, [text])
      else {
        const normalized = normalizeSentence(text)
        if (earlier.some((other) => normalizeSentence(other) === normalized)) {
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
