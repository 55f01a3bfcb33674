import type { ForgetSentence } from '../../src/history-types'
import type { CurrentSummary, Summary } from '../../src/types'
import type { SyncedForget } from './forget-replay'
import type { SyncedMessage, SyncedPin, SyncedSummary } from './merge-rules'
import type { SyncDocument, SyncDocuments, SyncKind } from './sync-document'

/** What a round reads and writes of the memory (the engine's side, worker/sync/sync-link.ts). */
export interface LocalHistory {
  /**
   * Every stored message, with its sentence spans, and how many forgets had removed anything from the store when they
   * were read (`MessagePage.revision`; 0 in a store made anew): both read with no write between them, so that the
   * revision says which forgets the messages reflect.
   */
  snapshot(): Promise<{ messages: SyncedMessage[]; forgetRevision: number }>
  /** Stores messages that arrived, with their ids, conversations and timestamps; ids already stored are skipped. */
  addArrived(messages: readonly SyncedMessage[]): Promise<void>
  /** Forgets whole messages or sentences of them (`memory.forget`). */
  forget(selector: { ids: string[] } | { sentences: ForgetSentence[] }): Promise<unknown>
  /** The pinned messages' ids. */
  pinned(): Promise<string[]>
  /** Pins or unpins a stored message (`memory.pin`, `unpin`); a message not stored, or already so, is left alone. */
  setPinned(messageId: string, pinned: boolean): Promise<void>
  /** Every conversation's summary, current or dropped. */
  summaries(): Promise<Summary[]>
  /** Stores a summary written on another device unless one written or dropped later is here; false when its last message is not. */
  summaryArrived(summary: Omit<CurrentSummary, 'state'>): Promise<boolean>
  /** Clears a conversation's summary (`memory.clearSummary`). */
  clearSummary(conversationId: string): Promise<unknown>
  /** The messages a summary of `conversationId` through `through` covers, each with the length of its content now. */
  covered(conversationId: string, through: string): Promise<[id: string, length: number][]>
}

/**
 * A summary as synced: its write (`SyncedSummary`: text, dropped or cleared, and when), the message it runs through,
 * and the messages it covers as they were when it was written (id and length), so that a device where one of them was
 * forgotten since, in whole or in part, does not take in a summary that may repeat it.
 */
export interface TravellingSummary extends SyncedSummary {
  conversationId: string
  through?: string
  covers?: [id: string, length: number][]
}

/**
 * The field that marks a leaf deleted by settling a conflict, not by a forget (its only content: the server learns
 * that two devices wrote the record while apart, which it sees from the revisions anyway).
 */
export const SETTLED = 'settled'

/** A mirror document as the changes feed and `get` give it. */
export interface MirrorDocument extends SyncDocument {
  _deleted?: boolean
  [SETTLED]?: 1
}

export interface MirrorChange {
  id: string
  seq: number | string
  deleted?: boolean
  changes: { rev: string }[]
  doc?: MirrorDocument
}

/** What a round needs of the mirror: the parts of PouchDB's API it calls. */
export interface MirrorDatabase {
  changes(options: {
    since: number | string
    include_docs: true
    style: 'all_docs'
  }): Promise<{ results: MirrorChange[]; last_seq: number | string }>
  get(id: string, options?: { open_revs: 'all' }): Promise<unknown>
  put(document: object): Promise<unknown>
  bulkDocs(documents: object[]): Promise<unknown>
  compact(): Promise<unknown>
}

/** What the mirror holds for one document id, as last read. */
export interface MirrorEntry {
  seq: number
  rev: string
  deleted: boolean
  /** The message it carries; absent for a deletion or a document that is not a message this key opens. */
  message?: SyncedMessage
  /** The pin it carries (a message's pinned state, and when it was written). */
  pin?: SyncedPin & { messageId: string }
  /** The forget by scope it carries, for the devices that were apart when it was made. */
  forget?: SyncedForget
  /** The summary it carries. */
  summary?: TravellingSummary
}

/** What the records of each kind share of a replica: the mirror as last read, and how to write to it. */
export interface ReplicaSide {
  entries: Map<string, MirrorEntry>
  /** The revision this device last wrote from its store (or took in), by document id: no arrival. */
  written: Map<string, string>
  documents: SyncDocuments
  local: LocalHistory
  documentIdOf(kind: SyncKind, id: string): Promise<string>
  /** Writes to the mirror, noting each revision written; true when one replaced an older one. */
  write(writes: object[]): Promise<boolean>
}
