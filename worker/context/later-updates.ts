import { compareTimeOrder } from '../../src/core/render-context'
import type { ScoredSentence } from '../../src/core/scored-sentence'
import { isQuestion } from './answer-neighbours'
import { CONTEXT_TUNING, type ContextTuning } from './context-tuning'
import {
  movesFromHome,
  readsAsRevision,
  speaksOfListener,
  tellsOwnMove,
  tellsPastEvent,
  withoutRevisionCues,
} from './revision-cues'
import { contentTerms } from '../text/text-analysis'
import { detectLanguage } from '../text/language-detection'
import type { Language } from '../text/language-rules'

/** A sentence said after another one, with how close the two are in meaning (cosine of their stored vectors). */
export interface LaterStatement {
  sentence: ScoredSentence
  similarity: number
  /**
   * Said by the other speaker and confirmed by the earlier sentence's speaker in the next turn ("So you're with Virgin
   * now?" — "That's right"): it counts as that speaker's statement, even when it asks.
   */
  confirmed?: boolean
  /**
   * The sentences said before this one in its conversation nearest it in meaning, nearest first, each with its cosine
   * to this one (`later-statements.ts`); asked only of a statement that passes the wording tests. For `revisesEarlier`:
   * a revision revises what it is most about, not every earlier line on the subject. Absent, no line is taken as
   * the one it is most about.
   */
  earlierNeighbours?: () => readonly EarlierNeighbour[]
  /**
   * Its place among the request's nearest sentences in meaning (0 the nearest; the best over the request's queries),
   * when it is among them: a revision that shares no word with the line it revises must answer what the request asks.
   */
  requestRank?: number
}

/** A sentence said before a later statement, with its cosine to that statement. */
export interface EarlierNeighbour {
  sentence: ScoredSentence
  similarity: number
}

/** What the update rules read of the selection's tuning. */
export type UpdateTuning = Pick<
  ContextTuning,
  'sameSubjectSimilarity' | 'closestRevisionSimilarity' | 'updateRivals' | 'updateLookups'
>

/**
 * Which later statement supersedes `earlier`, if any: among `later`, those by the same speaker in the same
 * conversation (or by the other one and confirmed: `LaterStatement.confirmed`), later in time (`compareTimeOrder`),
 * worded as a change (`readsAsRevision`: "switched to", "no longer", "these days", "now I" — a speaker's later lines on
 * a subject are mostly more of the same story, not revisions), of the speaker, not the listener (`speaksOfListener`),
 * and tied to it (`revisesEarlier`: naming its subject and `sameSubjectSimilarity` close in meaning, low enough for a
 * revision worded anew, "I drive a Polo" → "Sold the Polo at last, picked up a Kia"; or the line it is most about), the
 * `updateRivals` closest compete and the newest of them wins — the newest statement on a subject is the one that
 * stands, and the closest alone is often someone else's fact in the same words ("My neighbour drives a Clio").
 * Ties in similarity go to the newer statement. Questions (`isQuestion`) take no part on either side: they state
 * no value to replace or be replaced, and a speaker's questions on one subject read alike. Nor does an event told at
 * a past time (`tellsPastEvent`: "I won the tournament last week"): what happened stays so. Undefined when none
 * qualifies.
 */
export function supersedingStatement(
  earlier: ScoredSentence,
  later: Iterable<LaterStatement>,
  tuning: UpdateTuning = CONTEXT_TUNING,
): ScoredSentence | undefined {
  if (!canBeRevised(earlier.text)) return undefined
  const rivals: LaterStatement[] = []
  // The earlier line's language and content terms, read once for all its later statements that get this far.
  let terms: SubjectTerms | undefined
  const subject = () => (terms ??= subjectTerms(earlier.text))
  for (const statement of later) {
    const { sentence, similarity, confirmed = false } = statement
    // The cheap tests first: most later statements are not close enough, and the wording tests read the text.
    if (
      !(similarity >= tuning.closestRevisionSimilarity) ||
      sentence.conversationId !== earlier.conversationId ||
      (sentence.role !== earlier.role && !confirmed) ||
      compareTimeOrder(sentence, earlier) <= 0 ||
      sentence.sid === earlier.sid
    )
      continue
    if (
      ((isQuestion(sentence.text) || speaksOfListener(sentence.text)) && !confirmed) ||
      !readsAsRevision(sentence.text)
    )
      continue
    if (!revisesEarlier(statement, earlier, subject, tuning)) continue
    rivals.push(statement)
  }
  rivals.sort((a, b) => b.similarity - a.similarity || compareTimeOrder(b.sentence, a.sentence))
  let newest: ScoredSentence | undefined
  for (const { sentence } of rivals.slice(0, tuning.updateRivals))
    if (newest === undefined || compareTimeOrder(sentence, newest) > 0) newest = sentence
  return newest
}

