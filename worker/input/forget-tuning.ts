import { tuningValues, type TuningTable, type TuningValues } from '../util/tuning-table'

/**
 * How a "forget that I …" request is found inside a message and its topic taken out (`forget-cue-score.ts`,
 * `forget-request-topic.ts`). Each entry says what it means, its unit, the values tried and the BENCHMARKS.md rows that
 * have their figures ("Forget requests in any wording", "The request signal"): tuned first on the wordings set's tune
 * half and the forget set's conversations 1–3; since 2026-12-07 on the fresh set, the wordings set and the forget set
 * whole, a second fresh set held out.
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
   * A request whose sentences (their cue clauses and the clauses before them) are left with fewer content words than
   * this once their frame words are taken out names no topic of its own ("Bórralo de tu memoria, por favor.", "so
   * don't keep that"): each of its sentences brings the text it points at (the sentence's next clause, else the
   * previous sentence, else the next), since a request points back at what it has just said. Content words. Tried: 1 and 2 (2026-12-02, forget set), 2 and 3; 1 and 2
   * again once addressing words left the topic (BENCHMARKS.md, "The request signal").
   */
  minTopicTerms: { value: 2, range: 'count', fixed: true },
  /**
   * A verb of forgetting or removing, or of the speaker's own remembering, with a subject or auxiliary of the speaker
   * or another person at most this many words before it ("I forgot", "I never remember", "je ne sais plus", "mein Vater
   * hat vergessen") is told of, not asked for: no cue. Words. Tried: 3 only (BENCHMARKS.md, "The request signal").
   */
  subjectReach: { value: 3, range: 'count', fixed: true },
  /**
   * A removing verb asks to remove what was said when a pointer ("it", "that", "eso", "das") or a pointing word ("the
   * bit", "what I told you") stands at most this many words from it, on either side ("drop that bit", "das kannst du
   * streichen"); farther, it is more often another thing's ("delete the first paragraph … and make it funnier"). Words.
   * Tried: 3 only (BENCHMARKS.md, "The request signal").
   */
  objectReach: { value: 3, range: 'count', fixed: true },
  /**
   * A verb of forgetting with a negation at most this many words before it, or right after it, asks to remember
   * ("don't forget to …", "n'oublie pas", "vergiss nicht"): no cue. Words. Tried: 2, on both sides at first, which
   * lost a tune-set request ("ignore the no-pork rule"); before it and right after it kept.
   */
  negatedForgettingReach: { value: 2, range: 'count', fixed: true },
} satisfies TuningTable

/** How a forget request is found and its topic taken. */
export type ForgetTuning = TuningValues<typeof FORGET_TUNING_TABLE>

/** How a forget request is found and its topic taken, as shipped. */
export const FORGET_TUNING: ForgetTuning = tuningValues(FORGET_TUNING_TABLE)
