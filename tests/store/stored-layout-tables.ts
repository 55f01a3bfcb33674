// The stored layout's records spelt out (tests/store/stored-layout.test.ts): the database before and after its operations,
// each record's sealed form in each schema, and the structured-clone layout two records are compared by.
import { quantizeBlockRows } from '../../worker/store/vector-block'

export type Row = Record<string, unknown>
export type Tables = Record<'messages' | 'vectorBlocks' | 'vectorResiduals' | 'lexicalSnapshots' | 'coarseLists', Row[]>

export const MODEL = 'model-fingerprint'
export const DIM = 2

/** The state row as the store writes it: these fields, in this order. */
export const state = (
  fields: { nextSeq: number; nextSid: number; nextBlockId: number; embeddedThrough: number },
  schemaVersion = 6,
): Row => ({
  key: 'state',
  schemaVersion,
  model: MODEL,
  nextSeq: fields.nextSeq,
  nextSid: fields.nextSid,
  nextBlockId: fields.nextBlockId,
  embeddedThrough: fields.embeddedThrough,
})

/** A message as `addMessages` writes it: the app's fields, then seq, firstSid and the sentence spans. */
const message = (
  id: string,
  role: string,
  content: string,
  conversationId: string,
  timestamp: number,
  seq: number,
  firstSid: number,
  spans: number[],
): Row => ({ id, role, content, conversationId, timestamp, seq, firstSid, spans })

/** A vector block's codes record (format 2) and its residual record, as an append writes them. */
function block(
  blockId: number,
  sids: number[],
  layers: { codes: number[]; scales: number[]; residuals: number[]; residualScales: number[] },
): { codes: Row; residuals: Row } {
  const sidArray = Float64Array.from(sids)
  return {
    codes: {
      blockId,
      model: MODEL,
      dim: DIM,
      firstSid: sids[0],
      lastSid: sids[sids.length - 1],
      sids: sidArray,
      format: 2,
      codes: Int8Array.from(layers.codes),
      scales: Float32Array.from(layers.scales),
    },
    residuals: {
      blockId,
      sids: sidArray,
      residuals: Int8Array.from(layers.residuals),
      residualScales: Float32Array.from(layers.residualScales),
    },
  }
}

const LEXICAL_INDEX = { terms: ['alpha', 'gamma'], postings: Int32Array.from([1, 2, 4, 5]) }
const COARSE_LISTS = { dim: DIM, centroids: Float32Array.from([0.5, 0.5]), lists: Int32Array.from([0, 0, 0, 0]) }

/** The database before: three messages (sids 1–3, 4, 5–6), two blocks holding sids 1–5, a lexical snapshot, coarse lists. */
export function initialTables(): Tables & { state: Row } {
  const first = block(1, [1, 2, 3, 4], {
    codes: [10, 20, 30, 40, 50, 60, 65, 66],
    scales: [0.1, 0.2, 0.3, 0.35],
    residuals: [1, 2, 3, 4, 5, 6, 7, 8],
    residualScales: [0.01, 0.02, 0.03, 0.035],
  })
  const second = block(2, [5], { codes: [70, 80], scales: [0.4], residuals: [9, 10], residualScales: [0.04] })
  return {
    state: state({ nextSeq: 4, nextSid: 7, nextBlockId: 3, embeddedThrough: 5 }),
    messages: [
      message('m1', 'user', 'Alpha one. Alpha two. Alpha three.', 'c1', 1_000, 1, 1, [0, 10, 11, 21, 22, 34]),
      message('m2', 'assistant', 'Beta.', 'c1', 2_000, 2, 4, [0, 5]),
      message('m3', 'user', 'Gamma one. Gamma two.', 'c2', 3_000, 3, 5, [0, 10, 11, 21]),
    ],
    vectorBlocks: [first.codes, second.codes],
    vectorResiduals: [first.residuals, second.residuals],
    lexicalSnapshots: [{ key: 'lexical', format: 1, nextSid: 7, index: LEXICAL_INDEX }],
    coarseLists: [{ key: 'vectors', ...COARSE_LISTS }],
  }
}

export const APPENDED = Float32Array.from([0.6, 0.8])
export const NEW_LEXICAL_INDEX = { terms: ['delta'], postings: Int32Array.from([7]) }
export const NEW_COARSE_LISTS = {
  dim: DIM,
  centroids: Float32Array.from([0.6, 0.8]),
  lists: Int32Array.from([0, 0, 0, 0]),
}

