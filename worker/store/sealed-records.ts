import { SiftError } from '../../src/errors'
import type { RecordCipher } from '../crypto/record-cipher'
import type { MessageRecord } from './message-record'
import type { LexicalSnapshot } from './records'
import { isMessageRecord, isSealedMessageRecord } from './record-check'
import { splitResiduals, type VectorBlock, type VectorResiduals } from './vector-block'

/**
 * The records of an encrypted memory: what IndexedDB's indexes and the store's own bookkeeping need stays in clear
 * (keys, the fields indexes are built on, sid ranges and counts), everything said or derived from what was said is
 * sealed (`RecordCipher`). The README's "Encryption at rest" lists what stays in clear and what that tells.
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

/** What of a message is sealed. */
interface MessageSecret {
  role: string
  content: string
  spans: number[]
}

export function sealMessageContent(
  cipher: RecordCipher,
  record: Pick<MessageRecord, 'id' | 'role' | 'content' | 'spans'>,
): Promise<Uint8Array> {
  const { role, content, spans } = record
  return cipher.sealValue({ role, content, spans } satisfies MessageSecret, `message:${record.id}`)
}

/** The stored form of `record`, given its content sealed by `sealMessageContent`. */
export function toSealedMessageRecord(record: MessageRecord, sealed: Uint8Array): SealedMessageRecord {
  const { id, seq, conversationId, timestamp, firstSid, spans } = record
  return { id, seq, conversationId, timestamp, firstSid, sentences: spans.length / 2, sealed }
}

export async function sealMessage(cipher: RecordCipher, record: MessageRecord): Promise<SealedMessageRecord> {
  return toSealedMessageRecord(record, await sealMessageContent(cipher, record))
}

/**
 * The messages among `records` (`seq` order) and the ids of those that are not sealed messages of this key (another
 * layout, or altered bytes): those are skipped like records not in Sift's layout.
 */
export async function openMessages(
  cipher: RecordCipher,
  records: readonly unknown[],
): Promise<{ messages: MessageRecord[]; skipped: string[] }> {
  const opened = await Promise.all(records.map((record) => openMessage(cipher, record)))
  const messages: MessageRecord[] = []
  const skipped: string[] = []
  opened.forEach((message, i) => {
    if (message) messages.push(message)
    else skipped.push(String((records[i] as { id: unknown }).id))
  })
  return { messages: messages.sort((a, b) => a.seq - b.seq), skipped }
}

async function openMessage(cipher: RecordCipher, record: unknown): Promise<MessageRecord | undefined> {
  if (!isSealedMessageRecord(record)) return undefined
  const secret = (await cipher.openValue(record.sealed, `message:${record.id}`)) as MessageSecret | undefined
  if (typeof secret !== 'object' || secret === null) return undefined
  const { id, seq, conversationId, timestamp, firstSid, sentences } = record
  const message = {
    id,
    seq,
    role: secret.role,
    content: secret.content,
    conversationId,
    timestamp,
    firstSid,
    spans: secret.spans,
  }
  return isMessageRecord(message) && message.spans.length / 2 === sentences ? message : undefined
}

/** The block as its two sealed records (see `splitResiduals`). */
export async function sealBlock(
  cipher: RecordCipher,
  block: VectorBlock,
): Promise<{ codes: SealedVectorBlock; residuals: SealedResiduals | undefined }> {
  const { codes, residuals } = splitResiduals(block)
  const { blockId, format, model, dim, firstSid, lastSid, sids, scales } = codes
  const clear =
    format === undefined
      ? { blockId, model, dim, firstSid, lastSid }
      : { blockId, format, model, dim, firstSid, lastSid }
  const [sealedCodes, sealedResiduals] = await Promise.all([
    cipher.sealValue({ sids, codes: codes.codes, scales }, `block:${blockId}`),
    residuals &&
      cipher.sealValue(
        { sids: residuals.sids, residuals: residuals.residuals, residualScales: residuals.residualScales },
        `residuals:${blockId}`,
      ),
  ])
  return {
    codes: { ...clear, sealed: sealedCodes },
    residuals: sealedResiduals && { blockId, sealed: sealedResiduals },
  }
}

/** The block `record` holds (codes only, as stored); `STORAGE_FAILED` when it does not open. */
export async function openBlock(cipher: RecordCipher, record: SealedVectorBlock): Promise<VectorBlock> {
  const { sealed, ...clear } = record
  const secret = (await cipher.openValue(sealed, `block:${record.blockId}`)) as
    | Pick<VectorBlock, 'sids' | 'codes' | 'scales'>
    | undefined
  if (!secret) throw damaged(`vector block ${record.blockId}`)
  return { ...clear, sids: secret.sids, codes: secret.codes, scales: secret.scales }
}

/** The residuals `record` holds; `STORAGE_FAILED` when it does not open. */
export async function openResiduals(cipher: RecordCipher, record: SealedResiduals): Promise<VectorResiduals> {
  const secret = (await cipher.openValue(record.sealed, `residuals:${record.blockId}`)) as
    | Omit<VectorResiduals, 'blockId'>
    | undefined
  if (!secret) throw damaged(`vector residuals ${record.blockId}`)
  return {
    blockId: record.blockId,
    sids: secret.sids,
    residuals: secret.residuals,
    residualScales: secret.residualScales,
  }
}

export async function sealLexicalSnapshot(
  cipher: RecordCipher,
  snapshot: Omit<LexicalSnapshot, 'key'>,
): Promise<SealedLexicalSnapshot> {
  return {
    key: 'lexical',
    format: snapshot.format,
    nextSid: snapshot.nextSid,
    sealed: await cipher.sealValue(snapshot.index, 'lexical'),
  }
}

/** The snapshot `record` holds; `undefined` when there is none or it does not open (it is only a cache: open re-indexes). */
export async function openLexicalSnapshot<Index>(
  cipher: RecordCipher,
  record: unknown,
): Promise<LexicalSnapshot<Index> | undefined> {
  const { format, nextSid, sealed } = (record ?? {}) as { format?: unknown; nextSid?: unknown; sealed?: unknown }
  const index = sealed === undefined ? undefined : ((await cipher.openValue(sealed, 'lexical')) as Index | undefined)
  return index === undefined || typeof format !== 'number' || typeof nextSid !== 'number'
    ? undefined
    : { key: 'lexical', format, nextSid, index }
}

export async function sealCoarseLists(cipher: RecordCipher, lists: object): Promise<SealedCoarseLists> {
  return { key: 'vectors', sealed: await cipher.sealValue(lists, 'coarse-lists') }
}

/** The coarse lists `record` holds; `undefined` when there are none or they do not open (they are trained again). */
export async function openCoarseLists<Lists extends object>(
  cipher: RecordCipher,
  record: unknown,
): Promise<(Lists & { key: 'vectors' }) | undefined> {
  const sealed = (record as { sealed?: unknown } | undefined)?.sealed
  const lists = sealed === undefined ? undefined : await cipher.openValue(sealed, 'coarse-lists')
  return typeof lists === 'object' && lists !== null ? { ...(lists as Lists), key: 'vectors' } : undefined
}

function damaged(what: string): SiftError {
  return new SiftError(
    'STORAGE_FAILED',
    `The ${what} of this encrypted memory does not open with its key: it was altered or damaged. Nothing was changed; if this persists, delete the database (indexedDB.deleteDatabase with the memory's name) to start over.`,
  )
}
