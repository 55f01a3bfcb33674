// The public types of the calls that manage the stored history: forget, findForgettable, messages, export, import.
import type { Role, StoredMessage } from './types'

/**
 * Which messages `forget` removes: one `id`, several `ids` (ids not stored are skipped), a whole `conversationId`, or
 * every message dated strictly `before` or strictly `after` a time (epoch milliseconds, an ISO 8601 string or a Date);
 * or, with `sentences`, only some sentences of stored messages (`ForgetSentence`), the rest of each message kept.
 */
export type ForgetSelector =
  | {
      /** One message's id (a non-empty string); an id not stored removes nothing. */
      id: string
    }
  | {
      /** Messages' ids, each a non-empty string; ids not stored are skipped, and an empty list removes nothing. */
      ids: string[]
    }
  | {
      /** Every message of this conversation (a non-empty string). */
      conversationId: string
    }
  | {
      /**
       * Every message dated strictly before this time (`MessageInput.timestamp`), to the fraction of a millisecond.
       *
       * Range: as `MessageInput.timestamp`: epoch milliseconds within ±8.64e15, an ISO 8601 string or a valid Date.
       */
      before: number | string | Date
    }
  | {
      /**
       * Every message dated strictly after this time, to the fraction of a millisecond.
       *
       * Range: as `MessageInput.timestamp`: epoch milliseconds within ±8.64e15, an ISO 8601 string or a valid Date.
       */
      after: number | string | Date
    }
  | {
      /** Only these sentences of stored messages, each message's other sentences kept; an empty list removes nothing. */
      sentences: ForgetSentence[]
    }

/**
 * One sentence of a stored message for `forget({ sentences })`, by its offsets in the message's content, as
 * `findForgettable` gives them (`ForgettableMatch.messageId`, `ForgettableSentence.start` / `end`). It is removed from
 * the stored text and from every index, and the message's other sentences stay as they were; a message left with no
 * sentence is removed whole. The offsets must be those of one of the message's sentences as stored now (a message
 * whose sentences were removed since has new offsets: ask `findForgettable` again), else the whole call is refused
 * with `INVALID_INPUT` and nothing is removed; a message no longer stored is skipped.
 */
export interface ForgetSentence {
  /** The id of the stored message the sentence is in (a non-empty string). */
  messageId: string
  /**
   * Where the sentence starts in the message's content (`ForgettableSentence.start`).
   *
   * Range: an integer ≥ 0, below `end`.
   */
  start: number
  /**
   * Where it ends in the message's content, exclusive (`ForgettableSentence.end`).
   *
   * Range: an integer above `start`.
   */
  end: number
}

/**
 * What `memory.messages` lists: one page of the stored messages in `seq` order (the order they were added), oldest
 * first, or newest first with `newestFirst`.
 */
export interface MessagesOptions {
  /**
   * Only this conversation's messages.
   *
   * @defaultValue every conversation
   */
  conversationId?: string
  /**
   * Cursor: only messages with a `seq` above this one (the previous page's `next`).
   *
   * Range: an integer ≥ 0.
   *
   * @defaultValue `0`: from the first
   */
  after?: number
  /**
   * Cursor: only messages with a `seq` below this one (the previous page's `next` with `newestFirst`).
   *
   * Range: an integer ≥ 1, or `Infinity`.
   *
   * @defaultValue `Infinity`: up to the last
   */
  before?: number
  /**
   * The page holds the newest messages in range, newest first, and `next` is passed as `before`: what a chat shows
   * after a reload, its last turns, without reading the whole history.
   *
   * @defaultValue `false`: the oldest first
   */
  newestFirst?: boolean
  /**
   * Messages per page. A page is read from the database and sent to the page in one message, so a larger one holds
   * the engine longer and a smaller one takes more calls to list a long history.
   *
   * Range: an integer from 1 to 1,000.
   *
   * @defaultValue `100`
   */
  limit?: number
  /**
   * Only the messages with these ids that are stored (at most 1,000 ids; an id not stored is left out), in `seq`
   * order, in one page: whether a message the app shows is still stored, and its text now (a `forget` of some of its
   * sentences rewrites it). The other options still narrow it.
   *
   * @defaultValue none: every message in range
   */
  ids?: string[]
}

