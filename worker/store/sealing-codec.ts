import { SiftError } from '../../src/errors'
import { sealingOf, type RecordCipher } from '../crypto/record-cipher'
import type { MessageRecord } from './message-record'
import { clearFields, droppedSummary, pinnedIds, summaryCoverage, type RecordCodec } from './record-codec'
import { isMessageRecord, isSealedMessageRecord } from './record-check'
import { inTwoTransactions } from './rewrite'
import {
  isSealed,
  type SealedMessageRecord,
  type SealedResiduals,
  type SealedVectorBlock,
  type StoredVectorBlock,
} from './stored-records'
import { isVectorBlock, isVectorResiduals } from './vector-record-check'
import { boundContexts, type SealingContexts } from './sealing-contexts'
import { splitResiduals, type VectorBlock, type VectorResiduals } from './vector-block'

/** What of a message is sealed. */
interface MessageSecret {
  role: string
  content: string
  spans: number[]
}

/**
 * An encrypted memory's codec: each record sealed with `cipher` in the layouts of worker/store/stored-records.ts, under
 * its context (worker/store/sealing-contexts.ts: its place and its clear fields; `schema5Contexts` reads a memory
 * sealed before they were bound).
 */
export function sealingCodec(cipher: RecordCipher, contexts: SealingContexts = boundContexts): RecordCodec {
  return {
    encodeMessages: (records) => Promise.all(records.map((record) => sealMessage(cipher, contexts, record))),
    decodeMessages: (records) => Promise.all(records.map((record) => openMessage(cipher, contexts, record))),
    encodeBlock: (block) => sealBlock(cipher, contexts, block),
    async decodeBlock(record) {
      if (!isSealed(record)) return undefined
      const { sealed, ...clear } = record
      const secret = (await cipher.openValue(sealed, contexts.block(clear))) as
        | Pick<VectorBlock, 'sids' | 'codes' | 'scales'>
        | undefined
      const block = secret && { ...clear, sids: secret.sids, codes: secret.codes, scales: secret.scales }
      return isVectorBlock(block) ? block : undefined
    },
    async decodeResiduals(record) {
      if (!isSealed(record)) return undefined
      const secret = (await cipher.openValue(record.sealed, contexts.residuals(record.blockId))) as
        | Omit<VectorResiduals, 'blockId'>
        | undefined
      const residuals = secret && {
        blockId: record.blockId,
        sids: secret.sids,
        residuals: secret.residuals,
        residualScales: secret.residualScales,
      }
      return isVectorResiduals(residuals) ? residuals : undefined
    },
    async encodeLexicalSnapshot(snapshot) {
      const { format, nextSid, index } = snapshot
      return {
        key: 'lexical',
        format,
        nextSid,
        sealed: await cipher.sealValue(index, contexts.lexical({ format, nextSid })),
      }
    },
    async decodeLexicalSnapshot(record) {
      if (!record || !isSealed(record)) return undefined
      const { format, nextSid, sealed } = record
      // Its clear fields are read from disk too: a damaged snapshot is rebuilt, not trusted.
      if (typeof format !== 'number' || typeof nextSid !== 'number') return undefined
      const index = await cipher.openValue(sealed, contexts.lexical({ format, nextSid }))
      return index === undefined ? undefined : { key: 'lexical', format, nextSid, index }
    },
    encodeCoarseLists: async (lists) => ({
      key: 'vectors',
      sealed: await cipher.sealValue(lists, contexts.coarseLists),
    }),
    async decodeCoarseLists(record) {
      const lists = record && isSealed(record) ? await cipher.openValue(record.sealed, contexts.coarseLists) : undefined
      return typeof lists === 'object' && lists !== null ? { ...lists, key: 'vectors' } : undefined
    },
    encodePins: async (messageIds) => ({ key: 'pins', sealed: await cipher.sealValue([...messageIds], contexts.pins) }),
    decodePins: async (record) =>
      record && isSealed(record) ? pinnedIds(await cipher.openValue(record.sealed, contexts.pins)) : [],
    async encodeSummary({ text, ...clear }) {
      return { ...clear, sealed: await cipher.sealValue(text, contexts.summary(clear)) }
    },
    async decodeSummary(record) {
      const dropped = droppedSummary(record)
      if (dropped) return dropped
      if (!isSealed(record) || !summaryCoverage(record)) return undefined
      const clear = clearFields(record)
      const text = await cipher.openValue(record.sealed, contexts.summary(clear))
      return typeof text === 'string' ? { ...clear, text } : undefined
    },
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

async function sealMessage(
  cipher: RecordCipher,
  contexts: SealingContexts,
  record: MessageRecord,
): Promise<SealedMessageRecord> {
  const { id, seq, role, content, conversationId, timestamp, firstSid, spans } = record
  const clear = { id, seq, conversationId, timestamp, firstSid, sentences: spans.length / 2 }
  const sealed = await cipher.sealValue({ role, content, spans } satisfies MessageSecret, contexts.message(clear))
  return { ...clear, sealed }
}

/** The message a sealed record holds; `undefined` for a record of another layout, or altered bytes. */
async function openMessage(
  cipher: RecordCipher,
  contexts: SealingContexts,
  record: unknown,
): Promise<MessageRecord | undefined> {
  if (!isSealedMessageRecord(record)) return undefined
  const { sealed: _sealed, ...clear } = record
  const secret = (await cipher.openValue(record.sealed, contexts.message(clear))) as MessageSecret | undefined
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
  contexts: SealingContexts,
  block: VectorBlock,
): Promise<{ codes: SealedVectorBlock; residuals: SealedResiduals | undefined }> {
  const { codes, residuals } = splitResiduals(block)
  const { blockId, format, model, dim, firstSid, lastSid, sids, scales } = codes
  const clear =
    format === undefined
      ? { blockId, model, dim, firstSid, lastSid }
      : { blockId, format, model, dim, firstSid, lastSid }
  const [sealedCodes, sealedResiduals] = await Promise.all([
    cipher.sealValue({ sids, codes: codes.codes, scales }, contexts.block(clear)),
    residuals &&
      cipher.sealValue(
        { sids: residuals.sids, residuals: residuals.residuals, residualScales: residuals.residualScales },
        contexts.residuals(blockId),
      ),
  ])
  return {
    codes: { ...clear, sealed: sealedCodes },
    residuals: sealedResiduals && { blockId, sealed: sealedResiduals },
  }
}
