// One device's sync round (worker/sync/replica.ts) against a real engine (fake-indexeddb) and a real PouchDB mirror
// (memory adapter), with the app's calls made at chosen points inside the round: a write that lands between two of
// the round's reads must not be taken for something else by the next round.
import { IDBFactory } from 'fake-indexeddb'
import PouchDB from 'pouchdb-core'
import memoryAdapter from 'pouchdb-adapter-memory'
import { afterEach, describe, expect, it } from 'vitest'
import { Engine } from '../../worker/engine/engine'
import { nodeHost } from '../../worker/hosts/node/node-host'
import { Replica, type LocalHistory, type MirrorDatabase } from '../../worker/sync/replica'
import { syncDocumentsFor } from '../../worker/sync/sync-keys'

PouchDB.plugin(memoryAdapter)
const opened: Engine[] = []

afterEach(async () => {
  for (const engine of opened.splice(0)) await engine.close()
})

async function deviceWithMirror(name: string) {
  const host = nodeHost({ indexedDB: new IDBFactory() }, new URL('../../', import.meta.url))
  const engine = await Engine.open({ name, requireModelFiles: false }, host)
  opened.push(engine)
  const mirror = new PouchDB(`mirror-${name}-${crypto.randomUUID()}`, { adapter: 'memory' })
  const documents = await syncDocumentsFor('replica round passphrase', `userdb-${name}`)
  return { engine, mirror, documents }
}

const ids = async (engine: Engine) => (await engine.messages({ limit: 100 })).messages.map((message) => message.id)

/**
 * A device holding a kept and a secret message, synced once to its mirror; then `meanwhile` runs inside the next round,
 * right after it has read the store, and three more rounds follow. The secret is forgotten by `forget` (before or
 * inside that round): it must end gone from the store and deleted in the mirror.
 */
async function forgetAcrossRounds(
  name: string,
  forgetBefore: boolean,
  meanwhile: (device: Awaited<ReturnType<typeof deviceWithMirror>>, secretId: string) => Promise<void>,
) {
  const device = await deviceWithMirror(name)
  const { engine, mirror, documents } = device
  await engine.add([
    { id: 'kept', role: 'user', content: 'The boiler is serviced every May.', conversationId: 'home' },
    { id: 'secret', role: 'user', content: 'The spare key is under the third flowerpot.', conversationId: 'home' },
  ])
  const secretId = await documents.documentId('message', 'secret')
  const history = engine.syncedHistory()
  let inside = false
  const local: LocalHistory = {
    ...history,
    snapshot: async () => {
      const read = await history.snapshot()
      if (inside) {
        inside = false
        await meanwhile(device, secretId)
      }
      return read
    },
  }
  const replica = new Replica(mirror as unknown as MirrorDatabase, documents, local)
  await replica.round()
  if (forgetBefore) await engine.forget({ id: 'secret' })
  inside = true
  for (let round = 0; round < 4; round++) await replica.round()

  expect(await ids(engine)).toEqual(['kept'])
  const secret = await mirror.get(secretId).catch((error: { status?: number }) => error.status)
  expect(secret, "the mirror's copy of the forgotten message").toBe(404)
}

describe("a sync round's reads of the store", () => {
  it('a forget made while the round reads the store is sent as a deletion, not taken for a lost store and undone', async () => {
    await forgetAcrossRounds('forget-inside-round', false, ({ engine }) =>
      engine.forget({ id: 'secret' }).then(() => undefined),
    )
  })

  it('a deletion the mirror refuses, its document changed by the other device meanwhile, is sent again, and the message is not taken back', async () => {
    // After the round has read the mirror, replication brings the other device's rewrite of the message (a conflict it
    // settled): the revision this round knows is no longer the document's leaf, so its deletion is refused.
    await forgetAcrossRounds('deletion-refused', true, async ({ mirror, documents }, secretId) => {
      const current = (await mirror.get(secretId)) as { _rev: string }
      const record = (await documents.open(current as never))!.record as object
      await mirror.put({ ...(await documents.seal('message', 'secret', record)), _rev: current._rev })
    })
  })
})
