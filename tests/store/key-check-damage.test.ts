// An encrypted memory whose key check (the `meta` row `encryption`) is gone, from a damaged disk or from someone who
// can write it: open must still see the sealed records, refuse, and write nothing; it used to write a new key check
// and re-seal the blocks before failing with a TypeError, or open "empty" and store new messages in clear.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import type { AtRestKey } from '../../worker/crypto/at-rest-key'
import { SiftStore, type IndexedDBSource } from '../../worker/store/store'
import { deleteRaw, dumpRaw, getAllRaw } from '../raw-database'

const MODEL = 'model-fingerprint'
const KEY: AtRestKey = { passphrase: 'correct horse battery staple' }

function freshSource(): IndexedDBSource {
  return {
    indexedDB: new IDBFactory() as unknown as globalThis.IDBFactory,
    IDBKeyRange: IDBKeyRange as unknown as typeof globalThis.IDBKeyRange,
  }
}

/** An encrypted memory of two messages, their three sentences' vectors stored. */
async function encryptedStore(source: IndexedDBSource, name: string): Promise<void> {
  const store = await SiftStore.open(name, source, MODEL, KEY)
  await store.addMessages([
    {
      id: 'm1',
      role: 'user',
      content: 'My sister is allergic to peanuts. She carries a pen.',
      conversationId: 'c',
      timestamp: 1,
    },
    { id: 'm2', role: 'user', content: 'The boiler knocks.', conversationId: 'c', timestamp: 2 },
  ])
  await store.appendVectors([1, 2, 3], Float32Array.from([1, 0, 0, 1, 0.6, 0.8]), 2, 3)
  store.close()
}

async function rejection(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: { code?: string; message: string }) => error,
  )
}

describe('a deleted key check', () => {
  for (const alsoDeleted of [[], ['vectorBlocks', 'vectorResiduals']]) {
    it(`is refused with STORAGE_FAILED naming it, with and without a key, and nothing is written (also deleted: ${alsoDeleted.join(', ') || 'nothing'})`, async () => {
      const source = freshSource()
      await encryptedStore(source, 'memory')
      await deleteRaw(source.indexedDB, 'memory', 'meta', ['encryption'])
      for (const table of alsoDeleted) await deleteRaw(source.indexedDB, 'memory', table, [1, 2, 3, 4])
      const untouched = await dumpRaw(source.indexedDB, 'memory')
      for (const key of [KEY, undefined]) {
        const error = await rejection(SiftStore.open('memory', source, MODEL, key))
        expect(error.code).toBe('STORAGE_FAILED')
        expect(error.message).toContain('key check')
        expect((await dumpRaw(source.indexedDB, 'memory')).equals(untouched)).toBe(true)
      }
      const meta = (await getAllRaw(source.indexedDB, 'memory', 'meta')) as { key: string }[]
      expect(meta.map((row) => row.key)).toEqual(['state'])
    })
  }
})