/**
 * What ties a later statement worded as a change to `earlier`, when it is at least `closestSimilarity` close; never
 * a repeat of the earlier line's words:
 * - a move of the speaker's own after where the speaker lives (`movesFromHome`), `sameSubjectSimilarity` close, or
 *   closer only when `earlier` is the line it is most about (`closerEarlierStatements` none);
 * - or it names the subject again (a content term in common, "bookkeeper" meeting "bookkeeping": `subjectTermsOf`),
 *   `sameSubjectSimilarity` close or the line it is most about, among the `updateRivals` lines it is most about (a
 *   statement said again counted once: "I've been playing one more game with friends these days" is about four
 *   other lines before "Have fun exploring different genres of games!"), and no line it is closer to names more of its terms
 *   ("I don't drink coffee anymore" revises "I drink coffee, three cups a day", not "I keep forgetting to drink
 *   water") unless `earlier` is a later change of that line (a value changed twice);
 * - or it names nothing of it ("My phone plan is with Vodafone" → "Switched to Giffgaff last week, it's half the
 *   price"): then `earlier` must be the line it is most about, the statement among the request's `updateLookups`
 *   nearest sentences (it answers what the request asks), and no move (a move revises where the speaker lives, not
 *   whatever line it happens to be near).
 */
function revisesEarlier(
  statement: LaterStatement,
  earlier: ScoredSentence,
  subject: () => SubjectTerms,
  tuning: UpdateTuning,
): boolean {
  const { sentence, similarity } = statement
  const { language, terms } = subject()
  const own = subjectTermsOf(withoutRevisionCues(sentence.text), language)
  if (own.size > 0 && [...own].every((term) => terms.has(term))) return false
  const near = similarity >= tuning.sameSubjectSimilarity
  const home = movesFromHome(earlier.text, sentence.text)
  if (home && near) return true
  const closer = closerEarlierStatements(statement, earlier)
  const mostAbout = closer?.length === 0
  const named = sharedTerms(own, terms)
  // A closer line naming more of the statement is the one it revises, unless `earlier` is itself a change of that
  // line, worded so: "Changed to a desk on the ground floor" revises "Switched desks, room 7 on the fourth floor" too,
  // though "My desk is in room 4B on the second floor" names more of it.
  const namesMore = (line: ScoredSentence) => sharedTerms(own, subjectTermsOf(line.text, language)) > named
  const revision = named > 0 && readsAsRevision(earlier.text)
  if (named > 0)
    return (
      (near || mostAbout) &&
      (closer === undefined || new Set(closer.map((line) => line.text)).size < tuning.updateRivals) &&
      !closer?.some((line) => namesMore(line) && !(revision && compareTimeOrder(line, earlier) < 0))
    )
  if (!mostAbout) return false
  return (
    home || ((statement.requestRank ?? Number.POSITIVE_INFINITY) < tuning.updateLookups && !tellsOwnMove(sentence.text))
  )
}

/** Whether a sentence states something a later line can revise: no question, no event told at a past time. */
function canBeRevised(text: string): boolean {
  return !isQuestion(text) && !tellsPastEvent(text)
}

/**
 * The statements by `earlier`'s speaker, said before `statement` and able to be revised (`canBeRevised`), that are
 * closer to `statement` in meaning than `earlier` is: none when `earlier` is the line it is most about. Undefined
 * when the statement has no `earlierNeighbours`: then `earlier` is not taken as the line it is most about.
 */
