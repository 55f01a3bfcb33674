import Dexie from 'dexie'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { splitSentences } from '../../src/core/split-sentences'
import { createMemory, SiftError } from '../../src/node'
import type { Sentence, StoredMessage } from '../../src/types'
import { sentencesOf } from '../../worker/store/message-record'
import { LexicalIndex } from '../../worker/index/lexical/lexical-index'
import { BLOCK_CAPACITY, VECTOR_BLOCK_FORMAT } from '../../worker/store/vector-block'
import type { ValidMessage } from '../../worker/input/message-input'
import { SCHEMA_VERSION } from '../../worker/store/schema'
import { SiftStore, type IndexedDBSource, type StoreContents } from '../../worker/store/store'

function freshSource(): IndexedDBSource {
  return {
    indexedDB: new IDBFactory() as unknown as globalThis.IDBFactory,
    IDBKeyRange: IDBKeyRange as unknown as typeof globalThis.IDBKeyRange,
  }
}

function message(id: string, content: string, conversationId = 'c1', timestamp = 1_700_000_000_000): ValidMessage {
  return { id, role: 'user', content, conversationId, timestamp }
}

const sentencesIn = (snapshot: StoreContents): Sentence[] => snapshot.messages.flatMap(sentencesOf)

async function errorOf(promise: Promise<unknown>): Promise<SiftError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SiftError)
  return error as SiftError
}

