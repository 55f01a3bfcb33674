import type { Context, BuildContextOptions } from './context-types'
import type {
  EncryptedSiftExport,
  ExportOptions,
  FindForgettableOptions,
  ForgetSelector,
  ForgetRequest,
  ForgettableMatch,
  ImportOptions,
  ImportResult,
  MessagePage,
  MessagesOptions,
  SiftExport,
} from './history-types'
import type { KeyChange } from './memory-options-types'
import type { MemoryStats } from './stats-types'

export type * from './context-types'
export type * from './history-types'
export type * from './memory-options-types'
export type * from './stats-types'

/** Who said a message. Any string is accepted; `user`/`assistant`/`system` are the usual ones. */
export type Role = 'user' | 'assistant' | 'system' | (string & {})

/** A chat turn as the app hands it to `memory.add`. */
export interface MessageInput {
  /**
   * Who said it: `'user'`, `'assistant'`, `'system'`, or any other non-empty string (a `'tool'`, a participant's name).
   * A context labels each line with it. Refused with `INVALID_INPUT` when empty, or when it holds a control character,
   * a line or paragraph separator, a bidirectional control or a lone surrogate (it would forge a line of the context).
   */
  role: Role
  /**
   * The text of the turn. Must be a string; an empty string is stored but yields no sentences. Stored as given, except
   * that VT, FF, NEL, FS, GS and RS become '\n', so that no content can start a line of its own in a context.
   */
  content: string
  /**
   * Groups messages into one thread: `buildContext`, `messages`, `forget` and summaries can be scoped to one. A
   * non-empty string, with the same characters refused as in `role`.
   *
   * @defaultValue `'default'`
   */
  conversationId?: string
  /**
   * Stable id chosen by the app (e.g. its own message id), a non-empty string with the same characters refused as in
   * `role`. Adding an id that is stored, or twice in one batch, fails with `DUPLICATE_ID` and stores nothing.
   *
   * @defaultValue a generated UUID
   */
  id?: string
  /**
   * When the turn happened: epoch milliseconds, an ISO 8601 string (`2020-03-07`, `2020-03-07T10:00:00Z`, with an
   * offset or without one for local time) or a Date. Contexts are in timestamp order (ties: the order of `add`), so a
   * history imported out of order still reads in time order, and the date is rendered so a reader can tell old from
   * new.
   *
   * Range: a time a `Date` can hold, within 100,000,000 days either side of 1970 (ECMAScript's time range) (fractions of a millisecond kept); other date strings
   * (`'March 7, 2020'`, `'0'`), days a month does not have and invalid Dates are refused with `INVALID_INPUT`.
   *
   * @defaultValue the time of `add`
   */
  timestamp?: number | string | Date
}

/** A stored message. `seq` is its position in the global history (insertion order, starting at 1). */
export interface StoredMessage {
  /** The id it was added under (`MessageInput.id`, or the UUID generated for it). */
  id: string
  /** Its position in the global history, in the order messages were added (1 the first): what `messages` pages by. */
  seq: number
  /** Who said it, as given to `add`. */
  role: Role
  /** Its text as stored: as given, less any sentences a `forget({ sentences })` removed since. */
  content: string
  /** The conversation it belongs to (`'default'` unless `add` named one). */
  conversationId: string
  /** When it was said: epoch milliseconds. */
  timestamp: number
}

/** A sentence (or a ≤ 250-character chunk of a long one) of a stored message. */
export interface Sentence {
  /** Global, monotonically increasing sentence id. */
  sid: number
  /** The id of the message it is a sentence of. */
  messageId: string
  /** The message's conversation. */
  conversationId: string
  /** The message's `seq`. */
  seq: number
  /** Position of this sentence within its message (0-based). */
  index: number
  /** Who said the message. */
  role: Role
  /** When the message was said: epoch milliseconds. */
  timestamp: number
  /** The sentence, trimmed. */
  text: string
  /** Character offsets of `text` in the message content: `content.slice(start, end)` contains `text` (trimmed). */
  start: number
  /** Where it ends in the message content (exclusive), as `start`. */
  end: number
}

/** How a context is selected. `hybrid` (the default) fuses `dense` and `lexical` with reciprocal rank fusion; `head`, `tail` and `full` are reference baselines. */
export type Strategy = 'hybrid' | 'dense' | 'lexical' | 'head' | 'tail' | 'full'

/** A pinned message (`Memory.pin`). */
export interface Pin {
  /** The pinned message's id. */
  messageId: string
  /** Its conversation: the contexts scoped to it (and the unscoped ones) hold the message. */
  conversationId: string
}

/**
 * A conversation's summary as the app last set it (`Memory.setSummary`): the app's own text for the conversation's turns
 * in time order up to and including `through`.
 */
