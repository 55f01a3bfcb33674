import { SiftError } from '../../src/errors'
import { sealingOf, type RecordCipher } from '../crypto/record-cipher'
import type { MessageRecord } from './message-record'
import { pinnedIds, type RecordCodec } from './record-codec'
import { isMessageRecord, isSealedMessageRecord } from './record-check'
import { inTwoTransactions } from './rewrite'
import {
  isSealed,
  type SealedMessageRecord,
  type SealedResiduals,
  type SealedVectorBlock,
  type StoredVectorBlock,
} from './stored-records'
import { splitResiduals, type VectorBlock, type VectorResiduals } from './vector-block'

/** What of a message is sealed. */
interface MessageSecret {
  role: string
  content: string
  spans: number[]
}

/**
 * An encrypted memory's codec: each record sealed with `cipher` in the layouts of worker/store/stored-records.ts, under
 * its context (`message:<id>`, `block:<blockId>`, `residuals:<blockId>`, `lexical`, `coarse-lists`, `pins`).
 */
export function sealingCodec(cipher: RecordCipher): RecordCodec {
  return {
    encodeMessages: (records) => Promise.all(records.map((record) => sealMessage(cipher, record))),
    decodeMessages: (records) => Promise.all(records.map((record) => openMessage(cipher, record))),
    encodeBlock: (block) => sealBlock(cipher, block),
    async decodeBlock(record) {
      if (!isSealed(record)) return undefined
      const { sealed, ...clear } = record
      const secret = (await cipher.openValue(sealed, `block:${record.blockId}`)) as
        | Pick<VectorBlock, 'sids' | 'codes' | 'scales'>
        | undefined
      return secret && { ...clear, sids: secret.sids, codes: secret.codes, scales: secret.scales }
    },
    async decodeResiduals(record) {
      if (!isSealed(record)) return undefined
      const secret = (await cipher.openValue(record.sealed, `residuals:${record.blockId}`)) as
        | Omit<VectorResiduals, 'blockId'>
        | undefined
      return (
        secret && {
          blockId: record.blockId,
          sids: secret.sids,
          residuals: secret.residuals,
          residualScales: secret.residualScales,
        }
      )
    },
    async encodeLexicalSnapshot(snapshot) {
      const { format, nextSid, index } = snapshot
      return { key: 'lexical', format, nextSid, sealed: await cipher.sealValue(index, 'lexical') }
    },
    async decodeLexicalSnapshot(record) {
      if (!record || !isSealed(record)) return undefined
      const { format, nextSid, sealed } = record
      const index = await cipher.openValue(sealed, 'lexical')
      // Its clear fields are read from disk too: a damaged snapshot is rebuilt, not trusted.
      return index === undefined || typeof format !== 'number' || typeof nextSid !== 'number'
        ? undefined
        : { key: 'lexical', format, nextSid, index }
    },
    encodeCoarseLists: async (lists) => ({ key: 'vectors', sealed: await cipher.sealValue(lists, 'coarse-lists') }),
    async decodeCoarseLists(record) {
      const lists = record && isSealed(record) ? await cipher.openValue(record.sealed, 'coarse-lists') : undefined
      return typeof lists === 'object' && lists !== null ? { ...lists, key: 'vectors' } : undefined
    },
    encodePins: async (messageIds) => ({ key: 'pins', sealed: await cipher.sealValue([...messageIds], 'pins') }),
    decodePins: async (record) =>
      record && isSealed(record) ? pinnedIds(await cipher.openValue(record.sealed, 'pins')) : [],
    rewrite: inTwoTransactions(sameSealing, changedMeanwhile),
    damaged: (what) =>
      new SiftError(
        'STORAGE_FAILED',
        `The ${what} of this encrypted memory does not open with its key: it was altered or damaged. Nothing was changed; if this persists, delete the database (indexedDB.deleteDatabase with the memory's name) to start over.`,
      ),
  }
}

/** A sealing's nonce is fresh each time: two reads of a record with the same one read the same write. */
function sameSealing(before: StoredVectorBlock, now: StoredVectorBlock): boolean {
  return (
    before.blockId === now.blockId &&
    isSealed(before) &&
    isSealed(now) &&
    sealingOf(before.sealed) === sealingOf(now.sealed)
  )
}

/** A write refused because the sealed records it was prepared from changed meanwhile. */
export function changedMeanwhile(what: string): SiftError {
  return new SiftError(
    'STORAGE_FAILED',
    `Could not ${what}: the encrypted records changed while they were being re-sealed (another memory of the same name writing without Web Locks?). Nothing was written; retry.`,
  )
}

async function sealMessage(cipher: RecordCipher, record: MessageRecord): Promise<SealedMessageRecord> {
  const { id, seq, role, content, conversationId, timestamp, firstSid, spans } = record
  const sealed = await cipher.sealValue({ role, content, spans } satisfies MessageSecret, `message:${id}`)
  return { id, seq, conversationId, timestamp, firstSid, sentences: spans.length / 2, sealed }
}

/** The message a sealed record holds; `undefined` for a record of another layout, or altered bytes. */
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

async function sealBlock(
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
