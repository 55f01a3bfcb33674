import { IDBFactory } from 'fake-indexeddb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Memory } from '../../src/node'
import { runSequence, type SequenceDevice, sequenceSeeds } from './random-sequence'
import { SyncServer, syncedDevice } from './sync-server'

/**
 * The random sequences of tests/sync/random-sequence.ts on two Node devices (fake-indexeddb stores, PouchDB's memory
 * adapter for the mirrors) syncing through a real PouchDB Server: both end with what the reference model says.
 */

const PASSPHRASE = 'random sequences passphrase'
let server: SyncServer

beforeAll(async () => {
  server = await SyncServer.start()
})
afterAll(async () => {
  await server?.stop()
})

/** A Node device: its memory closed to go offline, and opened again on the same IndexedDB to come back. */
async function nodeDevice(name: string, url: string): Promise<SequenceDevice & { close(): Promise<void> }> {
  const indexedDB = new IDBFactory()
  const open = () => syncedDevice(name, url, PASSPHRASE, { indexedDB, requireModelFiles: false })
  let memory: Memory | undefined = await open()
  return {
    memory: () => {
      if (!memory) throw new Error(`${name} is offline`)
      return memory
    },
    goOffline: async () => {
      await memory?.close()
      memory = undefined
    },
    comeBack: async () => {
      memory = await open()
    },
    close: async () => {
      await memory?.close()
    },
  }
}

describe('sync, random sequences on two devices against a reference model', () => {
  for (const seed of sequenceSeeds([1, 2, 3, 4, 5, 6, 7, 8]))
    it(`seed ${seed}: both devices end with what the user kept, pins and summaries included, nothing acknowledged lost`, async () => {
      const database = `userdb-random-${seed}`
      const devices = [
        await nodeDevice(`one-${seed}`, server.url(database)),
        await nodeDevice(`two-${seed}`, server.url(database)),
      ] as const
      const { tally, replacedSealings, liveSealings } = await runSequence(seed, [devices[0], devices[1]], {
        stop: () => server.stop(),
        restart: () => server.restart(),
        sealings: () => server.sealings(database),
      })
      console.log(`[sync random] seed ${seed}: ${JSON.stringify(tally)}`)
      // What a forget or a rewrite replaced is gone from the server's files once it and LevelDB compacted.
      await server.compactFiles()
      expect(server.sealingsInFiles(replacedSealings).length, 'replaced, on the server').toBe(0)
      expect(server.sealingsInFiles(liveSealings).length, 'live, on the server').toBe(liveSealings.length)
      await Promise.all(devices.map((device) => device.close()))
    }, 300_000)
})
