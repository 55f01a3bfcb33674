// The records the store reads and writes, byte for byte: a plain and an encrypted database are written raw in the
// stored layout (schema 6; and an encrypted one in schema 5's, which open re-seals), then opened, read, forgotten from and appended to through the store, and every object store
// is read back raw. A plain record must equal the expected one as structured clone writes it (the same fields, in the
// same order, of the same types); a sealed one must have those clear fields and open, under its context, to the bytes
// of the expected value (`packValue`). The layout is spelt out here, not taken from the store's own code.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { packValue } from '../../worker/crypto/packed-value'
import { RecordCipher } from '../../worker/crypto/record-cipher'
import { SiftStore, type IndexedDBSource } from '../../worker/store/store'
import { quantizeBlockRows } from '../../worker/store/vector-block'
import { dumpRaw, getAllRaw, putRaw } from '../raw-database'
import {
  APPENDED,
  DIM,
  finalTables,
  initialTables,
  layout,
  MODEL,
  NEW_COARSE_LISTS,
  NEW_LEXICAL_INDEX,
  type Row,
  sealedForm,
  state,
  type Tables,
} from './stored-layout-tables'

function freshSource(): IndexedDBSource {
  return {
    indexedDB: new IDBFactory() as unknown as globalThis.IDBFactory,
    IDBKeyRange: IDBKeyRange as unknown as typeof globalThis.IDBKeyRange,
  }
}

const TABLES = ['messages', 'vectorBlocks', 'vectorResiduals', 'lexicalSnapshots', 'coarseLists'] as const

/**
 * Writes `tables` raw into a database the store created (plain, or encrypted with `cipher` in the layout of `schema`),
 * and its state row.
 */
async function writeRaw(
  source: IndexedDBSource,
  name: string,
  tables: Tables & { state: Row },
  cipher?: RecordCipher,
  schema = 6,
): Promise<void> {
  for (const table of TABLES) {
    const records = cipher
      ? await Promise.all(
          tables[table].map(async (record) => {
            const { clear, context, secret } = sealedForm(table, record, schema)
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
  expected: Tables & { state: Row; revision?: Row },
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
  // In key order: the key check ('encryption'), the forget revision, the state row.
  expect(meta).toEqual([keyCheck, expected.revision, expected.state].filter((row) => row !== undefined))
  expect(layout(meta.find((row) => row.key === 'state'))).toBe(layout(expected.state))
  if (expected.revision) expect(layout(meta.find((row) => row.key === 'revision'))).toBe(layout(expected.revision))
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
  expect(await store.residuals()).toEqual({ residuals: stored.vectorResiduals, damaged: [] })
  expect((await store.messagesById(['m3', 'gone', 'm1'])).map((m) => m.id)).toEqual(['m3', 'm1'])
  expect(await store.messagesInSeqOrder('c1')).toEqual(stored.messages.slice(0, 2))
  expect((await dump()).equals(untouched)).toBe(true)

  expect(await store.forget({ id: 'm2' })).toEqual({
    messageIds: ['m2'],
    sids: [4],
    redacted: [],
    droppedSummaries: [],
    earliest: [{ conversationId: 'c1', timestamp: 2_000, seq: 2 }],
    revision: 1,
  })
  expect(await store.forgetRevision()).toBe(1)
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

  it('an encrypted schema-5 memory is re-sealed at open with its clear fields bound, then reads and writes as schema 6', async () => {
    const source = freshSource()
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
    const cipher = new RecordCipher(key)
    ;(await SiftStore.open('schema5', source, MODEL, { key })).close()
    const [keyCheck] = (await getAllRaw(source.indexedDB, 'schema5', 'meta')) as Row[]
    const schema5 = {
      ...initialTables(),
      state: state({ nextSeq: 4, nextSid: 7, nextBlockId: 3, embeddedThrough: 5 }, 5),
    }
    await writeRaw(source, 'schema5', schema5, cipher, 5)
    ;(await SiftStore.open('schema5', source, MODEL, { key })).close()
    await expectStored(source, 'schema5', initialTables(), cipher, keyCheck)
    await operate(source, 'schema5', key)
    await expectStored(source, 'schema5', finalTables(), cipher, keyCheck)
  })

  it('a sealed record whose clear fields were edited no longer opens: skipped and reported, or its vectors re-embedded', async () => {
    const source = freshSource()
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
    const cipher = new RecordCipher(key)
    ;(await SiftStore.open('edited', source, MODEL, { key })).close()
    await writeRaw(source, 'edited', initialTables(), cipher)
    const [m1, m2, m3] = (await getAllRaw(source.indexedDB, 'edited', 'messages')) as Row[]
    // m1 moved to another conversation, m2 dated later, m3 given m1's sentences; block 2 claims sid 6.
    await putRaw(source.indexedDB, 'edited', 'messages', [
      { ...m1, conversationId: 'elsewhere' },
      { ...m2, timestamp: 9_000 },
      { ...m3, firstSid: 1 },
    ])
    const [, block2] = (await getAllRaw(source.indexedDB, 'edited', 'vectorBlocks')) as Row[]
    await putRaw(source.indexedDB, 'edited', 'vectorBlocks', [{ ...block2, lastSid: 6 }])
    const store = await SiftStore.open('edited', source, MODEL, { key })
    const contents = await store.readContents()
    expect(contents.skippedMessages).toEqual(['m1', 'm2', 'm3'])
    expect(contents.messages).toEqual([])
    expect(contents.droppedVectors).toEqual(['vector block 2'])
    store.close()
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

  it('an encrypted memory skips and reports a message that does not open, and drops a vector record that does not', async () => {
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
    expect(await reopened.residuals()).toMatchObject({ residuals: [{ blockId: 2 }], damaged: ['vector residuals 1'] })
    await putRaw(source.indexedDB, 'damaged', 'vectorBlocks', [{ ...block2, blockId: 1 }])
    const dropped = await reopened.readContents()
    expect(dropped).toMatchObject({ blocks: [], droppedVectors: ['vector block 1'], state: { embeddedThrough: 0 } })
    reopened.close()
    for (const table of ['vectorBlocks', 'vectorResiduals', 'coarseLists'])
      expect(await getAllRaw(source.indexedDB, 'damaged', table), table).toEqual([])
  })
})