describe('SiftStore', () => {
  it('round-trips messages and sentences through a reopen of the same IndexedDB', async () => {
    const source = freshSource()
    const store = await SiftStore.open('round-trip', source, 'model-a')
    const added = await store.addMessages([
      message('a', 'First sentence. Second one!'),
      message('b', 'Another turn.', 'c2'),
    ])
    store.close()
    const reopened = await SiftStore.open('round-trip', source, 'model-a')
    const snapshot = await reopened.readContents()
    expect(snapshot.messages).toEqual(added.messages)
    expect(sentencesIn(snapshot)).toEqual(added.sentences)
    expect(sentencesIn(snapshot).map((s) => [s.sid, s.seq, s.index, s.text])).toEqual([
      [1, 1, 0, 'First sentence.'],
      [2, 1, 1, 'Second one!'],
      [3, 2, 0, 'Another turn.'],
    ])
    expect(snapshot.state).toMatchObject({ nextSeq: 3, nextSid: 4, embeddedThrough: 0 })
    reopened.close()
  })

  it('hands the texts to onTexts (messages in seq order, lexical snapshot) before the snapshot resolves; a throwing onTexts rejects the read and loses nothing', async () => {
    const source = freshSource()
    const store = await SiftStore.open('texts-first', source, 'm')
    await store.addMessages([message('b', 'Two.'), message('a', 'One. Still one.')])
    const events: string[] = []
    let handed: unknown[] = []
    const snapshot = await store
      .readContents((messages, lexical) => {
        events.push('texts')
        handed = [messages, lexical]
      })
      .then((s) => {
        events.push('snapshot')
        return s
      })
    expect(events).toEqual(['texts', 'snapshot'])
    expect(handed).toEqual([snapshot.messages, undefined])
    expect(snapshot.messages.map((m) => m.id)).toEqual(['b', 'a'])
    const error = await errorOf(
      store.readContents(() => {
        throw new Error('index failed')
      }),
    )
    expect(error.message).toContain('index failed')
    expect((await store.readContents()).messages.map((m) => m.id)).toEqual(['b', 'a'])
    store.close()
  })

  it('rejects a batch with an already stored id atomically: nothing of the batch is written', async () => {
    const store = await SiftStore.open('duplicates', freshSource(), 'm')
    await store.addMessages([message('a', 'Kept.')])
    const error = await errorOf(store.addMessages([message('new', 'Would be new.'), message('a', 'Clash.')]))
    expect(error.code).toBe('DUPLICATE_ID')
    const snapshot = await store.readContents()
    expect(snapshot.messages.map((m) => m.id)).toEqual(['a'])
    expect(sentencesIn(snapshot).map((s) => s.text)).toEqual(['Kept.'])
    expect(snapshot.state).toMatchObject({ nextSeq: 2, nextSid: 2 })
    store.close()
  })

  it('stores int8 vector blocks, merges small trailing blocks up to capacity, and drops vectors of sentences forgotten meanwhile', async () => {
    const store = await SiftStore.open('blocks', freshSource(), 'm')
    const contents = Array.from({ length: BLOCK_CAPACITY + 10 }, (_, i) => `Sentence number ${i}.`)
    const { sentences } = await store.addMessages(contents.map((c, i) => message(`m${i}`, c)))
    const dim = 3
    const vectorsFor = (sids: number[]) => Float32Array.from(sids.flatMap((sid) => [sid, -sid, 0.5]))
    const firstSids = sentences.slice(0, 5).map((s) => s.sid)
    await store.appendVectors(firstSids, vectorsFor(firstSids), dim, firstSids[4])
    await store.forget({ id: 'm5' })
    const restSids = sentences.slice(5).map((s) => s.sid)
    const kept = await store.appendVectors(restSids, vectorsFor(restSids), dim, restSids[restSids.length - 1])
    expect(kept.sids).toEqual(restSids.filter((sid) => sid !== sentences[5].sid))
    const snapshot = await store.readContents()
    // The 5-row block is filled up to capacity by the big batch, not stranded before a full block.
    expect(snapshot.blocks.map((b) => b.sids.length)).toEqual([BLOCK_CAPACITY, 5, 4])
    const allSids = snapshot.blocks.flatMap((b) => Array.from(b.sids))
    expect(allSids).toEqual(sentences.map((s) => s.sid).filter((sid) => sid !== sentences[5].sid))
    const block = snapshot.blocks[2]
    expect(Array.from(block.codes.subarray(0, dim))).toEqual([127, -127, 0])
    expect(block.scales[0]).toBeCloseTo(block.sids[0] / 127, 3)
    expect(snapshot.state.embeddedThrough).toBe(sentences[sentences.length - 1].sid)
    const sidsByBlock = (blocks: readonly { blockId: number; sids: Float64Array }[]) =>
      blocks.map((b) => [b.blockId, Array.from(b.sids)])
    expect(sidsByBlock((await store.residuals()).residuals)).toEqual(sidsByBlock(snapshot.blocks))
    await store.forget({ id: 'm7' })
    expect(sidsByBlock((await store.residuals()).residuals)).toEqual(sidsByBlock((await store.readContents()).blocks))

    const removed = await store.forget({ before: 1_700_000_000_001 })
    expect(removed.messageIds).toHaveLength(contents.length - 2)
    const empty = await store.readContents()
    expect([empty.messages.length, empty.blocks.length, (await store.residuals()).residuals.length]).toEqual([0, 0, 0])
    store.close()
  })

  it('clears stored vectors when opened with a different model fingerprint', async () => {
    const source = freshSource()
    const store = await SiftStore.open('fingerprint', source, 'model-a')
    const { sentences } = await store.addMessages([message('a', 'One. Two.')])
    await store.appendVectors(
      sentences.map((s) => s.sid),
      new Float32Array([1, 0, 0, 1]),
      2,
      sentences[1].sid,
    )
    store.close()
    const same = await SiftStore.open('fingerprint', source, 'model-a')
    expect((await same.readContents()).blocks).toHaveLength(1)
    same.close()
    const other = await SiftStore.open('fingerprint', source, 'model-b')
    const snapshot = await other.readContents()
    expect(snapshot.blocks).toEqual([])
    expect(snapshot.state).toMatchObject({ model: 'model-b', embeddedThrough: 0 })
    expect(sentencesIn(snapshot).map((s) => s.text)).toEqual(['One.', 'Two.'])
    other.close()
  })

  it('keeps the vectors around an empty message, which shares its firstSid with the next one', async () => {
    const store = await SiftStore.open('empty-message', freshSource(), 'm')
    const { sentences } = await store.addMessages([
      message('a', 'Before.'),
      message('empty', ''),
      message('b', 'After. More.'),
    ])
    const sids = sentences.map((s) => s.sid)
    const kept = await store.appendVectors(sids, new Float32Array(sids.length), 1, sids[sids.length - 1])
    expect(kept.sids).toEqual([1, 2, 3])
    expect(await store.forget({ id: 'empty' })).toEqual({
      messageIds: ['empty'],
      sids: [],
      redacted: [],
      droppedSummaries: [],
      earliest: [{ conversationId: 'c1', timestamp: 1_700_000_000_000, seq: 2 }],
      revision: 1,
    })
    expect((await store.readContents()).blocks.flatMap((b) => Array.from(b.sids))).toEqual([1, 2, 3])
    store.close()
  })

  it('keeps the lexical snapshot until a forget, which deletes it in the same transaction', async () => {
    const store = await SiftStore.open('lexical', freshSource(), 'm')
    await store.addMessages([message('a', 'Alpha.'), message('b', 'Beta.')])
    const index = new LexicalIndex()
    index.add([
      {
        sid: 1,
        text: 'Alpha.',
        conversationId: 'c',
        messageId: 'a',
        seq: 1,
        index: 0,
        role: 'user',
        timestamp: 0,
        start: 0,
        end: 6,
      },
    ])
    await store.saveLexicalSnapshot({ format: 1, nextSid: 3, index: index.serialize() })
    await store.addMessages([message('c', 'Gamma.')])
    expect((await store.readContents()).lexical).toEqual({
      key: 'lexical',
      format: 1,
      nextSid: 3,
      index: index.serialize(),
    })
    await store.forget({ id: 'zzz' })
    expect((await store.readContents()).lexical).toBeDefined()
    await store.forget({ id: 'a' })
    expect((await store.readContents()).lexical).toBeUndefined()
    store.close()
  })
})

