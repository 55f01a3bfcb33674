import { contentWords, hasWord, type Language, withoutWords, wordQueryTerms } from '../text/text-analysis'

/**
 * Roles every chat has: words that may well be what a request is about ("the user settings", "the system prompt")
 * rather than the name of someone in the history.
 */
const GENERIC_ROLES: ReadonlySet<string> = new Set(['user', 'assistant', 'system'])

/**
 * The words (`contentWords`) that name the given speakers (roles), leaving out the generic roles and stop words:
 * names are not words of a language, so only words no language's list would drop count (English's, the default).
 */
export function speakerNameWords(speakers: Iterable<string>): Set<string> {
  const words = new Set<string>()
  for (const speaker of speakers) {
    if (GENERIC_ROLES.has(speaker.toLowerCase())) continue
    for (const word of contentWords(speaker, 'en')) words.add(word)
  }
  return words
}

/**
 * Name words (`speakerNameWords`) as the lexical index's query terms in `language` (the request's), to leave out of
 * what a request's words cover.
 */
export function speakerNameTerms(words: Iterable<string>, language: Language | undefined): Set<string> {
  const terms = new Set<string>()
  for (const word of words) for (const term of wordQueryTerms(word, language)) terms.add(term)
  return terms
}

/**
 * `text` with the words that name a speaker of the history removed (with their possessive), for the dense ranking:
 * "What did Melanie paint?" is embedded as "What did paint?". The speaker's name says whose sentences to look at,
 * not what they are about, yet it dominates a small sentence model's embedding of a short question: every line
 * that addresses that person by name ("Wow, Melanie, that's amazing!") then looks closer to the question than
 * the sentence that answers it. Who is asked about still counts in `hybrid` through the lexical ranking, where
 * the speaker is a field of its own. Speakers named by a generic role (user, assistant, system) are left alone.
 * Returns `text` itself when it names no speaker, or when nothing but names would be left.
 */
export function withoutSpeakerNames(text: string, speakers: Iterable<string>): string {
  const names = speakerNameWords(speakers)
  if (names.size === 0) return text
  const kept = withoutWords(text, names)
  if (kept === text) return text
  const tidied = kept.replace(/\s+/g, ' ').trim()
  return hasWord(tidied) ? tidied : text
}