export interface CurrentSummary {
  /** A summary contexts hold. */
  state: 'current'
  /** The conversation it summarises. */
  conversationId: string
  /** The app's text, as given to `setSummary`. */
  text: string
  /** The id of the last message the summary covers. */
  through: string
  /** When it was set (epoch milliseconds). */
  setAt: number
}

/**
 * A summary a `forget` dropped: a message it covered was forgotten, and the summary may repeat what was said there, so
 * its text was deleted with the message and no context holds it until the app sets a new one.
 */
export interface DroppedSummary {
  /** A summary no context holds until the app sets a new one. */
  state: 'dropped'
  /** The conversation it summarised. */
  conversationId: string
  /** When the forget dropped it (epoch milliseconds). */
  droppedAt: number
}

/** What `Memory.summary` tells of a conversation's summary slot. */
export type Summary = CurrentSummary | DroppedSummary

/** What a summary covers (`Memory.setSummary`). */
export interface SetSummaryOptions {
  /** The id of the last message the summary covers, a stored message of the conversation. */
  through: string
  /**
   * The `revision` of the `messages()` page the summarised turns were read from (the earliest, for several pages). When
   * a `forget` since then removed a message the summary covers, or sentences of one, the summary is stored `'dropped'`,
   * as if that forget had come after it: the LLM may have repeated the forgotten words. Checked and written in one
   * transaction. Where the memory cannot tell what a forget removed (one from before the memory was last opened), or
   * `asOf` is a revision it has not reached (from before a `clear()`), it takes the summary to cover it.
   *
   * Range: an integer ≥ 0 (a `MessagePage.revision`); anything else is refused with `INVALID_INPUT`.
   *
   * @defaultValue none: then a forget this memory ran, since it opened, after `through` was stored, that removed a
   * message the summary covers drops it, even one the app read after (which `asOf` tells apart)
   */
  asOf?: number
}