describe('stored vector formats', () => {
  it('quantises a float32 block at open even when an earlier block is int8, and keeps format-1 blocks as they are', async () => {
    const source = freshSource()
    const store = await SiftStore.open('formats', source, 'm')
    const { sentences } = await store.addMessages([message('a', 'One. Two. Three. Four.')])
    const sids = sentences.map((s) => s.sid)
    await store.appendVectors(sids.slice(0, 2), new Float32Array([1, 0, 0.6, 0.8]), 2, sids[1])
    store.close()
    const raw = new Dexie('formats', { indexedDB: source.indexedDB, IDBKeyRange: source.IDBKeyRange })
    await raw.open()
    const formatOne = {
      blockId: 7,
      model: 'm',
      dim: 2,
      firstSid: sids[2],
      lastSid: sids[2],
      sids: Float64Array.from([sids[2]]),
      codes: Int8Array.from([0, 127]),
      scales: Float32Array.from([1 / 127]),
    }
    await raw.table('vectorBlocks').bulkPut([
      formatOne,
      {
        blockId: 8,
        model: 'm',
        dim: 2,
        firstSid: sids[3],
        lastSid: sids[3],
        sids: Float64Array.from([sids[3]]),
        vectors: Float32Array.from([-0.6, 0.8]),
      },
    ])
    raw.close()

    const reopened = await SiftStore.open('formats', source, 'm')
    const blocks = (await reopened.readContents()).blocks
    expect(blocks.map((b) => [b.blockId, b.format])).toEqual([
      [1, VECTOR_BLOCK_FORMAT],
      [7, undefined],
      [8, VECTOR_BLOCK_FORMAT],
    ])
    expect(blocks[1]).toEqual(formatOne)
    expect(Array.from(blocks[2].codes)).toEqual([-95, 127])
    // Residuals are not part of the snapshot open waits for; they are their own records, read afterwards.
    expect(blocks.some((b) => b.residuals !== undefined)).toBe(false)
    const { residuals } = await reopened.residuals()
    expect(residuals.map((r) => r.blockId)).toEqual([1, 8])
    expect(
      blocks[2].codes[0] * blocks[2].scales[0] + residuals[1].residuals[0] * residuals[1].residualScales[0],
    ).toBeCloseTo(-0.6, 6)
    reopened.close()
    const check = new Dexie('formats', { indexedDB: source.indexedDB, IDBKeyRange: source.IDBKeyRange })
    await check.open()
    expect(await check.table('vectorBlocks').get(8)).toMatchObject({
      format: VECTOR_BLOCK_FORMAT,
      codes: Int8Array.from([-95, 127]),
    })
    expect(await check.table('vectorBlocks').get(8)).not.toHaveProperty('vectors')
    check.close()
  })
})

