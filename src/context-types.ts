// The public types of `buildContext`: its options, and the context it returns.
import type { Role, Backend, Strategy } from './types'

/**
 * The tokenizer a token budget counts with: one of OpenAI's encodings (`'o200k_base'`: GPT-4o and later;
 * `'cl100k_base'`: GPT-4, GPT-3.5), or a Hugging Face `tokenizer.json` the app serves, given as a URL or a path
 * resolved like the model's files (relative to `localModelPath`). Loaded by the engine the first time a budget
 * names it, so an app that budgets in characters loads no tokenizer.
 */
export type TokenizerName = 'o200k_base' | 'cl100k_base' | (string & {})

/** A budget in the LLM's tokens: `ctx.text` counted by `tokenizer` exactly as it is sent, never more than `tokens`. */
export interface TokenBudget {
  /**
   * The most tokens `ctx.text` may count with `tokenizer`; the packer aims at 90–100% of it.
   *
   * Range: an integer ≥ 1; anything else is refused with `INVALID_INPUT`.
   */
  tokens: number
  /**
   * What counts them: `'o200k_base'`, `'cl100k_base'`, or the URL or path of a Hugging Face `tokenizer.json` (a string
   * with a `/` or `\`, or ending in `.json`); another bare name is refused with `INVALID_INPUT` (a misspelt encoding),
   * and a `tokenizer.json` that cannot be read rejects with `MODEL_UNAVAILABLE`.
   */
  tokenizer: TokenizerName
}

/**
 * How `Memory.buildContext` builds a context: its budget, its ranking, its scope, and the sections it holds besides the
 * excerpts (recent turns, summaries). Every option is optional; a value of the wrong type or out of its range is
 * refused with `INVALID_INPUT` naming it.
 */
