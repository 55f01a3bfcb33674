// A forget writes everything it changes in one IndexedDB transaction, the pins row included: a tab that dies right
// after that transaction committed (every later write fails here) leaves no pinned id of a forgotten message, plain
// or encrypted. Read back through a store of its own, which lists the pinned ids as stored, unfiltered.
import { IDBDatabase, IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AtRestKey } from '../../worker/crypto/at-rest-key'
import { Engine } from '../../worker/engine/engine'
import { nodeHost } from '../../worker/hosts/node/node-host'
import { SiftStore, type IndexedDBSource } from '../../worker/store/store'

const conversation = [
  { id: 'kept', conversationId: 'c', role: 'user', content: 'My sister Alma moved to Lisbon last spring.' },
  { id: 'secret', conversationId: 'c', role: 'user', content: 'My zanzibar itinerary leaves from the quayside.' },
] as const

/**
 * While armed, from the first read-write transaction on `messages` on (the forget's write), every later read-write
 * transaction on `meta` throws, as if the tab had died right after the forget's write committed. Installed before the
 * database opens: Dexie binds the connection's `transaction` when it opens.
 */
function dyingTab(): { arm: () => void; disarm: () => void } {
  const transaction = IDBDatabase.prototype.transaction
  let armed = false
  let forgetWrote = false
  vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementation(function (
    this: IDBDatabase,
    names: string | string[],
    ...rest: unknown[]
  ) {
    const stores = typeof names === 'string' ? [names] : [...names]
    if (armed && rest[0] === 'readwrite') {
      if (forgetWrote && stores.includes('meta')) throw new DOMException('The tab is gone.', 'AbortError')
      if (stores.includes('messages')) forgetWrote = true
    }
    return (transaction as (...args: unknown[]) => IDBTransaction).call(this, names, ...rest)
  } as typeof transaction)
  return { arm: () => (armed = true), disarm: () => (armed = false) }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('a forget writes in one transaction', () => {
  for (const encrypted of [false, true]) {
    it(`${encrypted ? 'encrypted' : 'plain'}: the pins row never names a forgotten message, even when nothing is written after the forget's write`, async () => {
      const factory = new IDBFactory()
      const atRestKey: AtRestKey | undefined = encrypted
        ? { key: await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']) }
        : undefined
      const host = nodeHost({ indexedDB: factory }, new URL('../../', import.meta.url))
      const name = `one-write-${encrypted}`
      const tab = dyingTab()
      const engine = await Engine.open({ name, ...atRestKey }, host)
      await engine.add([...conversation])
      await engine.pins.pin('kept')
      await engine.pins.pin('secret')
      await engine.indexed()

      tab.arm()
      // Today's answer or the failure of a later write: either way, what is stored must hold together.
      await engine.forget({ id: 'secret' }).catch(() => undefined)
      tab.disarm()
      await engine.close()

      const source: IndexedDBSource = {
        indexedDB: factory as unknown as globalThis.IDBFactory,
        IDBKeyRange: IDBKeyRange as unknown as typeof globalThis.IDBKeyRange,
      }
      const store = await SiftStore.open(name, source, 'any-model', atRestKey)
      try {
        expect((await store.messagesById(['kept', 'secret'])).map((m) => m.id)).toEqual(['kept'])
        expect(await store.pinnedIds()).toEqual(['kept'])
      } finally {
        store.close()
      }
    })
  }
})