/** Writes a database exactly as schema 1 (the sentence-row layout before this version) stored it. */
async function writeVersion1(
  source: IndexedDBSource,
  name: string,
  model: string,
  messages: StoredMessage[],
  dim: number,
): Promise<Sentence[]> {
  const db = new Dexie(name, { indexedDB: source.indexedDB, IDBKeyRange: source.IDBKeyRange })
  db.version(1).stores({
    messages: 'id, &seq, conversationId, [conversationId+seq], timestamp',
    sentences: 'sid, messageId, conversationId, seq',
    vectorBlocks: 'blockId, lastSid',
    meta: 'key',
  })
  let sid = 1
  const sentences = messages.flatMap((m) =>
    splitSentences(m.content).map((span, index) => ({
      sid: sid++,
      messageId: m.id,
      conversationId: m.conversationId,
      seq: m.seq,
      index,
      role: m.role,
      timestamp: m.timestamp,
      ...span,
    })),
  )
  const sids = Float64Array.from(sentences, (s) => s.sid)
  const vectors = Float32Array.from(sentences.flatMap((s) => Array.from({ length: dim }, (_, d) => s.sid + d / 10)))
  await db.table('messages').bulkAdd(messages)
  await db.table('sentences').bulkAdd(sentences)
  await db
    .table('vectorBlocks')
    .put({ blockId: 1, model, dim, firstSid: sids[0], lastSid: sids[sids.length - 1], sids, vectors })
  await db.table('meta').put({
    key: 'state',
    schemaVersion: 1,
    model,
    nextSeq: messages.length + 1,
    nextSid: sid,
    nextBlockId: 2,
    embeddedThrough: sid - 1,
  })
  db.close()
  return sentences
}

