import { tuningValues, type TuningTable, type TuningValues } from '../util/tuning-table'

/**
 * How the selection stages order and widen a request's ranked candidates before the packer takes them
 * (`assembleContext`: relevance cliff, repeats, passage spread, answer neighbours, later updates). Each entry says
 * what it means, its unit, the values tried and the BENCHMARKS.md row that has their figures; a switch turns a
 * mechanism off to re-run its ablation row (`npm run bench:recall -- --tune NAME=VALUE`). The ranking before them has
 * its own table (`worker/rank/rank-tuning.ts`).
 */
export const CONTEXT_TUNING_TABLE = {
  /**
   * `adaptiveStop` ends the candidates once the mean score of the next `cliffWindow` relevant ones is below this
   * share of the mean of the best `cliffWindow`: lower stops later (closer to filling the budget), higher sooner. A
   * share of the best mean. Tried: 0.5, 0.3 (BENCHMARKS.md, "Opt-in options").
   */
  cliffRatio: { value: 0.5, range: 'amount' },
  /** How many relevant candidates make up "the best ones" and "the next ones" for the cliff: one outlier cannot stop packing alone. Candidates. Tried: 3 only (same section). */
  cliffWindow: { value: 3, range: 'count' },
  /**
   * Repeats of an earlier candidate's normalised text come only after every distinct candidate (`distinctSentences`).
   * Tried: off and on (BENCHMARKS.md, "Ablation before issue 13", the repeats row).
   */
  repeatsLast: { value: true, range: 'switch' },
  /**
   * Sentences of one message at most this many sentences apart are one passage, whose other sentences wait until
   * every passage's best one was offered (`spreadOverPassages`); a chat turn is one passage, a long message several.
   * 0 makes every sentence a passage of its own: the spread is off. Sentences. Tried: the whole message, 2, 3; held
   * back for the next 5, 20 or 50 candidates instead of until the end (BENCHMARKS.md, "Ablation, issue 13", the
   * passage row and "One sentence per passage first").
   */
  passageRadius: { value: 3, range: 'count' },
  /**
   * The sentences right after an offered one that the passage spread does not hold back, when `hybrid` does not
   * trust the dense ranking with the request (`denseTrust`): they continue it ("The kitchen is in at last! The
   * fitter, Vadim, took two days."), and that is where the fact a request's words matched is often said, most of all
   * in a language whose sentences are short clauses (Japanese, Korean). Sentences. Tried: 0, 1, 2, and 1 for every
   * request (BENCHMARKS.md, "Languages", the follower rows: LoCoMo loses there).
   */
  passageFollowers: { value: 2, range: 'count' },
  /**
   * A ranked question brings the opening of the next turn, its answer (`withAnswerNeighbours`). Tried: off and on
   * (BENCHMARKS.md, "Ablation before issue 13", the neighbour row).
   */
  questionAnswers: { value: true, range: 'switch' },
  /**
   * The best relevant candidates ("leads") that bring the reply to them even when they do not ask, at a budget of up
   * to `leadBudget` characters: the turn after the sentence that matches a request best often carries the fact. Only
   * the first few, since each costs budget lower-ranked matches would otherwise get. 0: no leads. Candidates. Tried:
   * 1, 3, 6, 10 (BENCHMARKS.md, "Ablation, issue 13", the reply-leads row and "Reply leads").
   */
  replyLeads: { value: 3, range: 'count' },
  /**
   * The budget that carries `replyLeads` leads; a bigger one gets as many more for every `leadBudget` characters
   * (rounded: 12 at 8,000), never fewer below it. A value above any budget (1e9) keeps `replyLeads` at every budget.
   * Characters. Tried: 3 leads at every budget; 5, 8, 12 at 8,000; 1 at 500 and 2 at 1,000 (BENCHMARKS.md,
   * "Ablation, issue 13", the leads-in-proportion row and "Leads in proportion to the budget").
   */
  leadBudget: { value: 2000, range: 'positive' },
  /**
   * A lead that does not ask brings, after its reply, the opening of its speaker's next turn (the continuation): the
   * reply mostly asks for more, and the answer goes on with the subject. Tried: off, and for the first 1, 2, 3, 5 or
   * 8 relevant candidates, only after a reply that asks, 3 or 4 turns on (BENCHMARKS.md, "Ablation, issue 13", the
   * continuation row and "The continuation").
   */
  continuation: { value: true, range: 'switch' },
  /**
   * A lead that does not ask and answers another speaker's question brings the closing of its speaker's turn before
   * that question, what was asked about. Tried: off, on, without the question condition (BENCHMARKS.md, "Ablation,
   * issue 13", the last row and "What was asked about").
   */
  askedAbout: { value: true, range: 'switch' },
  /**
   * A short reply that opens its turn ("Yes, the second one!") brings the closing sentence of the turn it answers.
   * Tried: off and on (BENCHMARKS.md, "Ablation, issue 13", the short-reply row).
   */
  shortReplies: { value: true, range: 'switch' },
  /** A turn that opens with at most this many content words is a short reply. Content words. Tried: 2, 3, 4 (same row, "Short replies"). */
  shortReplyTerms: { value: 3, range: 'count' },
  /**
   * For `followUpdates`: the cosine of their stored vectors at which a later statement is taken as on the same
   * subject as an earlier one; low enough for a revision worded anew, so it also admits more of the same story, which
   * the wording test (`revision-cues.ts`), `updateRivals` and the newest-wins rule sort out. Cosine. Tried: 0.4, 0.45, 0.5 (BENCHMARKS.md, "Updates").
   */
  sameSubjectSimilarity: { value: 0.45, range: 'weight' },
  /**
   * For `followUpdates`: the cosine of their stored vectors below which a later statement is never taken as revising
   * an earlier one, even when the earlier line is the one it is most about (a revision sharing no word with it,
   * "Vodafone" → "Switched to Giffgaff"). Cosine, below `sameSubjectSimilarity`. Tried: 0.4 only (BENCHMARKS.md,
   * "Updates by default", the revisions' links).
   */
  closestRevisionSimilarity: { value: 0.4, range: 'weight' },
  /**
   * How many of the closest later statements compete, the newest winning: the closest alone is often someone else's
   * fact in the same words. Statements. Tried: 1, 2, 3 (same section).
   */
  updateRivals: { value: 2, range: 'count' },
  /**
   * Relevant candidates per query looked at for a later update: each lookup may bring a line (and a mark) that takes
   * budget from evidence, but only a statement worded as a change qualifies (`revision-cues.ts`), so few do. Candidates.
   * Tried: 1, 2, 5 before the wording test (same section); with it 1, 4, 6, 8, 10 (BENCHMARKS.md, "Updates by default").
   */
  updateLookups: { value: 8, range: 'count' },
  /**
   * Sentences nearest each query in meaning offered as later statements of every looked-up candidate: a revision of
   * what the request asks about is about the request too, even when it ranks too low to be packed. Sentences. Tried:
   * 100 only (same section).
   */
  requestNeighbours: { value: 100, range: 'count' },
  /** Later sentences sharing a looked-up candidate's words (its own BM25) also offered. Sentences. Tried: 20 only (same section). */
  lexicalNeighbours: { value: 20, range: 'count' },
  /**
   * A token budget packs characters and counts the text it made; this is the share of the characters it was given at
   * which one packing stops, so that the count lands in a narrow band below the target. Share of the character budget.
   * Tried: 0.97 only (BENCHMARKS.md, "Token budgets").
   */
  tokenPackFill: { value: 0.97, range: 'share' },
  /**
   * The share of a token budget a packing must reach to be kept as it is: below it, the budget is packed again with
   * more characters when the history has more, and then topped up candidate by candidate (`tokenTopUps`). Share of
   * the token budget. Tried: 0.9 only (BENCHMARKS.md, "Token budgets").
   */
  tokenMinFill: { value: 0.9, range: 'share' },
  /**
   * The share of a token budget the next packing aims at, from the characters per token the last one measured: close
   * to 1 fills more, but more packings then go over and are made again. Share of the token budget. Tried: 0.985 only
   * (same section).
   */
  tokenTarget: { value: 0.985, range: 'share' },
  /**
   * Packings a token budget may take to land between `tokenMinFill` and all of the budget; if none did, it keeps the fullest one
   * within the budget (and shrinks until one is, if every one went over). Packings. Tried: 8 only (same section).
   */
  tokenRounds: { value: 8, range: 'count' },
  /**
   * Candidates a token budget still under `tokenMinFill` after its rounds looks at, one by one, for one that fits the tokens
   * left (each counted with the whole text): a budget of a few lines, where the next line in order goes over. Candidates.
   * Tried: 32 only (same section).
   */
  tokenTopUps: { value: 32, range: 'count' },
} satisfies TuningTable

/** The selection stages' tuning. */
export type ContextTuning = TuningValues<typeof CONTEXT_TUNING_TABLE>

/** The selection stages' tuning as shipped. */
export const CONTEXT_TUNING: ContextTuning = tuningValues(CONTEXT_TUNING_TABLE)
