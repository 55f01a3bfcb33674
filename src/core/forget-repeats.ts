// The repeats of a statement the forget tool removes: the reply that says the same thing back (and, where
// `laterMaxDenseRank` allows, a later line; by default none). Removing the statement alone leaves them in the memory, and a later context still carries the fact
// through them. They share the statement's words and meaning, not the request's, so they are found with the statement
// itself as the request (`findForgettable(statement.text)`), and picked here from its matches by how high both rankings
// put them: a match's `score` does not tell them apart, because a later message on the same subject (the user's own
// other news about their dog, their shifts) covers the statement's common words as well as a reply that repeats it.
import type { ForgettableMatch, ForgettableSentence } from '../history-types'
import { type ForgetStatement, statementOf } from './forget-tool'

/**
 * The repeats search's constants (BENCHMARKS.md, "The forget tool's repeats"; tuned on the forget set's conversations
 * 1–3 only, 4–6 held out).
 */
export const REPEAT_SEARCH = {
  /**
   * How many messages the search with the statement's text lists (`findForgettable`'s `limit`). A reply that repeats
   * a statement ranks below the user's own messages that share its words (the other role's share): 11th once on
   * conversations 1–3. Range: an integer from 1 to 100. Tried: 10, 20.
   */
  searchLimit: 20,
  /**
   * Worst dense rank (1-based, the search's sentences by similarity to the statement, which is 1) of a sentence of the
   * statement's reply (the first later match by the other role) taken as a repeat. The reply is where a statement is
   * repeated (30 of the 37 repeats of conversations 1–3); its other sentences rank far below. Range: an integer ≥ 0
   * (0 takes none). Tried: 3, 4, 6, 8.
   */
  replyMaxDenseRank: 4,
  /**
   * Worst lexical rank (1-based, BM25 of the sentences sharing a word with the statement; the statement's own
   * message's other sentences often come before a repeat) of a sentence of the reply taken as a repeat when its dense
   * rank is worse: a reply that names the fact in other words of its own. Range: an integer ≥ 0 (0 takes none). Tried:
   * 0, 4, 5.
   */
  replyMaxLexicalRank: 4,
  /**
   * Worst dense rank of the best sentence of a later message other than the reply taken as a repeat: stricter, because
   * those are mostly the user's own later news on the subject, other facts of theirs. Range: an integer ≥ 0 (0 takes
   * none). Tried: 0, 1, 2, 3, 4, 6; 0 kept once the forget cues' rework was merged: on conversations 1–3 it lost 1
   * other fact where 2 lost 4, for 3 points more probe contexts with a retracted value (BENCHMARKS.md, "The forget
   * tool's repeats", after the merges).
   */
  laterMaxDenseRank: 0,
  /**
   * Worst lexical rank of that best sentence (both rankings must put it near). Range: an integer ≥ 1. Tried: 7, 10, 12.
   */
  laterMaxLexicalRank: 10,
} as const

/** A sentence's places in the two rankings of the repeats search. */
type Ranks = Pick<ForgettableSentence, 'denseRank' | 'lexicalRank'>

/** The repeats search's constants, as `repeatsOf` reads them. */
export type RepeatSearch = { readonly [K in keyof typeof REPEAT_SEARCH]: number }

/**
 * The sentences of `matches` (`findForgettable` with `statement.text` as the request) that repeat `statement`,
 * oldest first, each marked with the statement it repeats, from the messages said after the statement's (`saidAt`,
 * epoch milliseconds): in its reply (the first later match, when another role's), the sentences either ranking puts near
 * it; in a later message, its best sentence when both rankings put it nearer (`REPEAT_SEARCH`; off by default). Never the statement's
 * own message (its other sentences are other news), nor an earlier one (a repeat follows what it repeats).
 */
export function repeatsOf(
  statement: ForgetStatement,
  saidAt: number,
  matches: readonly ForgettableMatch[],
  search: RepeatSearch = REPEAT_SEARCH,
): ForgetStatement[] {
  const aheadOfNews = rankedAheadOfNews(statement, matches)
  const near = (rank: number | undefined, worst: number) => rank !== undefined && rank <= worst
  const later = matches
    .filter((match) => match.messageId !== statement.messageId && match.timestamp >= saidAt)
    .sort((a, b) => a.timestamp - b.timestamp)
  // The reply is the next message when it is another role's: in a short history every message is a match, and a
  // later one on another subject ranks near too.
  const reply = later[0]?.role !== statement.role ? later[0] : undefined
  const repeatsIn = (match: ForgettableMatch) =>
    match === reply
      ? // Its best sentence, and the others that rank ahead of the statement's news: the reply answers that too.
        match.sentences.filter(
          (sentence, rank) =>
            (near(sentence.denseRank, search.replyMaxDenseRank) ||
              near(sentence.lexicalRank, search.replyMaxLexicalRank)) &&
            (rank === 0 || aheadOfNews(sentence)),
        )
      : match.sentences
          .slice(0, 1)
          .filter(
            (sentence) =>
              near(sentence.denseRank, search.laterMaxDenseRank) &&
              near(sentence.lexicalRank, search.laterMaxLexicalRank) &&
              aheadOfNews(sentence),
          )
  return later.flatMap((match) =>
    repeatsIn(match)
      .sort((a, b) => a.start - b.start)
      .map((sentence) => ({ ...statementOf(match, sentence), repeatOf: statement.text })),
  )
}

/**
 * Whether a sentence ranks ahead of the other news said with the statement (its message's other sentences, as the
 * search ranked them) in either ranking. One behind them in both is about that news, however near it ranks: in a short
 * history every sentence ranks near.
 */
function rankedAheadOfNews(
  statement: ForgetStatement,
  matches: readonly ForgettableMatch[],
): (sentence: Ranks) => boolean {
  const news = (matches.find((match) => match.messageId === statement.messageId)?.sentences ?? []).filter(
    (sentence) => sentence.start !== statement.start,
  )
  const unranked = Number.POSITIVE_INFINITY
  const best = (rankOf: (sentence: Ranks) => number | undefined) =>
    Math.min(...news.map((sentence) => rankOf(sentence) ?? unranked))
  const [newsDense, newsLexical] = [best((s) => s.denseRank), best((s) => s.lexicalRank)]
  return (sentence) => (sentence.denseRank ?? unranked) < newsDense || (sentence.lexicalRank ?? unranked) < newsLexical
}
