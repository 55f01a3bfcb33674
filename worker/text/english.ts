/**
 * English's rules for `text-analysis.ts`: a stop-word list and a light suffix stemmer. Light on purpose:
 * it only folds inflections (plural, -ed, -ing, -ies/-ied, a final e) so "paintings", "painted" and "painting"
 * meet "paint", without the aggressive derivational merges of a full Porter stemmer ("general" → "gener").
 */

/**
 * Function words that carry no topic: questions are full of them ("What did she do when…"), and BM25 would
 * otherwise rank chit-chat full of "what"/"did"/"you" above the one sentence that shares the rare words.
 * Includes the fragments a tokenizer leaves of contractions ("s", "t", "ll", "ve").
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves s t d ll m re ve o y'
  ).split(' '),
)

const VOWEL = /[aeiouy]/
/** Double consonants that an -ed/-ing suffix creates ("stopped", "running") and that are not part of the stem ("fall", "miss", "buzz"). */
const DOUBLED = /([bdfgkmnprt])\1$/

/** The stem of one lowercase word: deterministic, idempotent on its own output for ordinary words. */
export function stemEnglish(word: string): string {
  let stem = word
  if (stem.length <= 3) return stem
  if (stem.endsWith('ies') || stem.endsWith('ied')) {
    if (stem.length > 4) stem = `${stem.slice(0, -3)}y`
  } else if (stem.endsWith('sses')) {
    stem = stem.slice(0, -2)
  } else if (stem.endsWith('s') && !/(ss|us|is)$/.test(stem)) {
    stem = stem.slice(0, -1)
  }
  for (const suffix of ['ing', 'ed']) {
    if (!stem.endsWith(suffix) || stem.endsWith('eed')) continue
    const base = stem.slice(0, -suffix.length)
    if (base.length >= 3 && VOWEL.test(base)) {
      stem = DOUBLED.test(base) ? base.slice(0, -1) : base
      break
    }
  }
  if (stem.length > 3 && stem.endsWith('e') && !stem.endsWith('ee')) stem = stem.slice(0, -1)
  return stem
}
