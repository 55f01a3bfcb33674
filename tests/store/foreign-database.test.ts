// Another app's IndexedDB database that happens to have the memory's name: Sift must not add its tables to it.
import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { createMemory } from '../../src/node'
import { dumpRaw, openRaw } from '../raw-database'

describe("another app's database of the same name", () => {
  it('is refused with INVALID_INPUT naming it, and left exactly as it was', async () => {
    const indexedDB = new IDBFactory()
    const raw = indexedDB as unknown as globalThis.IDBFactory
    const db = await openRaw(raw, 'chat', 3, (created) => {
      created.createObjectStore('drafts', { keyPath: 'id' })
      created.createObjectStore('settings')
    })
    db.close()
    const untouched = await dumpRaw(raw, 'chat')
    const refused = await createMemory({ name: 'chat', indexedDB }).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(refused).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('another app') })
    expect((await dumpRaw(raw, 'chat')).equals(untouched)).toBe(true)
  })
})
