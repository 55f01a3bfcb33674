import { compareTimeOrder } from '../../src/core/render-context'
import type { ScoredSentence } from '../../src/core/scored-sentence'
import { isQuestion } from './answer-neighbours'
import { CONTEXT_TUNING, type ContextTuning } from './context-tuning'
import { movesFromHome, readsAsRevision, speaksOfListener, tellsPastEvent, withoutRevisionCues } from './revision-cues'
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
}

/** What the update rules read of the selection's tuning. */
export type UpdateTuning = Pick<ContextTuning, 'sameSubjectSimilarity' | 'updateRivals' | 'updateLookups'>

/**
 * Which later statement supersedes `earlier`, if any: among `later`, those by the same speaker in the same
 * conversation (or by the other one and confirmed: `LaterStatement.confirmed`), later in time (`compareTimeOrder`),
 * worded as a change (`readsAsRevision`: "switched to", "no longer", "these days", "now I" — a speaker's later lines on
 * a subject are mostly more of the same story, not revisions) and of the speaker, not the listener (`speaksOfListener`) and at least `sameSubjectSimilarity` close in meaning (low
 * enough for a revision worded anew: "I drive a Polo" → "Sold the Polo at last, picked up a Kia"), the
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
  tuning: Omit<UpdateTuning, 'updateLookups'> = CONTEXT_TUNING,
): ScoredSentence | undefined {
  if (isQuestion(earlier.text) || tellsPastEvent(earlier.text)) return undefined
  const rivals: LaterStatement[] = []
  // The earlier line's language and content terms, read once for all its later statements that get this far.
  let terms: SubjectTerms | undefined
  const subject = () => (terms ??= subjectTerms(earlier.text))
  for (const statement of later) {
    const { sentence, similarity, confirmed = false } = statement
    // The cheap tests first: most later statements are not close enough, and the wording tests read the text.
    if (
      !(similarity >= tuning.sameSubjectSimilarity) ||
      sentence.conversationId !== earlier.conversationId ||
      (sentence.role !== earlier.role && !confirmed) ||
      compareTimeOrder(sentence, earlier) <= 0 ||
      sentence.sid === earlier.sid
    )
      continue
    if (
      ((isQuestion(sentence.text) || speaksOfListener(sentence.text)) && !confirmed) ||
      !readsAsRevision(sentence.text) ||
      !(namesTheSubjectAnew(subject(), sentence.text) || movesFromHome(earlier.text, sentence.text))
    )
      continue
    rivals.push(statement)
  }
  rivals.sort((a, b) => b.similarity - a.similarity || compareTimeOrder(b.sentence, a.sentence))
  let newest: ScoredSentence | undefined
  for (const { sentence } of rivals.slice(0, tuning.updateRivals))
    if (newest === undefined || compareTimeOrder(sentence, newest) > 0) newest = sentence
  return newest
}

/**
 * Whether `later` shares a content term (`contentTerms`) with the earlier line (`subjectTerms`) outside its wordings of a change
 * (`withoutRevisionCues`): the subject or the old value a revision names again ("closed the Barclays account", "the
 * cafe hours"). Not when it says the same (a repeat is no revision).
 */
function namesTheSubjectAnew({ language, terms }: SubjectTerms, later: string): boolean {
  const own = contentTerms(withoutRevisionCues(later), language)
  if (own.size === 0 || [...own].every((term) => terms.has(term))) return false
  for (const term of own) if (terms.has(term)) return true
  return false
}

/** An earlier line's language and content terms, as `namesTheSubjectAnew` compares a later line with them. */
interface SubjectTerms {
  language: Language | undefined
  terms: Set<string>
}

function subjectTerms(earlier: string): SubjectTerms {
  const language = detectLanguage(earlier)
  return { language, terms: contentTerms(earlier, language) }
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
    const lookup = candidate.reason === 'relevant' && (looked.get(query) ?? 0) < tuning.updateLookups
    if (lookup) looked.set(query, (looked.get(query) ?? 0) + 1)
    const newer = lookup ? supersedingStatement(candidate, laterOf(candidate), tuning) : undefined
    if (newer === undefined) {
      yield candidate
      continue
    }
    yield { ...candidate, supersededBy: newer.messageId }
    yield { ...newer, score: candidate.score, reason: 'update' }
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