/** One page of `memory.messages`. */
export interface MessagePage {
  /** In `seq` order (descending with `newestFirst`), each with its full stored content. */
  messages: StoredMessage[]
  /** Pass it as `after` for the next page (as `before` with `newestFirst`); absent on the last page. */
  next?: number
  /**
   * The memory's forget revision when the page was read: how many forgets had removed anything (0 before the first),
   * kept across reloads and the same in every tab. Pass it as `setSummary`'s `asOf` with a summary written from the
   * page, so that a forget in the meantime cannot leave forgotten words in a current summary.
   */
  revision: number
}

/** What `memory.findForgettable` searches. */
export interface FindForgettableOptions {
  /**
   * Only this conversation's messages.
   *
   * @defaultValue every conversation
   */
  conversationId?: string
  /**
   * Most messages to return.
   *
   * Range: an integer from 1 to 100 (more is a search, not a list to confirm).
   *
   * @defaultValue `10`: a short list a user can read and confirm
   */
  limit?: number
  /**
   * The cut-off: messages whose `score` is below it are not returned. 0 returns every ranked message, down to those
   * that share no word with the request.
   *
   * Range: a number from 0 to 1.
   *
   * @defaultValue `0.4`: above what turns on other subjects score (a message sharing no word with the request, as
   * close in meaning as unrelated turns of a chat come), below a reply that repeats one of its two key words or a
   * rewording of the request (BENCHMARKS.md, "Forgetting")
   */
  minScore?: number
}

/** A sentence of a `ForgettableMatch` that matched the request. */
export interface ForgettableSentence {
  /** The sentence, trimmed. */
  text: string
  /** Offsets of `text` in the message's content. */
  start: number
  /** Where `text` ends in the message's content (exclusive). */
  end: number
  /** Its score in the ranking that found it (fused reciprocal rank for hybrid, BM25 when ranked lexically): it orders the message's sentences, and compares with nothing else. */
  score: number
  /** 1-based rank among the sentences sharing a word with the request; absent when it shares none. */
  lexicalRank?: number
  /** 1-based rank by similarity to the request; absent without a vector (not embedded yet, or the model failed). */
  denseRank?: number
}

/**
 * The request to forget or retract read in a text (`memory.findForgetRequest`): which of its sentences ask, and what
 * `findForgettable` ranks for them.
 */
export interface ForgetRequest {
  /** The sentences read as the request, in order, never empty: each trimmed, with its offsets in the text. */
  sentences: ForgetRequestSentence[]
  /**
   * What was ranked: the request's own words without its frame ("please", "forget", "what I told you about"), with the
   * sentence or clause it points at when it names nothing itself ("The Tromsø application. Please wipe it.").
   */
  topic: string
}

/** A sentence of the text read as the request (`ForgetRequest.sentences`). */
export interface ForgetRequestSentence {
  /** The sentence, trimmed. */
  text: string
  /** Where `text` starts in the text given. */
  start: number
  /** Where `text` ends in that text (exclusive). */
  end: number
}

/** A stored message that a "forget that I …" request may refer to (`memory.findForgettable`), best first. */
export interface ForgettableMatch {
  /** The stored message's id: what `forget({ ids })` and `forget({ sentences })` take. */
  messageId: string
  /** Its conversation. */
  conversationId: string
  /** Who said it: the user's own statements come before replies that repeat them. */
  role: Role
  /** When it was said: epoch milliseconds. */
  timestamp: number
  /** The whole stored message, as `forget({ ids })` would remove it. */
  content: string
  /**
   * How closely it matches the request, 0 to 1, comparable across requests and rankings: the larger of the share of
   * the request's words (weighted by how rare they are in the history) the message holds, and its best sentence's
   * similarity in meaning to the request (cosine; 0 without a vector). Matches come best first by it, none below
   * `FindForgettableOptions.minScore`.
   */
  score: number
  /** Its sentences that ranked, best first. */
  sentences: ForgettableSentence[]
  /** Why it matched, for the user to judge: the words it shares with the request and its best dense rank. */
  why: string
}