/**
 * The database after `operate`: m2 forgotten (sid 4, so block 1 rewritten without its row; the forget revision's row
 * written, in clear, at 1), sid 6 appended (merged into block 2, the only block no larger than the new one), m4 added
 * (sid 7) and both indexes saved.
 */
export function finalTables(): Tables & { state: Row; revision: Row } {
  const row = quantizeBlockRows(APPENDED, 1, DIM)
  const first = block(1, [1, 2, 3], {
    codes: [10, 20, 30, 40, 50, 60],
    scales: [0.1, 0.2, 0.3],
    residuals: [1, 2, 3, 4, 5, 6],
    residualScales: [0.01, 0.02, 0.03],
  })
  const second = block(2, [5, 6], {
    codes: [70, 80, ...row.codes],
    scales: [0.4, ...row.scales],
    residuals: [9, 10, ...row.residuals!],
    residualScales: [0.04, ...row.residualScales!],
  })
  return {
    state: state({ nextSeq: 5, nextSid: 8, nextBlockId: 4, embeddedThrough: 6 }),
    revision: { key: 'revision', revision: 1 },
    messages: [
      initialTables().messages[0],
      initialTables().messages[2],
      message('m4', 'assistant', 'Delta.', 'c2', 4_000, 4, 7, [0, 6]),
    ],
    vectorBlocks: [first.codes, second.codes],
    vectorResiduals: [first.residuals, second.residuals],
    lexicalSnapshots: [{ key: 'lexical', format: 1, nextSid: 8, index: NEW_LEXICAL_INDEX }],
    coarseLists: [{ key: 'vectors', ...NEW_COARSE_LISTS }],
  }
}

/**
 * The sealed form of a plain record of `table`: its fields in clear (in order), and its context and secret. From
 * schema 6 on a context lists the record's clear fields too (as JSON, in that order); schema 5's named the record only.
 */
export function sealedForm(
  table: keyof Tables,
  record: Row,
  schema = 6,
): { clear: Row; context: string; secret: unknown } {
  const { id, seq, conversationId, timestamp, firstSid, spans, role, content } = record
  const { blockId, format, model, dim, lastSid, sids, codes, scales, residuals, residualScales } = record
  const bound = (name: string, key: unknown, fields: unknown[]) =>
    schema >= 6 ? `${name}:${JSON.stringify(fields)}` : key === undefined ? name : `${name}:${key}`
  switch (table) {
    case 'messages': {
      const sentences = (spans as number[]).length / 2
      return {
        clear: { id, seq, conversationId, timestamp, firstSid, sentences },
        context: bound('message', id, [id, seq, conversationId, timestamp, firstSid, sentences]),
        secret: { role, content, spans },
      }
    }
    case 'vectorBlocks':
      return {
        clear: { blockId, format, model, dim, firstSid, lastSid },
        context: bound('block', blockId, [blockId, format, model, dim, firstSid, lastSid]),
        secret: { sids, codes, scales },
      }
    case 'vectorResiduals':
      return { clear: { blockId }, context: `residuals:${blockId}`, secret: { sids, residuals, residualScales } }
    case 'lexicalSnapshots':
      return {
        clear: { key: 'lexical', format: record.format, nextSid: record.nextSid },
        context: bound('lexical', undefined, [record.format, record.nextSid]),
        secret: record.index,
      }
    case 'coarseLists': {
      const { key: _key, ...lists } = record
      return { clear: { key: 'vectors' }, context: 'coarse-lists', secret: lists }
    }
  }
}

/**
 * A value's stored layout: each field in order with its type, typed arrays as their kind and bytes. Equal layouts are
 * equal structured clones (v8's own serialisation would also tell how the engine happened to hold a number).
 */
export function layout(value: unknown): string {
  if (ArrayBuffer.isView(value))
    return `${value.constructor.name}(${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')})`
  if (Array.isArray(value)) return `[${value.map(layout).join(',')}]`
  if (typeof value === 'object' && value !== null)
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${layout(item)}`)
      .join(',')}}`
  return `${typeof value} ${typeof value === 'string' ? JSON.stringify(value) : Object.is(value, -0) ? '-0' : String(value)}`
}
