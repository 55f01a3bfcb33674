import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemory, type Memory } from '../../src/node'
import { SyncServer, syncedDevice } from './sync-server'

/**
 * Two devices of one user (two memories, each with an IndexedDB of its own) syncing through a real PouchDB Server on
 * loopback: what one adds or forgets reaches the other, the server holds none of it in clear, and a device with
 * another passphrase sends nothing.
 */

const PASSPHRASE = 'correct horse battery staple'
let server: SyncServer

beforeAll(async () => {
  server = await SyncServer.start()
})

afterAll(async () => {
  await server?.stop()
})

let devices = 0
/** A device: a memory of its own storage (and mirror) synced with `database` on the server. */
function device(database: string, passphrase = PASSPHRASE): Promise<Memory> {
  devices++
  return syncedDevice(`device-${devices}`, server.url(database), passphrase)
}

const contents = async (memory: Memory) =>
  (await memory.messages()).messages.map(({ id, role, content, conversationId, timestamp }) => ({
    id,
    role,
    content,
    conversationId,
    timestamp,
  }))

/** Two devices of `database`, the first holding HISTORY and both synced with it. */
async function pairWithHistory(database: string): Promise<[Memory, Memory]> {
  const pair: [Memory, Memory] = [await device(database), await device(database)]
  await pair[0].add(HISTORY)
  await settle(...pair)
  return pair
}

/** Both devices synced, twice, so that what each sent is in the other. */
async function settle(...memories: Memory[]): Promise<void> {
  for (let pass = 0; pass < 2; pass++) for (const memory of memories) await memory.synced()
}

const HISTORY = [
  {
    id: 'm1',
    role: 'user',
    content: 'My new address is 14 Rua das Flores in Porto. The flat has a blue door.',
    conversationId: 'home',
    timestamp: Date.UTC(2026, 10, 2),
  },
  {
    id: 'm2',
    role: 'user',
    content: 'My passport number is X1234567. I renew it in March.',
    conversationId: 'travel',
    timestamp: Date.UTC(2026, 10, 3),
  },
  {
    id: 'm3',
    role: 'assistant',
    content: 'Noted: the quokka sticker goes on the fridge.',
    conversationId: 'home',
    timestamp: Date.UTC(2026, 10, 4),
  },
]

