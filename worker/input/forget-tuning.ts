import { tuningValues, type TuningTable, type TuningValues } from '../util/tuning-table'

/**
 * How a "forget that I …" request is found inside a message and its topic taken out (`forget-cue-score.ts`,
 * `forget-request-topic.ts`). Each entry says what it means, its unit, the values tried and the BENCHMARKS.md rows that
 * have their figures ("Forget requests in any wording"): tuned on the wordings set's tune half and the forget set's
 * conversations 1–3, the held-out half measured only with the values kept.
 *
 * Every entry is `fixed`: the topic is taken when `findForgettable`'s input is read, before any memory's `tuning`.
 */
export const FORGET_TUNING_TABLE = {
  /**
   * A cue word of at least this many letters, stemmed, also matches a word whose stem starts with it ("olvid" matches
   * "olvídalo", "record" matches "recorded"); a shorter one only matches its own stem ("part" would match "partner").
   * Letters. Tried: 5, 6 and none (exact stems only).
   */
  cuePrefixLetters: { value: 5, range: 'count', fixed: true },
  /**
   * What a word that points back at what was said ("what I told you about", "the bit"), or a negation, adds to a
   * clause's cue score,
   * where a cue (asking, retracting, a negated keeping or truth word) adds 1 per kind. A share of a cue. Tried: 0, 0.5.
   */
  pointingWeight: { value: 0.5, range: 'share', fixed: true },
  /**
   * A keeping or truth word (`LanguageCues.negated`) is a cue when a negation stands at most this many words from it
   * ("didn't keep", "ya no es cierto", "stimmt nicht mehr"), so that a clause's other words ("… where our savings
   * are") are not taken for one. Words. Tried: 3, and the whole clause.
   */
  negationReach: { value: 3, range: 'count', fixed: true },
  /**
   * A sentence whose best clause scores at least this is part of the request; when none does, the message is ranked
   * whole. Cue score. Tried: 1 only (one cue of any kind).
   */
  minRequestScore: { value: 1, range: 'positive', fixed: true },
  /**
   * A request's cue clauses left with fewer content words than this once their frame words are taken out name no topic
   * of their own ("Bórralo de tu memoria, por favor.", "so don't keep that"): the text just before them (the sentence's
   * previous clause, else the previous sentence; the next when there is none) is ranked with them, since a request
   * points back at what it has just said. Content words. Tried: 1 and 2 (2026-12-02, forget set), 2 and 3.
   */
  minTopicTerms: { value: 2, range: 'count', fixed: true },
  /**
   * A verb of forgetting or removing, or a keeping word, with a speaker or another person's subject or auxiliary at
   * most this many words before it ("I forgot", "I never remember", "je ne sais plus", "mein Vater hat vergessen") is
   * told of, not asked for: no cue. Words. Tried: 2, 3, 4.
   */
  subjectReach: { value: 3, range: 'count', fixed: true },
  /**
   * A removing verb asks to remove what was said when a pointer ("it", "that", "eso", "das") or a pointing word ("the
   * bit", "what I told you") stands at most this many words from it, on either side ("drop that bit", "das kannst du
   * streichen"); farther, it is more often another thing's ("delete the first paragraph … and make it funnier"). Words.
   * Tried: 2, 3, 4.
   */
  objectReach: { value: 3, range: 'count', fixed: true },
  /**
   * A verb of forgetting with a negation at most this many words before it, or right after it, asks to remember
   * ("don't forget to …", "n'oublie pas", "vergiss nicht"): no cue. Words. Tried: 2 (also after it: "ignore the
   * no-pork rule" was lost).
   */
  negatedForgettingReach: { value: 2, range: 'count', fixed: true },
} satisfies TuningTable

/** How a forget request is found and its topic taken. */
export type ForgetTuning = TuningValues<typeof FORGET_TUNING_TABLE>

/** How a forget request is found and its topic taken, as shipped. */
export const FORGET_TUNING: ForgetTuning = tuningValues(FORGET_TUNING_TABLE)
