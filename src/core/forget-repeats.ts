// The repeats of a statement the forget tool removes: the reply that says the same thing back (and, where
// `laterMaxDenseRank` allows, a later line; by default none). Removing the statement alone leaves them in the memory, and a later context still carries the fact
// through them. They share the statement's words and meaning, not the request's, so they are found with the statement
// itself as the request (`findForgettable(statement.text)`), and picked here from its matches by how high both rankings
// put them: a match's `score` does not tell them apart, because a later message on the same subject (the user's own
// other news about their dog, their shifts) covers the statement's common words as well as a reply that repeats it.
// And the restatements in the exchange that asked for the forget: the user's "please forget that I …" and the reply
// that tells what was forgotten, stored after the forget ran (`restatementsIn`, `quotesIn`).
import type { ForgettableMatch, ForgettableSentence, ForgetSentence } from '../history-types'
import { type ForgetStatement, statementOf } from './forget-tool'
import { splitSentences } from './split-sentences'

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
  /**
   * How closely a message of the exchange that asked for a forget (the user's message, the reply) must match a
   * statement that forget removed for its best sentence to be taken as a restatement (`findForgettable`'s `minScore`,
   * with the statement as the request). The exchange is not embedded yet when it is stored, so this is the share of
   * the statement's words (weighted by rarity) the message holds; a user restates part of a fact ("I don't hate
   * coriander anymore" of "I hate coriander, so please no salsa-type things"). Range: a number from 0 to 1. Tried: 0.2,
   * 0.3, 0.4 (`findForgettable`'s default; BENCHMARKS.md, "The forget request's own exchange").
   */
  exchangeMinScore: 0.4,
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

/**
 * The sentences of `exchange` (the ids of the exchange that asked for a forget) that restate a statement the forget
 * removed, from `matches` (`findForgettable` with the removed statement's text as the request, at
 * `exchangeMinScore`): the best sentence of each of the exchange's messages that matches. The exchange is stored just before,
 * not yet embedded, so it matches by the share of the statement's words it holds (a user restates part of a fact:
 * "forget that we moved to 12 Oak Street" holds half of "We moved to 12 Oak Street in Leeds last spring", so the
 * forget tool's bar for other matches, 0.6, would miss it), and its sentences rank by words, each with the words of
 * its whole message (a short sentence needs its neighbours): only the best is the one that says the fact; the others
 * are the user's other news and the rest of the reply, kept.
 */
export function restatementsIn(matches: readonly ForgettableMatch[], exchange: ReadonlySet<string>): ForgetSentence[] {
  return matches
    .filter((match) => exchange.has(match.messageId) && match.sentences.length > 0)
    .map(({ messageId, sentences: [best] }) => ({ messageId, start: best.start, end: best.end }))
}

/**
 * The sentences of `content` (a message of the exchange, split as the memory splits it) that quote `statement`
 * word for word, wholly or in part: a reply that tells what was forgotten often quotes the tool's result.
 */
export function quotesIn(messageId: string, content: string, statement: string): ForgetSentence[] {
  const text = statement.trim()
  if (text === '' || !content.includes(text)) return []
  const quotes: { start: number; end: number }[] = []
  for (let at = content.indexOf(text); at >= 0; at = content.indexOf(text, at + text.length))
    quotes.push({ start: at, end: at + text.length })
  return splitSentences(content)
    .filter((sentence) => quotes.some((quote) => sentence.start < quote.end && sentence.end > quote.start))
    .map(({ start, end }) => ({ messageId, start, end }))
}