/** What `memory.export()` writes: which messages, and whether to encrypt them. */
export interface ExportOptions {
  /**
   * Only this conversation's messages.
   *
   * @defaultValue every conversation
   */
  conversationId?: string
  /**
   * Encrypt the export with this passphrase (AES-GCM, key from PBKDF2-SHA-256 with 600,000 iterations and a random
   * salt): the result is an `EncryptedSiftExport`, and `import` needs the same passphrase. The passphrase is the only
   * protection, so it must be strong.
   *
   * @defaultValue none: a plain `SiftExport` anyone holding the file can read
   */
  passphrase?: string
}

/** One message of an export: everything `add` took, with the id, conversation and timestamp it was given. */
export interface ExportedMessage {
  /** Its id, which `import` keeps (and refuses when it is stored already). */
  id: string
  /** Its conversation. */
  conversationId: string
  /** Who said it. */
  role: Role
  /** Its text as stored. */
  content: string
  /** Epoch milliseconds. */
  timestamp: number
}

/**
 * A memory's messages as JSON-able data (`memory.export()`), in the order they were added, which `import` keeps.
 * Vectors are left out: the importer embeds the messages again, so an export also moves a history to another model.
 */
export interface SiftExport {
  /** Says what the file is. */
  format: 'sift-memory'
  /** The layout's version; `import` refuses a newer one rather than guess. */
  version: 1
  /** When the export was made, as an ISO 8601 string (for people looking at the file). */
  exportedAt: string
  /** The messages, in the order they were added. */
  messages: ExportedMessage[]
  /**
   * The exported messages that are pinned (`Memory.pin`), in pin order; absent when none is. `import` pins them again.
   * An optional field of version 1: a Sift from before pins imports the messages and leaves it.
   */
  pins?: string[]
  /**
   * The current summaries (`Memory.setSummary`) whose `through` message is exported; absent when there are none.
   * `import` sets each for a conversation that has no current summary. Optional in version 1, as `pins`.
   */
  summaries?: ExportedSummary[]
}

/** A conversation's summary in an export: its text, the last message it covers, when it was set. */
export interface ExportedSummary {
  /** The conversation it summarises. */
  conversationId: string
  /** The app's text. */
  text: string
  /** The id of the last message it covers, an exported message. */
  through: string
  /** When it was set (epoch milliseconds). */
  setAt: number
}

/** A `SiftExport` encrypted with a passphrase (`ExportOptions.passphrase`); binary fields are base64. */
export interface EncryptedSiftExport {
  /** Says what the file is (readable without the passphrase). */
  format: 'sift-memory'
  /** The layout's version (readable without the passphrase). */
  version: 1
  /** The plain export, sealed, and what it takes to open it with the passphrase. */
  encrypted: {
    /** How the key is derived from the passphrase. */
    kdf: 'PBKDF2-SHA-256'
    /** PBKDF2's iteration count: 600,000 in an export Sift writes; `import` takes 1 to 10,000,000. */
    iterations: number
    /** The random salt of the key derivation. */
    salt: string
    /** The AES-GCM nonce. */
    iv: string
    /** AES-GCM over the UTF-8 JSON of the plain `SiftExport`, its authentication tag included. */
    data: string
  }
}

/** How `memory.import()` reads its data. */
export interface ImportOptions {
  /**
   * The passphrase of an `EncryptedSiftExport` (ignored for plain data). A wrong one fails with `WRONG_KEY`.
   *
   * @defaultValue none: encrypted data is then refused with `INVALID_IMPORT`, asking for it
   */
  passphrase?: string
}

/** What an import stored. */
export interface ImportResult {
  /** Messages stored. */
  messages: number
  /** Sentences of those messages, to be embedded in the background (`indexed()` waits for them). */
  sentences: number
}
