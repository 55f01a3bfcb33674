/** The single row of the `meta` table: counters and the embedding watermark. */
export interface StoreState {
  key: 'state'
  schemaVersion: number
  /** Fingerprint of the model whose vectors are stored; a different one at open clears them. */
  model: string
  nextSeq: number
  nextSid: number
  nextBlockId: number
  /** Every sentence with `sid ≤ embeddedThrough` has its vector stored (or was forgotten); the rest is the backlog. */
  embeddedThrough: number
}

/**
 * The `meta` row of pinned messages (`Memory.pin`): their ids, in the order they were pinned. A row of `meta` rather
 * than a table of its own, so that pins need no schema change; sealed in an encrypted memory (`SealedPinsRecord`).
 */
export interface PinsRecord {
  key: 'pins'
  messageIds: string[]
}

/** The key of a conversation's summary row in `meta`: one row per conversation, so setting one rewrites no other. */
export type SummaryKey = `summary:${string}`

export function summaryKey(conversationId: string): SummaryKey {
  return `summary:${conversationId}`
}

/**
 * A conversation's summary (`Memory.setSummary`), a row of `meta` (no schema change, as for pins). Where it ends in the
 * conversation's time order (`throughTimestamp`, `throughSeq`: the covered messages are those at or before it) stays in
 * clear in both layouts, with the conversation, so a forget finds the summaries it covers inside its own write without
 * opening them; only `text` is sealed in an encrypted memory (`SealedSummaryRecord`).
 */
export interface SummaryRecord {
  key: SummaryKey
  conversationId: string
  through: string
  throughTimestamp: number
  throughSeq: number
  setAt: number
  text: string
}

/** What a forget leaves of a summary that covered a forgotten message: no text, only that there was one to write again. */
export interface DroppedSummaryRecord {
  key: SummaryKey
  conversationId: string
  droppedAt: number
}

/**
 * The `meta` row that counts the forgets that removed anything (`MessagePage.revision`): each bumps it in its own write,
 * so that a summary written from what was read at one revision can tell whether a forget came since. In clear in both
 * layouts, like the state row's counters; none until the first forget.
 */
export interface ForgetRevisionRecord {
  key: 'revision'
  revision: number
}

/**
 * The lexical index as last saved: covers every sentence with `sid < nextSid` that is still stored. A forget
 * deletes it in its own transaction (it holds the forgotten words), so it never covers a forgotten sentence.
 */
export interface LexicalSnapshot<Index = unknown> {
  key: 'lexical'
  /** Layout of `index`; a snapshot of another format is ignored and rebuilt. */
  format: number
  nextSid: number
  /** The serialised index: typed arrays and strings, stored by structured clone (no JSON round trip). */
  index: Index
}

/**
 * The vector index's coarse lists as last saved (`VectorIndex.serializeCoarseLists`): centroids and each row's list, so
 * open need not train them again. Rows stored after it are filed at open. A forget deletes it in its own transaction
 * (its centroids are means over the forgotten vectors too) and the engine saves re-centred lists; cleared with the
 * vectors when the model changes.
 */
export type CoarseListsRecord<Lists extends object = object> = Lists & { key: 'vectors' }

/**
 * What the indexes give the store to keep (their serialised forms). Their layout belongs to the indexes, which
 * check what they read back; the store only persists them, so it depends on no index.
 */
export interface SavedIndexes {
  lexical: unknown
  coarseLists: object
}
