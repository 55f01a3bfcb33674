import type { EncryptionRecord } from '../crypto/at-rest-key'
import type { MessageRecord } from './message-record'
import type {
  CoarseListsRecord,
  DroppedSummaryRecord,
  ForgetRevisionRecord,
  LexicalSnapshot,
  PinsRecord,
  StoreState,
  SummaryRecord,
} from './records'
import type { FloatVectorBlock, VectorBlock, VectorResiduals } from './vector-block'

/**
 * What each table holds: a plain memory's records as they are, or an encrypted memory's sealed ones (`RecordCodec`
 * turns one into the other). In a sealed record, what IndexedDB's indexes and the store's own bookkeeping need stays in
 * clear (keys, the fields indexes are built on, sid ranges and counts), everything said or derived from what was said
 * is in `sealed` (`RecordCipher`, under the context each layout names). docs/privacy.md's "Encryption at rest" lists
 * what stays in clear and what that tells.
 */

/** A message of an encrypted memory: `role`, `content` and the sentence spans are sealed under `message:<id>`. */
export interface SealedMessageRecord {
  id: string
  seq: number
  conversationId: string
  timestamp: number
  firstSid: number
  /** How many sentences it has (sids `firstSid … firstSid + sentences - 1`), so its sids are known without opening it. */
  sentences: number
  sealed: Uint8Array
}

/** A vector block of an encrypted memory: its sids, codes and scales are sealed under `block:<blockId>`. */
export interface SealedVectorBlock
  extends Pick<VectorBlock, 'blockId' | 'format' | 'model' | 'dim' | 'firstSid' | 'lastSid'> {
  sealed: Uint8Array
}

/** A block's residual record in an encrypted memory, sealed under `residuals:<blockId>`. */
export interface SealedResiduals {
  blockId: number
  sealed: Uint8Array
}

/** The lexical snapshot of an encrypted memory: the index is sealed under `lexical`; its format and coverage stay in clear. */
export interface SealedLexicalSnapshot {
  key: 'lexical'
  format: number
  nextSid: number
  sealed: Uint8Array
}

/** The coarse lists of an encrypted memory, sealed under `coarse-lists`. */
export interface SealedCoarseLists {
  key: 'vectors'
  sealed: Uint8Array
}

/** The pinned message ids of an encrypted memory, sealed under `pins`: which messages a user keeps in view says what matters to them. */
export interface SealedPinsRecord {
  key: 'pins'
  sealed: Uint8Array
}

/** A summary of an encrypted memory: its text is sealed under its clear fields (`SealingContexts.summary`). */
export interface SealedSummaryRecord extends Omit<SummaryRecord, 'text'> {
  sealed: Uint8Array
}

/** A record of `messages`: `seq` and `firstSid` are in clear in both layouts (IndexedDB indexes them). */
export type StoredMessageRecord = MessageRecord | SealedMessageRecord
/** A record of `vectorBlocks`: a float32 block is one a store written before int8 left (never sealed). */
export type StoredVectorBlock = VectorBlock | FloatVectorBlock | SealedVectorBlock
export type StoredResiduals = VectorResiduals | SealedResiduals
export type StoredLexicalSnapshot = LexicalSnapshot | SealedLexicalSnapshot
export type StoredCoarseLists = CoarseListsRecord | SealedCoarseLists
export type StoredPinsRecord = PinsRecord | SealedPinsRecord
/** A conversation's summary row: set (plain or sealed), or dropped by a forget (no text in either layout). */
export type StoredSummaryRecord = SummaryRecord | SealedSummaryRecord | DroppedSummaryRecord
/** A row of `meta`: the state row, the key check of an encrypted memory, the pins, the summaries, the forget revision. */
export type MetaRecord = StoreState | EncryptionRecord | StoredPinsRecord | StoredSummaryRecord | ForgetRevisionRecord

/** Whether a stored record is in a sealed layout (whether it opens is only known by opening it). */
export function isSealed<Stored extends object>(record: Stored): record is Extract<Stored, { sealed: Uint8Array }> {
  return 'sealed' in record
}