export interface BuildContextOptions {
  /**
   * How large `ctx.text` may be: characters (labels and gap markers included), or a `TokenBudget` in the LLM's tokens,
   * counted on the very text returned. Never exceeded, except by `strategy: 'full'`.
   *
   * Range: an integer ≥ 1 of characters, or a `TokenBudget`.
   *
   * @defaultValue `8000` characters
   */
  budget?: number | TokenBudget
  /**
   * How the sentences are chosen: `hybrid` fuses `dense` (similarity of meaning to the request) and `lexical` (BM25
   * over its words) by reciprocal rank fusion; `head`, `tail` and `full` take the history's first sentences, its last,
   * or all of it (reference baselines).
   *
   * @defaultValue `'hybrid'`
   */
  strategy?: Strategy
  /**
   * Only use this conversation's history. A conversation with nothing stored (a new chat's first request) is not an
   * error: the context is empty and `stats.historySentences` is 0.
   *
   * @defaultValue every conversation
   */
  conversationId?: string
  /**
   * Include the last N turns (messages) of the scope verbatim, inside the same budget: the latest by `timestamp` (ties:
   * the later added). All of them when N exceeds the scope's turns.
   *
   * Range: an integer ≥ 0.
   *
   * @defaultValue `0`
   */
  recentTurns?: number
  /**
   * Leave the latest N turns (messages) of the scope out of the context: the ones the app sends the LLM verbatim
   * after it, so that no excerpt repeats them. The context is then built as if the scope ended before them
   * (`recentTurns` pins the N turns before those; `head`, `tail` and `full` stop there too); `stats.historyChars` and
   * `historySentences` still count the whole scope. The latest by `timestamp`, as for `recentTurns`; all of them when
   * N exceeds the scope's turns (the context is then empty).
   *
   * Range: an integer ≥ 0.
   *
   * @defaultValue `0`
   */
  excludeRecent?: number
  /**
   * The conversation summaries (`Memory.setSummary`) a context holds, after the pinned messages and before the rest:
   * the scope's (every conversation's when unscoped, oldest first), each whole or not at all, together in at most
   * `maxShare` of the budget (in characters, or in the tokenizer's tokens for a token budget), chosen newest first. A
   * summary that does not fit is named in `stats.summary.left`, never cut (with `maxShare: 0`, every one); `false`
   * leaves them out unnamed.
   *
   * @defaultValue `{ maxShare: 0.25 }`
   */
  summary?:
    | false
    | {
        /**
         * The share of the budget the summaries may take together.
         *
         * Range: a number from 0 to 1 (0: none fits, each is named as left out).
         *
         * @defaultValue `0.25`: a summary is a help beside the originals, not their stand-in
         */
        maxShare?: number
      }
  /**
   * Extra queries; candidates from each query are taken round-robin so no single query monopolises the budget. Each
   * is embedded and ranked on its own, and their characters count towards `MemoryOptions.maxRequestChars`. At most
   * 32 strings; more is refused with `INVALID_INPUT`.
   *
   * @defaultValue none: the request alone
   */
  queries?: string[]
  /**
   * Stop before the budget is full when relevance falls off a cliff: the next few ranked sentences score below
   * half the mean of the best few (`stats.stoppedBy` is then `'cliff'`). Default false. Saves characters (and the
   * model's attention) when only a few sentences are relevant, at the cost of recall when the answer sits below
   * the cliff (weakly worded evidence, or questions whose words match only chit-chat); on LoCoMo it halves the
   * characters hybrid uses at 8,000 for a few points of recall, and lexical stops far too early (BENCHMARKS.md).
   * Ignored by head, tail and full.
   *
   * @defaultValue `false`
   */
  adaptiveStop?: boolean
  /**
   * Follow the best-ranked matches with a later statement that revises them (`reason: 'update'`), and mark the older
   * line (`ContextItem.supersededBy`, ` [may be updated below]` in `text`), so a superseded value ("I bank with
   * Barclays") comes with what replaced it ("I've switched over to Monzo") and the reader can tell which stands. A
   * later statement revises an earlier one when it is by the same speaker (or by the other and confirmed in the
   * speaker's next turn: "So you're with Virgin now?" — "That's right"), close in meaning, names the subject again
   * (a shared word, or a move after where the speaker lives), and is worded as a change ("switched to", "no longer",
   * "these days", "we moved again", "actually it's", "now I …"); more of the same story ("Visited my sister in Dublin
   * again") and events told at a past time are not followed. The wordings are English: other languages are not
   * followed. `false` turns it off: each line then comes for its relevance alone. Sentences not embedded yet are not
   * followed. Ignored by head, tail and full. BENCHMARKS.md, "Updates by default", has what it marks and misses.
   *
   * @defaultValue `true`
   */
  followUpdates?: boolean
  /**
   * A line `ctx.text` starts with when it holds anything (e.g. `'Excerpts from earlier in this conversation:'`),
   * followed by a line break and counted inside the budget, in characters or in the tokenizer's tokens, like the rest:
   * what the app sends is then within the budget as a whole. At most 1,000 characters (longer is refused with
   * `INVALID_INPUT`); `''` is none.
   *
   * @defaultValue none
   */
  heading?: string
}

