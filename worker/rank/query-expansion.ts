import type { WordNeighbours } from '../embed/word-neighbours'
import { contentWords, queryTerm } from '../text/text-analysis'

/** Stand-ins added per request word: the closest ones the history uses (3, 4 and 5 compared: BENCHMARKS.md, "Recall"). */
export const EXPANSIONS_PER_WORD = 5
/**
 * Share of a request word's weight a sentence covers (`termCoverage`) when it holds a stand-in for the word rather
 * than the word: a stand-in is a guess at the meaning, so a hit on it counts less than the word itself.
 */
export const STAND_IN_CREDIT = 0.5

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
 * names, which never stand in either) the `EXPANSIONS_PER_WORD` nearest words in `table` (its neighbours, closest
 * first) whose query term the history uses (`historyUses`) and the request does not already hold. Words the history
 * uses are left to BM25 as they are: widening those too cost LoCoMo recall (BENCHMARKS.md, "Recall").
 */
export function requestExpansions(
  request: string,
  table: WordNeighbours,
  historyUses: (term: string) => boolean,
  excluded: ReadonlySet<string> = new Set(),
): Expansion[] {
  const words = [...new Set(contentWords(request))].filter((word) => word.length > 2 && !excluded.has(word))
  const taken = new Set(words.map(queryTerm))
  const added: Expansion[] = []
  for (const word of words) {
    const term = queryTerm(word)
    const row = table.rowOf.get(word)
    if (term === null || historyUses(term) || row === undefined) continue
    const standIns: string[] = []
    for (const neighbour of table.neighboursOf(row)) {
      const candidate = table.words[neighbour]
      const candidateTerm = candidate.length > 2 && !excluded.has(candidate) ? queryTerm(candidate) : null
      if (candidateTerm === null || taken.has(candidateTerm) || !historyUses(candidateTerm)) continue
      taken.add(candidateTerm)
      standIns.push(candidate)
      if (standIns.length === EXPANSIONS_PER_WORD) break
    }
    if (standIns.length > 0) added.push({ word, standIns })
  }
  return added
}