describe('sync between two devices', () => {
  it("carries adds and every kind of forget both ways, and the server holds none of the history's text", async () => {
    const [laptop, phone] = await pairWithHistory('userdb-alice')
    expect(await contents(phone)).toEqual(HISTORY)

    await phone.add({ id: 'm4', role: 'user', content: 'Book the dentist for Tuesday. Bring the x-rays.' })
    await laptop.forget({ sentences: [{ messageId: 'm1', start: 0, end: 45 }] })
    await settle(laptop, phone)
    const laptopHolds = await contents(laptop)
    expect(await contents(phone)).toEqual(laptopHolds)
    expect(laptopHolds.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4'])
    expect(laptopHolds[0].content).toBe('The flat has a blue door.')

    const sealingsBefore = await server.sealings('userdb-alice')
    await phone.forget({ id: 'm2' })
    await settle(phone, laptop)
    expect((await contents(laptop)).map((m) => m.id)).toEqual(['m1', 'm3', 'm4'])
    const context = await laptop.buildContext('What is my passport number and my address?', { budget: 4000 })
    expect(context.text).not.toContain('X1234567')
    expect(context.text).not.toContain('Rua das Flores')

    await Promise.all([laptop.close(), phone.close()])
    // The forgotten message's sealing leaves the server's files (compacted by the forgetting device's sync, then by
    // LevelDB); the kept ones' stay, so the scan reads what the server holds.
    const sealingsAfter = new Set(await server.sealings('userdb-alice'))
    const replaced = sealingsBefore.filter((sealing) => !sealingsAfter.has(sealing))
    const kept = sealingsBefore.filter((sealing) => sealingsAfter.has(sealing))
    expect([replaced.length, kept.length]).toEqual([1, 3])
    await server.compactFiles()
    const raw = Buffer.concat(server.files())
    const inFiles = (sealing: string) => raw.includes(Buffer.from(sealing.slice(0, 40)))
    expect(replaced.filter(inFiles)).toEqual([])
    expect(kept.filter(inFiles)).toEqual(kept)
    for (const word of ['Rua das Flores', 'X1234567', 'quokka', 'dentist', 'blue door', 'travel', 'assistant'])
      expect(raw.includes(Buffer.from(word))).toBe(false)
  })

  it('keeps both sides of what two devices did while the server was down, and a forget made there wins', async () => {
    const [one, two] = await pairWithHistory('userdb-bob')

    await server.stop()
    await one.add({ id: 'apart-1', role: 'user', content: 'Offline on the train: the wifi password is tulip42.' })
    await two.add({ id: 'apart-2', role: 'user', content: 'Offline at the cabin: the key is under the mat.' })
    await one.forget({ sentences: [{ messageId: 'm1', start: 0, end: 45 }] })
    await two.forget({ sentences: [{ messageId: 'm1', start: 46, end: 71 }] })
    await two.forget({ id: 'm3' })
    await expect(one.synced()).rejects.toThrow()
    await server.restart()
    await settle(one, two)

    // Each device numbers (`seq`) what it added itself before what arrived: the same messages, in another order.
    const byId = async (memory: Memory) => (await contents(memory)).sort((a, b) => a.id.localeCompare(b.id))
    expect((await byId(one)).map((m) => m.id)).toEqual(['apart-1', 'apart-2', 'm2'])
    expect(await byId(two)).toEqual(await byId(one))
    await Promise.all([one.close(), two.close()])
  })

  it('the same message imported on both while apart, then forgotten on one before its sync round ran, is forgotten on both', async () => {
    const [one, two] = await pairWithHistory('userdb-kai')
    await server.stop()
    const backup = [{ id: 'b1', role: 'user', content: 'The safe code is 4417.', conversationId: 'vault' }] as const
    await two.import([...backup])
    // One forgets it the moment its import resolves, by id and by its only sentence: its sync copy never held it.
    await one.import([...backup])
    await one.forget({ sentences: [{ messageId: 'b1', start: 0, end: 22 }] })
    await server.restart()
    await settle(one, two)

    for (const memory of [one, two]) expect((await contents(memory)).map((m) => m.id)).toEqual(['m1', 'm2', 'm3'])
    await Promise.all([one.close(), two.close()])
  })

  it('a forget by conversation takes what the other device stored in it just before, though that device had not synced it yet', async () => {
    const [one, two] = await pairWithHistory('userdb-zoe')

    await server.stop()
    // Stored on two before the forget on one, and made a sync record by two's next round, after the forget: the user
    // forgot the conversation as it stood, this message included.
    await two.add({
      id: 'just-before',
      role: 'user',
      content: 'The spare key is in the blue pot.',
      conversationId: 'home',
    })
    await one.forget({ conversationId: 'home' })
    await server.restart()
    await settle(one, two)

    for (const memory of [one, two]) expect((await contents(memory)).map((m) => m.id)).toEqual(['m2'])
    await Promise.all([one.close(), two.close()])
  })

  it('restores a wiped device from the server, and refuses another passphrase before sending anything', async () => {
    const first = await device('userdb-carol')
    await first.add(HISTORY)
    await first.synced()
    await first.close()

    const restored = await device('userdb-carol')
    await restored.synced()
    expect(await contents(restored)).toEqual(HISTORY)
    await restored.indexed()
    const context = await restored.buildContext('Where is the quokka sticker?', { budget: 2000 })
    expect(context.text).toContain('quokka sticker')
    await restored.close()

    const before = (await server.get('userdb-carol')).body.doc_count
    const stranger = await device('userdb-carol', 'another passphrase entirely')
    await stranger.add({ id: 'intruder', role: 'user', content: 'This must not reach the server.' })
    await expect(stranger.synced()).rejects.toMatchObject({ code: 'WRONG_KEY' })
    expect((await server.get('userdb-carol')).body.doc_count).toBe(before)
    await stranger.close()
  })

  it('carries pins and unpins, the later of two made apart standing, and a pin goes with its message', async () => {
    const [one, two] = await pairWithHistory('userdb-erin')
    const pinned = async (memory: Memory) => (await memory.pins()).map((pin) => pin.messageId).sort()

    await one.pin('m1')
    await one.pin('m2')
    await settle(one, two)
    expect(await pinned(two)).toEqual(['m1', 'm2'])
    await two.unpin('m1')
    await settle(two, one)
    expect(await pinned(one)).toEqual(['m2'])

    await server.stop()
    // Each a round apart (sync diffs pin states: a pin undone within one round left no state to send).
    const aRound = () => new Promise((done) => setTimeout(done, 200))
    await one.pin('m3')
    await aRound()
    await two.pin('m3')
    await aRound()
    await two.unpin('m3')
    await one.forget({ id: 'm2' })
    await new Promise((done) => setTimeout(done, 200))
    await server.restart()
    await settle(one, two)
    expect(await pinned(one)).toEqual([])
    expect(await pinned(two)).toEqual([])
    await Promise.all([one.close(), two.close()])
  })

  it('an unpin made while a message from the other device arrives stays unpinned', async () => {
    // The arrival came into the mirror in the same round as the unpin: that round took the store for one that had
    // lost messages (the arrival was not in it yet), read every record as an arrival again, and pinned m1 back from
    // the mirror's copy, so the unpin never left the device.
    const [one, two] = await pairWithHistory('userdb-ivan')
    const pinned = async (memory: Memory) => (await memory.pins()).map((pin) => pin.messageId).sort()
    // The arrival reaches the other mirror about one round (50 ms) and a push and pull after the add: unpins at
    // several delays after it, so that some land in the round that takes it in.
    for (const [attempt, delay] of [40, 60, 80, 100, 120, 140, 160, 200].entries()) {
      await two.pin('m1')
      await settle(two, one)
      expect(await pinned(one)).toEqual(['m1'])
      await one.add({ ...HISTORY[0], id: `arriving-${attempt}`, content: `Arriving note ${attempt}.` })
      await new Promise((done) => setTimeout(done, delay))
      await two.unpin('m1')
      await settle(two, one)
      expect(await pinned(two), `attempt ${attempt}`).toEqual([])
      expect(await pinned(one), `attempt ${attempt}`).toEqual([])
    }
    await Promise.all([one.close(), two.close()])
  })

  it('carries summaries, and none that covers what was forgotten, whichever device wrote it', async () => {
    const [one, two] = await pairWithHistory('userdb-frank')
    const summaryOn = async (memory: Memory, conversationId: string) => {
      const summary = await memory.summary(conversationId)
      return summary?.state === 'current' ? summary.text : summary?.state
    }

    await one.setSummary('home', 'Lives at 14 Rua das Flores; a quokka sticker on the fridge.', { through: 'm3' })
    await settle(one, two)
    expect(await summaryOn(two, 'home')).toBe('Lives at 14 Rua das Flores; a quokka sticker on the fridge.')
    await two.clearSummary('home')
    await settle(two, one)
    expect(await summaryOn(one, 'home')).toBeUndefined()

    // Apart: the phone summarises the travel chat while the laptop forgets the passport line it covers.
    await server.stop()
    await two.setSummary('travel', 'Passport X1234567, renewed in March.', { through: 'm2' })
    await new Promise((done) => setTimeout(done, 200))
    await one.forget({ sentences: [{ messageId: 'm2', start: 0, end: 31 }] })
    await new Promise((done) => setTimeout(done, 200))
    await server.restart()
    await settle(one, two)
    for (const memory of [one, two]) {
      expect(String(await summaryOn(memory, 'travel'))).not.toContain('X1234567')
      const context = await memory.buildContext('What is my passport number?', { budget: 4000 })
      expect(context.text).not.toContain('X1234567')
    }
    // The phone's own summary was dropped when the forget arrived; the laptop never took it in.
    expect(await summaryOn(two, 'travel')).toBe('dropped')
    await Promise.all([one.close(), two.close()])
  })

  it("a clear is a forget of everything, on every device and the server's copy", async () => {
    const one = await device('userdb-grace')
    const two = await device('userdb-grace')
    await one.add(HISTORY)
    await one.pin('m1')
    await settle(one, two)
    expect(await contents(two)).toHaveLength(3)
    expect(await two.clear()).toBe(3)
    await settle(two, one)
    expect(await contents(one)).toEqual([])
    expect(await one.pins()).toEqual([])
    expect(await server.sealings('userdb-grace')).toEqual([])
    await Promise.all([one.close(), two.close()])
  })

  it('a store that lost its messages without a forget takes them back, and sends no deletion', async () => {
    const indexedDB = new IDBFactory()
    const open = () => syncedDevice('wiped-store', server.url('userdb-heidi'), PASSPHRASE, { indexedDB })
    const laptop = await open()
    const phone = await device('userdb-heidi')
    await laptop.add(HISTORY)
    await laptop.pin('m2')
    await laptop.forget({ sentences: [{ messageId: 'm1', start: 0, end: 45 }] })
    await settle(laptop, phone)
    const before = await contents(phone)
    await laptop.close()
    // The store's database deleted on its own (devtools, a repair), the sync mirror kept.
    await new Promise((done) => {
      const request = indexedDB.deleteDatabase('wiped-store')
      request.onsuccess = request.onerror = done
    })
    const reopened = await open()
    await settle(reopened, phone)
    expect(await contents(phone)).toEqual(before)
    expect(await contents(reopened)).toEqual(before)
    expect((await reopened.pins()).map((pin) => pin.messageId)).toEqual(['m2'])
    await Promise.all([reopened.close(), phone.close()])
  })

  it('refuses sync without a passphrase, and a URL that is not http(s) or names no database', async () => {
    const plain = { name: 'plain', indexedDB: new IDBFactory(), IDBKeyRange: IDBKeyRange as never }
    await expect(createMemory({ ...plain, sync: { url: server.url('userdb-dave') } })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
    for (const url of ['ftp://127.0.0.1/db', 'not a url', `http://127.0.0.1:${server.port}/`])
      await expect(createMemory({ ...plain, passphrase: PASSPHRASE, sync: { url } })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      })
  })
})