/** One selected sentence, in chronological order within `Context.items`. */
export interface ContextItem {
  /** The id of the message the sentence is from. */
  messageId: string
  /** The message's conversation. */
  conversationId: string
  /** The message's `seq` (its place in the order messages were added). */
  seq: number
  /** Who said the message. */
  role: Role
  /** The sentence, without the ` [may be updated below]` that follows it in `Context.text` when `supersededBy` is set. */
  text: string
  /** Relevance score used for ranking (strategy-dependent; 0 for head/tail/full/recent). */
  score: number
  /** Offsets of `text` in the message's content. */
  start: number
  /** Where `text` ends in the message's content (exclusive). */
  end: number
  /** When the message was said: epoch milliseconds. */
  timestamp: number
  /**
   * Why this sentence is in the context: a sentence of a pinned message (`Memory.pin`), retrieved for relevance, one of the `recentTurns`, a head/tail/full pick,
   * the neighbour of a retrieved one (the answer to a retrieved question; for the best matches, the reply, the same
   * speaker's next turn and the turn a question before them was about; the question a short reply answers), or a
   * later statement by the same speaker on the same subject as a retrieved one (`'update'`: "we moved to Lisbon"
   * after "I moved to Porto").
   *
   * Sift emits `'neighbor'` for a neighbour, never `'neighbour'`: that earlier spelling is deprecated, kept in the type
   * only so that code written against it still compiles. Compare with `'neighbor'`.
   */
  reason: 'pinned' | 'relevant' | 'recent' | 'neighbor' | 'position' | 'update' | 'neighbour'
  /**
   * Where the rankings put it (1 the best), for a `'relevant'` item of `lexical`, `dense` or `hybrid`: `lexical`
   * when it shares a word with the query that found it (BM25), `dense` when it has a vector (similarity). In
   * `hybrid` both may be there, and `fused` is what ordered it. Absent for the other reasons: a neighbour or an
   * update was brought by the item before it, not ranked.
   */
  ranks?: ItemRanks
  /**
   * `hybrid` only: its reciprocal-rank fusion score for the query that found it, 1 / (60 + dense rank) plus its
   * lexical share (0–1, lower when the words it shares cover little of the query) times what 1 / (60 + lexical rank)
   * holds above 1 / (60 + the rank of a sentence no word matches: the lexical list's length + 1, at least 100).
   */
  fused?: number
  /** Which query found it: 0 the request, i the i-th of `BuildContextOptions.queries`. Set for `'relevant'` items. */
  query?: number
  /**
   * With `followUpdates` (the default): the id of a later message, also in this context, that revises this sentence
   * (by the same speaker or confirmed by them, close in meaning, worded as a change: "Switched to Giffgaff" after "My
   * phone plan is with Vodafone"). `text` then carries ` [may be updated below]` after the sentence. A guess from the
   * wording and similarity of meaning, not a verdict.
   */
  supersededBy?: string
}

/** An item's rank in each ranking that holds it (1-based): BM25 over words, and similarity of meaning. */
export interface ItemRanks {
  /** Its rank by BM25 among the sentences sharing a word with the query; absent when it shares none. */
  lexical?: number
  /** Its rank by similarity of meaning to the query; absent without a vector, or when the dense ranking was not run. */
  dense?: number
}

/** Why packing stopped: the budget reached ≥ 90% fill, candidates ran out (history thinner than the budget, or nothing relevant left), or relevance fell off a cliff. */
export type StopReason = 'budget' | 'exhausted' | 'cliff'

/** What a context took and how it was built (`Context.stats`). */
export interface ContextStats {
  /** The character budget; for a token budget, the characters the packer was last given to reach it. */
  budget: number
  /** `text.length`. */
  used: number
  /** used / budget. */
  fill: number
  /** Set for a token budget: the tokens `text` counts with its tokenizer, and the share of the budget they fill. */
  tokens?: TokenStats
  /** Set when the scope has pinned messages: what their section took, and the pins that did not fit. */
  pinned?: PinnedStats
  /** Set when the scope has a summary slot in use: what the summaries took, which did not fit, which a forget dropped. */
  summary?: SummaryStats
  /** Characters of all message contents in scope. */
  historyChars: number
  /** Sentences in scope. */
  historySentences: number
  /** The strategy asked for (`BuildContextOptions.strategy`). */
  strategy: Strategy
  /** The ranking that chose the sentences: `strategy`, or `'lexical'` when `hybrid`/`dense` could not embed the request (`degraded` says why). */
  ranking: Strategy
  /** Set only when `ranking` differs from `strategy`: why the model could not embed the request (the `MODEL_UNAVAILABLE` message). */
  degraded?: string
  /** The backend the model runs on. */
  backend: Backend
  /** Why packing stopped. */
  stoppedBy: StopReason
  /** Ranked candidates looked at while packing. */
  candidatesConsidered: number
  /** Sentences not yet embedded when the context was built (dense/hybrid missed them). */
  pending: number
  /** Wall-clock milliseconds spent in buildContext. */
  ms: number
  /**
   * Of `ms`, the milliseconds before ranking began: embedding the request and its queries, and readying what the
   * context needs (the word-neighbour table and the tokenizer on first use, the pins and summaries in scope).
   */
  queryMs: number
  /**
   * The language the request's words were analysed in (their stop words and stems, ISO 639-1), as detected, preferring
   * the languages of the history in scope; absent when none could be told, and for head, tail and full.
   */
  language?: string
  /**
   * `hybrid` only, when the model is not to be trusted with the request: how much its dense ranking counted in the
   * fusion (`weight`, below 1; at 0 the sentences matching the request's words come first, in the words' order, and
   * the dense ranking orders only the rest), and why: `'unknown-text'`, most of the request's letters are unknown
   * to the model's tokenizer (Chinese for the shipped English model), or `'other-language'`, the request is in a
   * language the model was not trained on (`EmbeddingOptions.languages`).
   */
  denseTrust?: DenseTrust
}

