// Two stores on one database, both rewriting the records they read (what two engines do when a worker is replaced
// while its engine still finishes a write, or in tabs without Web Locks): a plain memory's rewrites are serialised by
// IndexedDB and both apply; an encrypted memory's are prepared between two transactions, so the one whose records
// changed meanwhile is refused and writes nothing.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import type { AtRestKey } from '../../worker/crypto/at-rest-key'
import { SiftStore, type IndexedDBSource } from '../../worker/store/store'

const PASSPHRASE = 'correct horse battery staple'

function freshSource(): IndexedDBSource {
  return {
    indexedDB: new IDBFactory() as unknown as globalThis.IDBFactory,
    IDBKeyRange: IDBKeyRange as unknown as typeof globalThis.IDBKeyRange,
  }
}

/** Two stores open on one new database, a four-sentence message added through the first. */
async function twoStores(key?: AtRestKey): Promise<{ first: SiftStore; second: SiftStore; sids: number[] }> {
  const source = freshSource()
  const first = await SiftStore.open('raced', source, 'model', key)
  const second = await SiftStore.open('raced', source, 'model', key)
  const { sentences } = await first.addMessages([
    { id: 'x', role: 'user', content: 'One. Two. Three. Four.', conversationId: 'c', timestamp: 1 },
    { id: 'y', role: 'user', content: 'Five.', conversationId: 'c', timestamp: 2 },
  ])
  return { first, second, sids: sentences.map((sentence) => sentence.sid) }
}

const vectors = Float32Array.from({ length: 2 * 8 }, (_, i) => Math.sin(i + 1))
const storedSids = async (store: SiftStore) =>
  (await store.readContents()).blocks.flatMap((b) => Array.from(b.sids)).sort((a, b) => a - b)

describe('two stores rewriting one database', () => {
  it('plain: both appends apply, one after the other', async () => {
    const { first, second, sids } = await twoStores()
    await Promise.all([
      first.appendVectors(sids.slice(0, 2), vectors, 8, sids[1]),
      second.appendVectors(sids.slice(2, 4), vectors, 8, sids[3]),
    ])
    expect(await storedSids(first)).toEqual(sids.slice(0, 4))
    first.close()
    second.close()
  })

  it('plain: an append merging into a block and a forget of that block both apply', async () => {
    const { first, second, sids } = await twoStores()
    await first.appendVectors(sids.slice(0, 1), vectors.subarray(0, 8), 8, sids[0])
    await Promise.all([
      first.appendVectors(sids.slice(1, 2), vectors.subarray(8), 8, sids[1]),
      second.forget({ id: 'x' }),
    ])
    expect((await first.readContents()).messages.map((m) => m.id)).toEqual(['y'])
    expect(await storedSids(first)).toEqual([])
    first.close()
    second.close()
  })

  it('encrypted: of two appends that read the same trailing blocks, the second to write is refused', async () => {
    const { first, second, sids } = await twoStores({ passphrase: PASSPHRASE })
    const results = await Promise.allSettled([
      first.appendVectors(sids.slice(0, 2), vectors, 8, sids[1]),
      second.appendVectors(sids.slice(2, 4), vectors, 8, sids[3]),
    ])
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
    const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult
    expect(refused.reason).toMatchObject({
      code: 'STORAGE_FAILED',
      message: expect.stringContaining('Could not store the embeddings: the encrypted records changed'),
    })
    expect(await storedSids(first)).toEqual(results[0].status === 'fulfilled' ? sids.slice(0, 2) : sids.slice(2, 4))
    first.close()
    second.close()
  })

  it('encrypted: of an append merging into a block and a forget of that block, the second to write is refused', async () => {
    const { first, second, sids } = await twoStores({ passphrase: PASSPHRASE })
    await first.appendVectors(sids.slice(0, 1), vectors.subarray(0, 8), 8, sids[0])
    const [appended, forgotten] = await Promise.allSettled([
      first.appendVectors(sids.slice(1, 2), vectors.subarray(8), 8, sids[1]),
      second.forget({ id: 'x' }),
    ])
    const refused = [appended, forgotten].filter((result) => result.status === 'rejected')
    expect(refused).toHaveLength(1)
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({
      code: 'STORAGE_FAILED',
      message: expect.stringMatching(/^Could not (forget the messages|store the embeddings): the encrypted records/),
    })
    const messages = (await first.readContents()).messages.map((m) => m.id)
    if (forgotten.status === 'rejected') {
      expect(messages).toEqual(['x', 'y'])
      expect(await storedSids(first)).toEqual(sids.slice(0, 2))
    } else {
      expect(messages).toEqual(['y'])
      expect(await storedSids(first)).toEqual([])
    }
    first.close()
    second.close()
  })
})
