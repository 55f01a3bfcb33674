import type { WordNeighbours } from '../embed/word-neighbours'
import { contentWords, type Language, wordQueryTerms } from '../text/text-analysis'
import { RANK_TUNING } from './rank-tuning'

/** The language of the word-neighbour table's words. */
const TABLE_LANGUAGE = 'en'

/** An English word's query term; null for a stop word. */
function englishTerm(word: string): string | null {
  return wordQueryTerms(word, TABLE_LANGUAGE)[0] ?? null
}

/** A request word the history never uses, and the history's words that stand in for it. */
export interface Expansion {
  /** The request's word the history never uses. */
  word: string
  /** History words standing in for it, closest first. */
  standIns: string[]
}

/**
 * History words to add to a request's lexical query, for the request's words the history never uses: BM25 can
 * match only words, so a request worded unlike its answer ("When did she enrol in ceramics lessons?" against "I
 * signed up for a pottery class") gets nothing from it but incidental matches, which then push out what the dense
 * ranking found. For each such word (a content word of three letters or more, not in `excluded`, e.g. speakers'
 * names, which never stand in either) the `perWord` nearest words in `table` (its neighbours, closest first) whose
 * query term the history uses (`historyUses`) and the request does not already hold. Words the history uses are left
 * to BM25 as they are: widening those too cost LoCoMo recall (BENCHMARKS.md, "Recall"). The table is made of
 * English words, so only a request in English (`language`) is widened: a word of another language the table happens
 * to spell ("die", "come", "dom") would get English stand-ins for what it does not mean.
 */
export function requestExpansions(
  request: string,
  language: Language | undefined,
  table: WordNeighbours,
  historyUses: (term: string) => boolean,
  excluded: ReadonlySet<string> = new Set(),
  perWord = RANK_TUNING.expansionsPerWord,
): Expansion[] {
  if (language !== TABLE_LANGUAGE) return []
  const words = [...new Set(contentWords(request, language))].filter((word) => word.length > 2 && !excluded.has(word))
  const taken = new Set(words.map(englishTerm))
  const added: Expansion[] = []
  for (const word of words) {
    const term = englishTerm(word)
    const row = table.rowOf.get(word)
    if (term === null || historyUses(term) || row === undefined) continue
    const standIns: string[] = []
    for (const neighbour of table.neighboursOf(row)) {
      if (standIns.length === perWord) break
      const candidate = table.words[neighbour]
      const candidateTerm = candidate.length > 2 && !excluded.has(candidate) ? englishTerm(candidate) : null
      if (candidateTerm === null || taken.has(candidateTerm) || !historyUses(candidateTerm)) continue
      taken.add(candidateTerm)
      standIns.push(candidate)
    }
    if (standIns.length > 0) added.push({ word, standIns })
  }
  return added
}