/** How much `hybrid`'s fusion let the dense ranking count for a request it may not understand (`ContextStats.denseTrust`). */
export interface DenseTrust {
  /** 0–1: what a sentence's dense reciprocal rank is multiplied by in the fusion. */
  weight: number
  /**
   * `'unknown-text'`: most of the request's letters are unknown to the model's tokenizer; `'other-language'`: the
   * request is in a language the model was not trained on (`EmbeddingOptions.languages`).
   */
  reason: 'unknown-text' | 'other-language'
}

/** What the conversation summaries took (`ContextStats.summary`). */
export interface SummaryStats {
  /** The conversations whose summary the context holds, in the order they appear. */
  conversations: string[]
  /** Characters of the summaries' section, headers and the breaks around it included. */
  chars: number
  /** Conversations whose summary did not fit in its share of the budget: never dropped silently. */
  left: string[]
  /** Conversations whose summary a `forget` dropped and the app has not set again: the app should write a new one. */
  dropped: string[]
}

/** What the pinned messages took (`ContextStats.pinned`). */
export interface PinnedStats {
  /** The pinned messages in the context, whole or in part, in pin order. */
  messages: string[]
  /** Characters of the pinned section, its header and the break after it included. */
  chars: number
  /** Pinned messages left out, whole or in part, because the budget could not hold them: never dropped silently. */
  left: string[]
}

/** What a token budget used (`ContextStats.tokens`). */
export interface TokenStats {
  /** The budget's `tokens`. */
  budget: number
  /** `text` counted by `tokenizer`, as the LLM will count it: never more than `budget` (except for `strategy: 'full'`). */
  used: number
  /** used / budget. */
  fill: number
  /** The budget's `tokenizer`. */
  tokenizer: TokenizerName
}

/** What `Memory.buildContext` returns: the text to send the LLM, the sentences it holds, and how it was built. */
export interface Context {
  /** Rendered context: chronological, role-labelled, gaps marked with `[…]`. */
  text: string
  /** The sentences in `text`: the pinned ones first (`reason: 'pinned'`), then the rest in chronological order. */
  items: ContextItem[]
  /**
   * `text` in the two parts a chat request sends apart (`chatPrompt`, the middleware): what changes only when the app
   * pins or summarises, and what changes with every request.
   */
  sections: ContextSections
  /** What it took of the budget, and how it was built. */
  stats: ContextStats
}

/**
 * A context's text split where a provider's prompt cache needs it (`Context.sections`). The heading
 * (`BuildContextOptions.heading`) is in neither, nor is the `From the conversation:` line between them: with a pin
 * or a summary, `text` is the heading's line, `stable`, a blank line, that line and `excerpts`; otherwise the
 * heading's line and `excerpts`.
 */
export interface ContextSections {
  /**
   * The sections before the conversation, each under its own header (`Pinned:`, `Summary of the conversation up to
   * …:`) and joined by a blank line: the same from one request to the next until the app pins, unpins or sets a
   * summary, so it belongs in the prompt's cached prefix. `''` when the context holds none.
   */
  stable: string
  /** The conversation's lines: the recent turns and the excerpts ranked for the request. `''` when none. */
  excerpts: string
}
