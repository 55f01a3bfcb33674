// The records the store reads and writes, byte for byte: a plain and an encrypted database are written raw in the
// stored layout (schema 5), then opened, read, forgotten from and appended to through the store, and every object store
// is read back raw. A plain record must equal the expected one as structured clone writes it (the same fields, in the
// same order, of the same types); a sealed one must have those clear fields and open, under its context, to the bytes
// of the expected value (`packValue`). The layout is spelt out here, not taken from the store's own code.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { packValue } from '../worker/crypto/packed-value'
import { RecordCipher } from '../worker/crypto/record-cipher'
import { SiftStore, type IndexedDBSource } from '../worker/store/store'
import { quantizeBlockRows } from '../worker/store/vector-block'
import { dumpRaw, getAllRaw, putRaw } from './raw-database'

type Row = Record<string, unknown>
type Tables = Record<'messages' | 'vectorBlocks' | 'vectorResiduals' | 'lexicalSnapshots' | 'coarseLists', Row[]>

const MODEL = 'model-fingerprint'
const DIM = 2

/** The state row as the store writes it: these fields, in this order. */
const state = (fields: { nextSeq: number; nextSid: number; nextBlockId: number; embeddedThrough: number }): Row => ({
  key: 'state',
  schemaVersion: 5,
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
function initialTables(): Tables & { state: Row } {
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

const APPENDED = Float32Array.from([0.6, 0.8])
const NEW_LEXICAL_INDEX = { terms: ['delta'], postings: Int32Array.from([7]) }
const NEW_COARSE_LISTS = { dim: DIM, centroids: Float32Array.from([0.6, 0.8]), lists: Int32Array.from([0, 0, 0, 0]) }

/**
 * The database after `operate`: m2 forgotten (sid 4, so block 1 rewritten without its row), sid 6 appended (merged into
 * block 2, the only block no larger than the new one), m4 added (sid 7) and both indexes saved.
 */
function finalTables(): Tables & { state: Row } {
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

/** The sealed form of a plain record of `table`: its fields in clear (in order), and its context and secret. */
function sealedForm(table: keyof Tables, record: Row): { clear: Row; context: string; secret: unknown } {
  const { id, seq, conversationId, timestamp, firstSid, spans, role, content } = record
  const { blockId, format, model, dim, lastSid, sids, codes, scales, residuals, residualScales } = record
  switch (table) {
    case 'messages': {
      const sentences = (spans as number[]).length / 2
      return {
        clear: { id, seq, conversationId, timestamp, firstSid, sentences },
        context: `message:${id}`,
        secret: { role, content, spans },
      }
    }
    case 'vectorBlocks':
      return {
        clear: { blockId, format, model, dim, firstSid, lastSid },
        context: `block:${blockId}`,
        secret: { sids, codes, scales },
      }
    case 'vectorResiduals':
      return { clear: { blockId }, context: `residuals:${blockId}`, secret: { sids, residuals, residualScales } }
    case 'lexicalSnapshots':
      return {
        clear: { key: 'lexical', format: record.format, nextSid: record.nextSid },
        context: 'lexical',
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
function layout(value: unknown): string {
  if (ArrayBuffer.isView(value))
    return `${value.constructor.name}(${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')})`
  if (Array.isArray(value)) return `[${value.map(layout).join(',')}]`
  if (typeof value === 'object' && value !== null)
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${layout(item)}`)
      .join(',')}}`
  return `${typeof value} ${typeof value === 'string' ? JSON.stringify(value) : Object.is(value, -0) ? '-0' : String(value)}`
}

function freshSource(): IndexedDBSource {
  return {
    indexedDB: new IDBFactory() as unknown as globalThis.IDBFactory,
    IDBKeyRange: IDBKeyRange as unknown as typeof globalThis.IDBKeyRange,
  }
}

const TABLES = ['messages', 'vectorBlocks', 'vectorResiduals', 'lexicalSnapshots', 'coarseLists'] as const

/** Writes `tables` raw into a database the store created (plain, or encrypted with `cipher`), and its state row. */
async function writeRaw(
  source: IndexedDBSource,
  name: string,
  tables: Tables & { state: Row },
  cipher?: RecordCipher,
): Promise<void> {
  for (const table of TABLES) {
    const records = cipher
      ? await Promise.all(
          tables[table].map(async (record) => {
            const { clear, context, secret } = sealedForm(table, record)
            return { ...clear, sealed: await cipher.sealValue(secret, context) }
          }),
        )
      : tables[table]
    await putRaw(source.indexedDB, name, table, records)
  }
  await putRaw(source.indexedDB, name, 'meta', [tables.state])
}

/** Every record of every table is the expected one, plain or (with `cipher`) sealed; the key check is `keyCheck`. */
async function expectStored(
  source: IndexedDBSource,
  name: string,
  expected: Tables & { state: Row },
  cipher?: RecordCipher,
  keyCheck?: unknown,
): Promise<void> {
  for (const table of TABLES) {
    const records = (await getAllRaw(source.indexedDB, name, table)) as Row[]
    expect(records, table).toHaveLength(expected[table].length)
    for (const [i, record] of records.entries()) {
      if (!cipher) {
        expect(record, table).toEqual(expected[table][i])
        expect(layout(record), table).toBe(layout(expected[table][i]))
        continue
      }
      const { clear, context, secret } = sealedForm(table, expected[table][i])
      const { sealed, ...stored } = record
      expect(stored, table).toEqual(clear)
      expect(Object.keys(record), table).toEqual([...Object.keys(clear), 'sealed'])
      expect(layout(stored), table).toBe(layout(clear))
      const opened = await cipher.open(sealed, context)
      expect(opened && Buffer.from(opened).equals(Buffer.from(packValue(secret))), `${table} ${i} sealed`).toBe(true)
    }
  }
  const meta = (await getAllRaw(source.indexedDB, name, 'meta')) as Row[]
  expect(meta).toEqual(keyCheck === undefined ? [expected.state] : [keyCheck, expected.state])
  expect(layout(meta.find((row) => row.key === 'state'))).toBe(layout(expected.state))
}

/** Opens and reads without writing anything, then forgets m2, appends sid 6, adds m4 and saves both indexes. */
async function operate(source: IndexedDBSource, name: string, key?: CryptoKey): Promise<void> {
  const dump = () => dumpRaw(source.indexedDB, name)
  const untouched = await dump()
  const store = await SiftStore.open(name, source, MODEL, key && { key })
  const contents = await store.readContents()
  const stored = initialTables()
  expect(contents.state).toEqual(stored.state)
  expect(contents.messages).toEqual(stored.messages)
  expect(contents.skippedMessages).toEqual([])
  expect(contents.blocks).toEqual(stored.vectorBlocks)
  expect(contents.lexical).toEqual(stored.lexicalSnapshots[0])
  expect(contents.coarseLists).toEqual(stored.coarseLists[0])
  expect(await store.residuals()).toEqual(stored.vectorResiduals)
  expect((await store.messagesById(['m3', 'gone', 'm1'])).map((m) => m.id)).toEqual(['m3', 'm1'])
  expect(await store.messagesInSeqOrder('c1')).toEqual(stored.messages.slice(0, 2))
  expect((await dump()).equals(untouched)).toBe(true)

  expect(await store.forget({ id: 'm2' })).toEqual({ messageIds: ['m2'], sids: [4], redacted: [] })
  expect(await store.appendVectors([6], APPENDED, DIM, 6)).toEqual({ sids: [6], vectors: APPENDED })
  await store.addMessages([{ id: 'm4', role: 'assistant', content: 'Delta.', conversationId: 'c2', timestamp: 4_000 }])
  await store.saveLexicalSnapshot({ format: 1, nextSid: 8, index: NEW_LEXICAL_INDEX })
  await store.saveCoarseLists(NEW_COARSE_LISTS)
  store.close()
}

describe('the stored layout', () => {
  it('a plain memory: open and reads write nothing; forget, append, add and saves write the records as before', async () => {
    const source = freshSource()
    ;(await SiftStore.open('plain', source, MODEL)).close()
    await writeRaw(source, 'plain', initialTables())
    await expectStored(source, 'plain', initialTables())
    await operate(source, 'plain')
    await expectStored(source, 'plain', finalTables())
  })

  it('an encrypted memory: the same records in clear, each sealed under its context with the same value', async () => {
    const source = freshSource()
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
    const cipher = new RecordCipher(key)
    ;(await SiftStore.open('sealed', source, MODEL, { key })).close()
    const [keyCheck] = (await getAllRaw(source.indexedDB, 'sealed', 'meta')) as Row[]
    expect(keyCheck).toMatchObject({ key: 'encryption', kdf: 'caller-key' })
    await writeRaw(source, 'sealed', initialTables(), cipher)
    await expectStored(source, 'sealed', initialTables(), cipher, keyCheck)
    await operate(source, 'sealed', key)
    await expectStored(source, 'sealed', finalTables(), cipher, keyCheck)
  })

  it('quantises a float32 block at open into the two records an int8 append writes', async () => {
    const source = freshSource()
    ;(await SiftStore.open('float', source, MODEL)).close()
    const stored = initialTables()
    const vectors = Float32Array.from([0.6, 0.8, -1, 0.25, 0, 1, 0.3, -0.4])
    const float = {
      blockId: 1,
      model: MODEL,
      dim: DIM,
      firstSid: 1,
      lastSid: 4,
      sids: Float64Array.from([1, 2, 3, 4]),
      vectors,
    }
    await writeRaw(source, 'float', {
      ...stored,
      state: state({ nextSeq: 4, nextSid: 7, nextBlockId: 2, embeddedThrough: 4 }),
      vectorBlocks: [float],
      vectorResiduals: [],
    })
    const store = await SiftStore.open('float', source, MODEL)
    const layers = quantizeBlockRows(vectors, 4, DIM)
    const { vectors: _vectors, ...rest } = float
    const codes = { ...rest, format: layers.format, codes: layers.codes, scales: layers.scales }
    expect((await store.readContents()).blocks).toEqual([codes])
    store.close()
    const residuals = {
      blockId: 1,
      sids: float.sids,
      residuals: layers.residuals,
      residualScales: layers.residualScales,
    }
    expect(await getAllRaw(source.indexedDB, 'float', 'vectorBlocks')).toEqual([codes])
    const [record] = (await getAllRaw(source.indexedDB, 'float', 'vectorBlocks')) as Row[]
    expect(layout(record)).toBe(layout(codes))
    const [residualRecord] = (await getAllRaw(source.indexedDB, 'float', 'vectorResiduals')) as Row[]
    expect(layout(residualRecord)).toBe(layout(residuals))
  })

  it('an encrypted memory skips and reports a message that does not open, and fails on a vector record that does not', async () => {
    const source = freshSource()
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
    const cipher = new RecordCipher(key)
    ;(await SiftStore.open('damaged', source, MODEL, { key })).close()
    await writeRaw(source, 'damaged', initialTables(), cipher)
    // m2's sealing moved to m1's place: it no longer opens under m1's context.
    const [m1, m2] = (await getAllRaw(source.indexedDB, 'damaged', 'messages')) as Row[]
    await putRaw(source.indexedDB, 'damaged', 'messages', [{ ...m1, sealed: m2.sealed }])
    const store = await SiftStore.open('damaged', source, MODEL, { key })
    const contents = await store.readContents()
    expect(contents.skippedMessages).toEqual(['m1'])
    expect(contents.messages.map((m) => m.id)).toEqual(['m2', 'm3'])
    expect((await store.messagesById(['m1', 'm2'])).map((m) => m.id)).toEqual(['m2'])
    store.close()

    const [, block2] = (await getAllRaw(source.indexedDB, 'damaged', 'vectorBlocks')) as Row[]
    const [residuals1] = (await getAllRaw(source.indexedDB, 'damaged', 'vectorResiduals')) as Row[]
    await putRaw(source.indexedDB, 'damaged', 'vectorResiduals', [{ ...residuals1, sealed: block2.sealed }])
    const reopened = await SiftStore.open('damaged', source, MODEL, { key })
    await expect(reopened.residuals()).rejects.toMatchObject({
      code: 'STORAGE_FAILED',
      message: expect.stringContaining('The vector residuals 1 of this encrypted memory does not open with its key'),
    })
    await putRaw(source.indexedDB, 'damaged', 'vectorBlocks', [{ ...block2, blockId: 1 }])
    await expect(reopened.readContents()).rejects.toMatchObject({
      code: 'STORAGE_FAILED',
      message: expect.stringContaining('The vector block 1 of this encrypted memory does not open with its key'),
    })
    reopened.close()
  })
})