function closerEarlierStatements(statement: LaterStatement, earlier: ScoredSentence): ScoredSentence[] | undefined {
  return statement
    .earlierNeighbours?.()
    .filter(
      ({ sentence, similarity }) =>
        similarity > statement.similarity &&
        sentence.sid !== earlier.sid &&
        sentence.role === earlier.role &&
        canBeRevised(sentence.text),
    )
    .map(({ sentence }) => sentence)
}

/** How many of `own` are among `terms`. */
function sharedTerms(own: ReadonlySet<string>, terms: ReadonlySet<string>): number {
  let shared = 0
  for (const term of own) if (terms.has(term)) shared++
  return shared
}

/** An earlier line's language and content terms, as `revisesEarlier` compares a later line with them. */
interface SubjectTerms {
  language: Language | undefined
  terms: Set<string>
}

function subjectTerms(earlier: string): SubjectTerms {
  const language = detectLanguage(earlier)
  return { language, terms: subjectTermsOf(earlier, language) }
}

/**
 * `text`'s content terms (`contentTerms`), in English with agent nouns' "-er" taken off (`subjectTerm`), so that the
 * person meets the activity: the light stemmer keeps "bookkeeper" apart from "bookkeeping" (`english.ts`).
 */
function subjectTermsOf(text: string, language: Language | undefined): Set<string> {
  const terms = contentTerms(text, language)
  return language === 'en' ? new Set([...terms].map(subjectTerm)) : terms
}

/** A term with an agent noun's "-er" taken off ("teacher" → "teach"); only from six letters ("water", "paper" stay). */
function subjectTerm(term: string): string {
  return term.length >= 6 && term.endsWith('er') ? term.slice(0, -2) : term
}

/**
 * Follows each of the first `updateLookups` relevance-ranked candidates of each query (`ScoredSentence.query`, 0 when
 * unset; its best match, the statement the query is most about) that a later statement supersedes
 * (`supersedingStatement` over `laterOf(candidate)`) with that statement,
 * as an `'update'` candidate with the candidate's score, and marks the candidate `supersededBy` the statement's
 * message: a context holding "I drive a Polo" then also holds the later "Sold the Polo, picked up a Kia", and says
 * which stands. The mark is rendered with the candidate's text, so the packer measures it; drop it when the
 * statement does not make it into the context (`withMarksResolved`).
 */
export function* withLaterUpdates(
  ranked: Iterable<ScoredSentence>,
  laterOf: (sentence: ScoredSentence) => Iterable<LaterStatement>,
  tuning: UpdateTuning = CONTEXT_TUNING,
): Generator<ScoredSentence> {
  const looked = new Map<number, number>()
  for (const candidate of ranked) {
    const query = candidate.query ?? 0
    // A question or a past event can be revised by nothing, so it spends no lookup ("I teach maths" ranked ninth).
    const lookup =
      candidate.reason === 'relevant' && (looked.get(query) ?? 0) < tuning.updateLookups && canBeRevised(candidate.text)
    if (lookup) looked.set(query, (looked.get(query) ?? 0) + 1)
    let newer = lookup ? supersedingStatement(candidate, laterOf(candidate), tuning) : undefined
    yield newer === undefined ? candidate : { ...candidate, supersededBy: newer.messageId }
    // A value changed twice: the revision is followed in turn, so that the middle value comes marked too ("a
    // bookkeeper" → "payroll instead of the bookkeeping"); as an update it would otherwise come first and unmarked.
    // Each step is later in time than the last, so the chain ends.
    while (newer !== undefined) {
      const next = supersedingStatement(newer, laterOf(newer), tuning)
      yield { ...newer, score: candidate.score, reason: 'update', ...(next && { supersededBy: next.messageId }) }
      newer = next
    }
  }
}

/**
 * `items` with every `supersededBy` whose message has no sentence among them removed: a mark the reader could not
 * check against the newer statement would only say that something, somewhere, changed. Returns `items` itself when
 * every mark stands.
 */
export function withMarksResolved(items: readonly ScoredSentence[]): readonly ScoredSentence[] {
  const messages = new Set(items.map((item) => item.messageId))
  if (items.every((item) => item.supersededBy === undefined || messages.has(item.supersededBy))) return items
  return items.map((item) => {
    if (item.supersededBy === undefined || messages.has(item.supersededBy)) return item
    const unmarked = { ...item }
    delete unmarked.supersededBy
    return unmarked
  })
}
