import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { createMemory, SiftError } from '../src/node'
import { BLOCK_CAPACITY } from '../worker/vector-block'
import { SiftStore, type IndexedDBSource, type NewMessage } from '../worker/store'

function freshSource(): IndexedDBSource {
  return { indexedDB: new IDBFactory() as unknown as globalThis.IDBFactory, IDBKeyRange: IDBKeyRange as unknown as typeof globalThis.IDBKeyRange }
}

function message(id: string, content: string, conversationId = 'c1', timestamp = 1_700_000_000_000): NewMessage {
  return { id, role: 'user', content, conversationId, timestamp }
}

async function errorOf(promise: Promise<unknown>): Promise<SiftError> {
  const error = await promise.then(() => undefined, (e: unknown) => e)
  expect(error).toBeInstanceOf(SiftError)
  return error as SiftError
}

describe('SiftStore', () => {
  it('round-trips messages and sentences through a reopen of the same IndexedDB', async () => {
    const source = freshSource()
    const store = await SiftStore.open('round-trip', source, 'model-a')
    const added = await store.addMessages([message('a', 'First sentence. Second one!'), message('b', 'Another turn.', 'c2')])
    store.close()
    const reopened = await SiftStore.open('round-trip', source, 'model-a')
    const snapshot = await reopened.snapshot()
    expect(snapshot.messages).toEqual(added.messages)
    expect(snapshot.sentences).toEqual(added.sentences)
    expect(snapshot.sentences.map((s) => [s.sid, s.seq, s.index, s.text])).toEqual([
      [1, 1, 0, 'First sentence.'],
      [2, 1, 1, 'Second one!'],
      [3, 2, 0, 'Another turn.'],
    ])
    expect(snapshot.state).toMatchObject({ nextSeq: 3, nextSid: 4, embeddedThrough: 0 })
    reopened.close()
  })

  it('rejects a batch with an already stored id atomically: nothing of the batch is written', async () => {
    const store = await SiftStore.open('duplicates', freshSource(), 'm')
    await store.addMessages([message('a', 'Kept.')])
    const error = await errorOf(store.addMessages([message('new', 'Would be new.'), message('a', 'Clash.')]))
    expect(error.code).toBe('DUPLICATE_ID')
    const snapshot = await store.snapshot()
    expect(snapshot.messages.map((m) => m.id)).toEqual(['a'])
    expect(snapshot.sentences.map((s) => s.text)).toEqual(['Kept.'])
    expect(snapshot.state).toMatchObject({ nextSeq: 2, nextSid: 2 })
    store.close()
  })

  it('fills the last vector block by rewrite, spills into new blocks, and drops vectors of sentences forgotten meanwhile', async () => {
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
    const snapshot = await store.snapshot()
    expect(snapshot.blocks.map((b) => b.sids.length)).toEqual([BLOCK_CAPACITY, 9])
    const allSids = snapshot.blocks.flatMap((b) => Array.from(b.sids))
    expect(allSids).toEqual(sentences.map((s) => s.sid).filter((sid) => sid !== sentences[5].sid))
    const block = snapshot.blocks[1]
    expect(Array.from(block.vectors.subarray(0, dim))).toEqual([block.sids[0], -block.sids[0], 0.5])
    expect(snapshot.state.embeddedThrough).toBe(sentences[sentences.length - 1].sid)
    expect(await store.pendingSentences(10)).toEqual([])

    const removed = await store.forget({ before: 1_700_000_000_001 })
    expect(removed.messageIds).toHaveLength(contents.length - 1)
    const empty = await store.snapshot()
    expect([empty.messages.length, empty.sentences.length, empty.blocks.length]).toEqual([0, 0, 0])
    store.close()
  })

  it('clears stored vectors when opened with a different model fingerprint', async () => {
    const source = freshSource()
    const store = await SiftStore.open('fingerprint', source, 'model-a')
    const { sentences } = await store.addMessages([message('a', 'One. Two.')])
    await store.appendVectors(sentences.map((s) => s.sid), new Float32Array([1, 0, 0, 1]), 2, sentences[1].sid)
    store.close()
    const same = await SiftStore.open('fingerprint', source, 'model-a')
    expect((await same.snapshot()).blocks).toHaveLength(1)
    same.close()
    const other = await SiftStore.open('fingerprint', source, 'model-b')
    const snapshot = await other.snapshot()
    expect(snapshot.blocks).toEqual([])
    expect(snapshot.state).toMatchObject({ model: 'model-b', embeddedThrough: 0 })
    expect((await other.pendingSentences(10)).map((s) => s.text)).toEqual(['One.', 'Two.'])
    other.close()
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
    const inBatch = await errorOf(memory.add([{ role: 'user', content: 'a', id: 'x' }, { role: 'user', content: 'b', id: 'x' }]))
    expect(inBatch.code).toBe('DUPLICATE_ID')
    const stored = await errorOf(memory.add([{ role: 'user', content: 'new', id: 'fresh' }, { role: 'user', content: 'again', id: 'keep' }]))
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