describe('schema upgrade 1 → 2', () => {
  const v1Messages: StoredMessage[] = [
    {
      id: 'x',
      seq: 1,
      role: 'user',
      content: 'The lighthouse keeper waved. Then he went inside!',
      conversationId: 'c1',
      timestamp: 1_700_000_000_000,
    },
    { id: 'empty', seq: 2, role: 'assistant', content: '', conversationId: 'c1', timestamp: 1_700_000_001_000 },
    {
      id: 'y',
      seq: 3,
      role: 'assistant',
      content: 'Lighthouses are  lonely places.',
      conversationId: 'c2',
      timestamp: 1_700_000_002_000,
    },
  ]

  it('moves sentence rows onto their messages, keeps vectors and counters, and drops the sentence table', async () => {
    const source = freshSource()
    const v1Sentences = await writeVersion1(source, 'upgrade', 'model-a', v1Messages, 2)
    const store = await SiftStore.open('upgrade', source, 'model-a')
    const snapshot = await store.readContents()
    expect(sentencesIn(snapshot)).toEqual(v1Sentences)
    expect(snapshot.messages.map((m) => [m.id, m.firstSid, m.spans])).toEqual([
      ['x', 1, [0, 28, 29, 49]],
      ['empty', 3, []],
      ['y', 3, [0, 31]],
    ])
    expect(snapshot.state).toMatchObject({ schemaVersion: SCHEMA_VERSION, nextSeq: 4, nextSid: 4, embeddedThrough: 3 })
    expect(Array.from(snapshot.blocks[0].sids)).toEqual([1, 2, 3])
    expect(snapshot.lexical).toBeUndefined()
    const { sentences } = await store.addMessages([
      { id: 'z', role: 'user', content: 'New after the upgrade.', conversationId: 'c1', timestamp: 1_700_000_003_000 },
    ])
    expect(sentences.map((s) => [s.sid, s.seq])).toEqual([[4, 4]])
    expect(await store.forget({ id: 'x' })).toEqual({
      messageIds: ['x'],
      sids: [1, 2],
      redacted: [],
      droppedSummaries: [],
      earliest: [{ conversationId: 'c1', timestamp: 1_700_000_000_000, seq: 1 }],
      revision: 1,
    })
    expect(Array.from((await store.readContents()).blocks[0].sids)).toEqual([3])
    store.close()
    const raw = new Dexie('upgrade', { indexedDB: source.indexedDB, IDBKeyRange: source.IDBKeyRange })
    await raw.open()
    expect(raw.verno).toBe(SCHEMA_VERSION)
    expect(raw.tables.map((t) => t.name).sort()).toEqual([
      'coarseLists',
      'lexicalSnapshots',
      'messages',
      'meta',
      'vectorBlocks',
      'vectorResiduals',
    ])
    raw.close()
  })

  it('opens an upgraded version-1 store through the engine: same sentences, contexts from the kept vectors', async () => {
    const indexedDB = new IDBFactory()
    const source = {
      indexedDB: indexedDB as unknown as globalThis.IDBFactory,
      IDBKeyRange: IDBKeyRange as unknown as typeof globalThis.IDBKeyRange,
    }
    await writeVersion1(source, 'engine-upgrade', 'fingerprint-of-another-model', v1Messages, 2)
    const memory = await createMemory({ name: 'engine-upgrade', indexedDB })
    expect(await memory.stats()).toMatchObject({ messages: 3, sentences: 3, pending: 3 })
    const lexical = await memory.buildContext('lighthouse keeper', { strategy: 'lexical', budget: 1000 })
    expect(lexical.items[0].text).toBe('The lighthouse keeper waved.')
    await memory.indexed()
    const dense = await memory.buildContext('lighthouse keeper', { strategy: 'dense', budget: 1000 })
    expect(dense.items.map((i) => i.text).sort()).toEqual([
      'Lighthouses are  lonely places.',
      'The lighthouse keeper waved.',
      'Then he went inside!',
    ])
    await memory.close()
  })
})

describe('add validation (Node entry, nothing stored on error)', () => {
  it('rejects bad input with a typed, actionable error and keeps what was stored before', async () => {
    const indexedDB = new IDBFactory()
    const memory = await createMemory({ name: 'validation', indexedDB })
    await memory.add({ role: 'user', content: 'Stored before.', id: 'keep' })
    const bad: unknown[] = [
      null,
      { role: '', content: 'x' },
      { role: 'user', content: 42 },
      { role: 'user', content: 'x', timestamp: 'not a date' },
      { role: 'user', content: 'x', conversationId: '' },
      [{ role: 'user', content: 'fine' }, { role: 'user' }],
    ]
    for (const input of bad) {
      const error = await errorOf(memory.add(input as never))
      expect(error.code).toBe('INVALID_INPUT')
      expect(error.message).toMatch(/must|Nothing was stored/)
    }
    const inBatch = await errorOf(
      memory.add([
        { role: 'user', content: 'a', id: 'x' },
        { role: 'user', content: 'b', id: 'x' },
      ]),
    )
    expect(inBatch.code).toBe('DUPLICATE_ID')
    const stored = await errorOf(
      memory.add([
        { role: 'user', content: 'new', id: 'fresh' },
        { role: 'user', content: 'again', id: 'keep' },
      ]),
    )
    expect(stored.code).toBe('DUPLICATE_ID')
    expect(await memory.stats()).toMatchObject({ messages: 1, sentences: 1 })
    await memory.close()
    const reopened = await createMemory({ name: 'validation', indexedDB })
    expect(await reopened.stats()).toMatchObject({ messages: 1, sentences: 1 })
    const ctx = await reopened.buildContext('', { strategy: 'full' })
    expect(ctx.text).toContain('Stored before.')
    await reopened.close()
  })
})
