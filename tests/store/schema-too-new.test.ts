// A database written by a newer Sift is refused with SCHEMA_TOO_NEW and left exactly as it was: Dexie would
// otherwise open it at its own version and Sift would write its older schema version into the state row.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { createMemory, SiftError } from '../../src/node'
import { assertSchemaNotNewer } from '../../worker/store/installed-schema'
import { SCHEMA_VERSION } from '../../worker/store/schema'
import { dumpRaw, openRaw, putRaw } from '../raw-database'

async function rejectionOf(promise: Promise<unknown>): Promise<SiftError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SiftError)
  return error as SiftError
}

/** A database this Sift wrote and closed, holding one message (embedded, so vectors are stored too). */
async function writtenByThisSift(name: string): Promise<IDBFactory> {
  const indexedDB = new IDBFactory()
  const memory = await createMemory({ name, indexedDB })
  await memory.add({ role: 'user', content: 'The orchard needs pruning in February.' })
  await memory.indexed()
  await memory.close()
  return indexedDB
}

async function stateRow(indexedDB: IDBFactory, name: string): Promise<Record<string, unknown>> {
  const db = await openRaw(indexedDB, name)
  const row = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const get = db.transaction('meta', 'readonly').objectStore('meta').get('state')
    get.onsuccess = () => resolve(get.result as Record<string, unknown>)
    get.onerror = () => reject(get.error)
  })
  db.close()
  return row
}

describe('a database written by a newer Sift', () => {
  it('is refused with SCHEMA_TOO_NEW when its IndexedDB version is a later Dexie schema, and nothing is written', async () => {
    const name = 'newer-tables'
    const indexedDB = await writtenByThisSift(name)
    // What the next schema could look like: a table this version does not know, at Dexie's version for schema + 1.
    const upgraded = await openRaw(indexedDB, name, (SCHEMA_VERSION + 1) * 10, (db) =>
      db.createObjectStore('futureTable', { keyPath: 'key' }).createIndex('kind', 'kind'),
    )
    upgraded.close()
    await putRaw(indexedDB, name, 'futureTable', [{ key: 'k', kind: 'new', payload: new Uint8Array([1, 2, 3]) }])
    const before = await dumpRaw(indexedDB, name)

    const error = await rejectionOf(createMemory({ name, indexedDB }))
    expect(error.code).toBe('SCHEMA_TOO_NEW')
    expect(error.message).toContain(`IndexedDB version ${(SCHEMA_VERSION + 1) * 10}`)
    expect(error.message).toContain('Update the app')
    expect((await dumpRaw(indexedDB, name)).equals(before)).toBe(true)
  })

  it('is refused with SCHEMA_TOO_NEW when its state row records a later schema, and nothing is written', async () => {
    const name = 'newer-state'
    const indexedDB = await writtenByThisSift(name)
    await putRaw(indexedDB, name, 'meta', [{ ...(await stateRow(indexedDB, name)), schemaVersion: SCHEMA_VERSION + 1 }])
    const before = await dumpRaw(indexedDB, name)

    const error = await rejectionOf(createMemory({ name, indexedDB }))
    expect(error.code).toBe('SCHEMA_TOO_NEW')
    expect(error.message).toContain(`schema ${SCHEMA_VERSION + 1}`)
    expect((await dumpRaw(indexedDB, name)).equals(before)).toBe(true)
  })

  it('does not stand in the way of a database of this schema, nor create one just to look', async () => {
    const name = 'this-schema'
    const indexedDB = await writtenByThisSift(name)
    const memory = await createMemory({ name, indexedDB })
    expect(await memory.stats()).toMatchObject({ messages: 1, pending: 0 })
    await memory.close()
    expect(await stateRow(indexedDB, name)).toMatchObject({ schemaVersion: SCHEMA_VERSION })

    // The check before open looks without creating: a database that does not exist stays so.
    const empty = new IDBFactory()
    await assertSchemaNotNewer('missing', { indexedDB: empty, IDBKeyRange })
    expect(await empty.databases()).toEqual([])
  })

  it('upgraded by a newer Sift while this one has it open: this memory lets the upgrade through, stops, and writes nothing more', async () => {
    const name = 'upgraded-while-open'
    const indexedDB = new IDBFactory()
    const memory = await createMemory({ name, indexedDB })
    await memory.add({ role: 'user', content: 'The orchard needs pruning in February.' })
    await memory.indexed()
    // Left in the backlog: its vectors must not be written into the upgraded database.
    await memory.add({ role: 'user', content: 'The beehives go on the south wall.' })

    // Resolves only once every other connection has closed: a connection that stayed open would block it.
    const upgraded = await openRaw(indexedDB, name, (SCHEMA_VERSION + 1) * 10, (db) =>
      db.createObjectStore('futureTable', { keyPath: 'key' }),
    )
    upgraded.close()
    const after = await dumpRaw(indexedDB, name)

    for (const call of [
      memory.add({ role: 'user', content: 'Too late.' }),
      memory.buildContext('orchard'),
      memory.stats(),
      memory.indexed(),
    ]) {
      const error = await rejectionOf(call)
      expect(error.code).toBe('SCHEMA_TOO_NEW')
      expect(error.message).toContain('Reload the page')
    }
    await memory.close()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect((await dumpRaw(indexedDB, name)).equals(after)).toBe(true)
    const raw = await openRaw(indexedDB, name)
    const count = await new Promise<number>((resolve) => {
      const request = raw.transaction('messages', 'readonly').objectStore('messages').count()
      request.onsuccess = () => resolve(request.result)
    })
    raw.close()
    expect(count).toBe(2)
  })
})
