import { queryTerm } from './english-terms'
import type { ScoredSentence } from './scored-sentence'

/** Share of the smaller sentence's content terms the two must have in common to be on the same subject. */
const UPDATE_OVERLAP = 0.5

/** Stemmed content terms of `text` (stop words dropped). */
export function contentTerms(text: string): Set<string> {
  const terms = new Set<string>()
  for (const word of text.split(/[^\p{L}\p{N}]+/u)) {
    const term = word === '' ? null : queryTerm(word)
    if (term !== null) terms.add(term)
  }
  return terms
}

/**
 * Whether `later` plausibly restates `earlier` with a new value ("I moved to Porto." → "We moved to Lisbon
 * last week."): at least `UPDATE_OVERLAP` of the smaller one's content terms are shared, and `later` says
 * something `earlier` did not (a term of its own). A plain repetition is not an update.
 */
export function isLikelyUpdate(earlier: string, later: string): boolean {
  const a = contentTerms(earlier)
  const b = contentTerms(later)
  if (a.size === 0 || b.size === 0) return false
  let shared = 0
  for (const term of a) if (b.has(term)) shared++
  return shared > 0 && shared >= UPDATE_OVERLAP * Math.min(a.size, b.size) && shared < b.size
}

/**
 * Follows each relevance-ranked candidate with the latest later sentence that updates it, as an `'update'`
 * candidate with its score: a context holding "I moved to Porto" should also hold the later "we moved to Lisbon",
 * so a reader (helped by the rendered dates) can tell which is current. `laterOf` returns later sentences of the
 * same conversation and speaker that may be on the same subject (e.g. lexical hits of its text); only those passing
 * `isLikelyUpdate` count, and the newest one wins.
 */
export function* withLaterUpdates(
  ranked: Iterable<ScoredSentence>,
  laterOf: (sentence: ScoredSentence) => Iterable<ScoredSentence>,
): Generator<ScoredSentence> {
  for (const candidate of ranked) {
    yield candidate
    if (candidate.reason !== 'relevant') continue
    let latest: ScoredSentence | undefined
    for (const other of laterOf(candidate)) {
      const later = other.conversationId === candidate.conversationId && other.role === candidate.role && other.seq > candidate.seq
      if (later && (latest === undefined || other.seq > latest.seq) && isLikelyUpdate(candidate.text, other.text)) latest = other
    }
    if (latest) yield { ...latest, score: candidate.score, reason: 'update' }
  }
}
