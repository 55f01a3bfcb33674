import type { LexicalIndex } from '../index/lexical/lexical-index'
import { type Language, queryTerms, wordQueryTerms } from '../text/text-analysis'
import type { Expansion } from './query-expansion'
import { RANK_TUNING } from './rank-tuning'

/** What `termCoverage` tells about one query. */
export interface TermCoverage {
  /** Share (0–1) of the query's idf weight carried by terms some sentence of the history holds; 1 for a query without terms. */
  reach: number
  /** Share (0–1) of the query's idf weight carried by terms the sentence's text or its turn's text holds. */
  coverageOf(sid: number): number
}

/**
 * How much of `query` the history's words can account for, the inputs of a lexical hit's share in `hybrid`
 * (`lexicalShare`). Each of the query's BM25 terms in `language` (`queryTerms`; `ignored` terms, e.g. speakers' names, left out)
 * weighs its idf over sentence texts. `reach`: the share of that weight carried by terms some sentence's text holds
 * (a term the history never uses can only be found by meaning). `coverageOf(sid)`: the share carried by terms the
 * sentence's own text or its turn's text holds (0 for a sentence matched by its speaker alone); a term no sentence
 * holds counts, at `standInCredit`, for sentences holding one of its `expansions`' stand-ins.
 */
export function termCoverage(
  lexical: LexicalIndex,
  query: string,
  language: Language | undefined,
  filter: { conversationId?: string } | undefined,
  ignored: ReadonlySet<string>,
  expansions: readonly Expansion[] = [],
  standInCredit = RANK_TUNING.standInCredit,
): TermCoverage {
  const standInsOf = new Map<string, string[]>()
  for (const { word, standIns } of expansions) {
    const standInTerms = standIns.flatMap((standIn) => wordQueryTerms(standIn, language))
    for (const term of wordQueryTerms(word, language)) standInsOf.set(term, standInTerms)
  }
  const conversationId = filter?.conversationId
  const inScope = lexical.hasConversation(conversationId)
  const terms = [...new Set(queryTerms(query, language))].filter((term) => !ignored.has(term))
  // By sid: idf weight covered, and the last term that counted it (a sentence and its turn may both hold a term).
  const covered = new Float64Array(lexical.sidBound)
  const countedFor = new Int32Array(lexical.sidBound).fill(-1)
  let total = 0
  let known = 0
  terms.forEach((term, t) => {
    const df = lexical.sentenceFrequency(term)
    const idf = lexical.sentenceIdf(df)
    total += idf
    if (!inScope) return
    // A term the history never uses counts, at `standInCredit`, for the sentences holding a stand-in for it; it still
    // adds nothing to `reach`: whether those stand-ins mean the same is a guess.
    const weight = df === 0 ? idf * standInCredit : idf
    const count = (sid: number) => {
      if (sid >= covered.length || countedFor[sid] === t) return
      countedFor[sid] = t
      covered[sid] += weight
    }
    if (df > 0) known += idf
    for (const held of df === 0 ? (standInsOf.get(term) ?? []) : [term])
      lexical.forEachSentenceHolding(held, conversationId, count)
  })
  return {
    reach: total > 0 ? known / total : 1,
    coverageOf: (sid) => (total > 0 && sid < covered.length ? covered[sid] / total : 0),
  }
}