/** A memory opened by `createMemory`: the history of one IndexedDB database, and the contexts built from it. */
export interface Memory {
  /** Store one or more messages. Resolves with their ids once they are durable; embedding follows in the background. */
  add(message: MessageInput | MessageInput[]): Promise<string[]>
  /** Resolves when every stored sentence is embedded and indexed. */
  indexed(): Promise<void>
  /**
   * Resolves once the embedding model has loaded (at once if it has; `stats().modelState` is then `'ready'`). Until
   * then `hybrid` and `dense` contexts are ranked by their words instead of waiting (`stats.ranking` `'lexical'`,
   * `stats.degraded` says so), unless `strictRanking`. Rejects with `MODEL_UNAVAILABLE` when the model cannot load;
   * the next call tries again. For an app that would rather wait, or show when the memory ranks by meaning.
   */
  ready(): Promise<void>
  /**
   * The context for `request` (the user's next message): the history's sentences that bear on it, ranked by
   * `options.strategy`, packed into `options.budget` with the pinned messages, the summaries and the recent turns the
   * options ask for, in chronological order, role-labelled and dated. Build it before storing the request, so that it
   * does not find itself. Rejects with `INVALID_INPUT` for options out of range or a request over `maxRequestChars`.
   */
  buildContext(request: string, options?: BuildContextOptions): Promise<Context>
  /**
   * Remove messages and everything derived from them. Resolves with the number of messages removed; with
   * `{ sentences }`, with the number of sentences removed (the messages keep their other sentences).
   */
  forget(selector: ForgetSelector): Promise<number>
  /**
   * The stored messages a user's "forget that I …" request refers to, ranked like a `hybrid` context (lexically when
   * the model cannot embed the request), best first, each with the sentences that matched and why. Show them, let the
   * user confirm, then pass the confirmed sentences to `forget({ sentences })` (or whole messages' ids to
   * `forget({ ids })`). It ranks whatever it is given: `findForgetRequest` says whether the text asked to forget.
   */
  findForgettable(text: string, options?: FindForgettableOptions): Promise<ForgettableMatch[]>
  /**
   * Whether `text` asks to forget or retract something ("please forget …", "scratch what I said about …", "that's not
   * true anymore", "olvídalo", "das stimmt nicht mehr"): the sentences read as the request and the topic
   * `findForgettable` ranks for them, or `undefined` when no sentence asks ("I forgot my keys", "delete the first
   * paragraph of my essay"). Reads the text only (no model, no stored history): an app that looks at every user
   * message asks this first and calls `findForgettable` only when it answers.
   */
  findForgetRequest(text: string): Promise<ForgetRequest | undefined>
  /** Pages through the stored messages in `seq` order without building a context. */
  messages(options?: MessagesOptions): Promise<MessagePage>
  /**
   * Pins a stored message: every context of its conversation (and every unscoped one) then holds it first, in a
   * section of its own before the rest, inside the budget; a pin that does not fit is named in `stats.pinned.left`.
   * Kept across reloads, in exports and encrypted with the memory; a `forget` of the message unpins it. Pinning it
   * again changes nothing; an id that is not stored is refused with `INVALID_INPUT`.
   */
  pin(messageId: string): Promise<void>
  /** Unpins a message; an id that is not pinned is refused with `INVALID_INPUT`. */
  unpin(messageId: string): Promise<void>
  /** The pinned messages, in the order they were pinned: every conversation's, or one's. */
  pins(conversationId?: string): Promise<Pin[]>
  /**
   * Stores the app's own summary of a conversation's turns, in time order, up to and including `through` (Sift never
   * writes one: the app's LLM does), replacing the one before. Contexts of the conversation (and unscoped ones) then
   * hold it in a section of its own after the pinned messages, inside the budget (`BuildContextOptions.summary`), and
   * still retrieve the turns it covers, so a detail it left out can come back. Kept across reloads, in exports and
   * encrypted with the memory. A `forget` of a message it covers deletes its text (it may repeat the forgotten words):
   * `summary()` then says `'dropped'`, and no context holds it until the app sets a new one. A forget while the app's
   * LLM is writing it drops it (`asOf`, the revision of the page the turns were read from, makes the check exact). The text
   * is kept as given and shown on one line, its line breaks as spaces, so that it cannot pass for lines of the context.
   * `INVALID_INPUT` for an empty text, one over `maxMessageChars`, a `through` that is not a stored message of the
   * conversation, an `asOf` that is not an integer ≥ 0, or options that cannot be read.
   */
  setSummary(conversationId: string, text: string, options: SetSummaryOptions): Promise<void>
  /** A conversation's summary slot: the current summary, one a forget dropped, or `undefined` when none was set. */
  summary(conversationId: string): Promise<Summary | undefined>
  /** Empties a conversation's summary slot (a dropped one too); resolves with whether there was anything to remove. */
  clearSummary(conversationId: string): Promise<boolean>
  /**
   * Deletes the whole database (and, in Node, the memory's embedding cache file) and resolves with the number of
   * messages removed. The memory stays open, empty, with the same options.
   */
  clear(): Promise<number>
  /**
   * The stored messages (one conversation's, or all) as a versioned JSON-able object, in the order they were added:
   * a `SiftExport`, or an `EncryptedSiftExport` with `passphrase`. Vectors are not included.
   */
  export(options?: ExportOptions): Promise<SiftExport | EncryptedSiftExport>
  /**
   * Stores the messages of `data`, a `SiftExport` (plain or encrypted), a `[{ role, content, timestamp?, id?,
   * conversationId? }]` array, or either as a JSON string, keeping their ids, timestamps and conversations. Everything
   * is checked first and stored in one transaction: on any problem it rejects with `INVALID_IMPORT` (saying where) or
   * `WRONG_KEY`, and nothing is stored. The messages are embedded afterwards, as after `add` (`onProgress`, `indexed()`).
   */
  import(data: unknown, options?: ImportOptions): Promise<ImportResult>
  /**
   * Re-encrypts the whole memory with a new passphrase or key, in one transaction: until it resolves the memory opens
   * with the old one, from then on only with the new one (a new salt for a passphrase). A memory stored in clear is
   * encrypted so. Other calls wait meanwhile. This memory keeps working, and re-opens its worker with the new key;
   * memories of the same name created in other tabs with the old key fail with `WRONG_KEY` when they next open it.
   * In a tab that does not run the engine a `CryptoKey` must be extractable, to cross to that tab sealed
   * (docs/privacy.md, "Encryption at rest"); a non-extractable one is refused there with `INVALID_INPUT`.
   */
  changeKey(next: KeyChange): Promise<void>
  /** The memory's counts, backend, model state, indexes, storage and latest background failure. */
  stats(): Promise<MemoryStats>
  /**
   * With `MemoryOptions.sync`: resolves once what this memory held when it was called is on the server and what the
   * server held then is in this memory (its forgets applied). Sync also runs by itself in the background; this is for
   * an app that wants to know, e.g. before telling the user a forget reached every device. Rejects with `WRONG_KEY`
   * when the server's memory has another passphrase, with `STORAGE_FAILED` when the server cannot be reached, and
   * with `INVALID_INPUT` for a memory without sync.
   */
  synced(): Promise<void>
  /**
   * Closes the memory. In the tab that runs its engine: stops the embedding backlog after the batch in flight, saves
   * the indexes' stale copies, closes the database and ends the engine's worker (memories of the same name in other
   * tabs take the engine over); in a tab that uses another tab's engine, it only detaches. Calls after it reject with
   * `CLOSED`; closing again changes nothing.
   */
  close(): Promise<void>
}
