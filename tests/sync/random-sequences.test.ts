import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Memory, splitSentences } from '../../src/node'
import { seededRandom } from '../../worker/util/seeded-random'
import { SyncServer, syncedDevice } from './sync-server'

/**
 * Seeded random sequences of adds, imports and forgets (every selector) on two devices syncing through a real PouchDB
 * Server, some made while the server was down, against a reference model of what the user did: at the end both
 * devices hold exactly what the model says. The model: every message any device stored stays, less every message a
 * device forgot by id while it held it, every message in the scope of a forget by conversation or time that was stored
 * (on either device) before it, and every sentence a device forgot; a message with no sentence left is gone.
 */

const PASSPHRASE = 'random sequences passphrase'
let server: SyncServer

beforeAll(async () => {
  server = await SyncServer.start()
})
afterAll(async () => {
  await server?.stop()
})

const WORDS = ['harbour', 'violin', 'lantern', 'orchid', 'glacier', 'pepper', 'saddle', 'meadow', 'copper', 'thistle']
const CONVERSATIONS = ['c1', 'c2', 'c3']

/** The model of the user's memory: each message's original sentences, and what was forgotten of it. */
interface Modelled {
  conversationId: string
  timestamp: number
  sentences: string[]
  forgottenSentences: Set<string>
  forgotten: boolean
}

async function stored(
  memory: Memory,
): Promise<Map<string, { content: string; conversationId: string; timestamp: number }>> {
  const held = new Map<string, { content: string; conversationId: string; timestamp: number }>()
  for (const { id, content, conversationId, timestamp } of (await memory.messages({ limit: 1000 })).messages)
    held.set(id, { content, conversationId, timestamp })
  return held
}

async function runSequence(seed: number): Promise<void> {
  const random = seededRandom(seed)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]
  const database = `userdb-random-${seed}`
  const open = (name: string) =>
    syncedDevice(`${name}-${seed}`, server.url(database), PASSPHRASE, { requireModelFiles: false })
  const devices = [await open('one'), await open('two')]
  const model = new Map<string, Modelled>()
  let next = 0
  let clock = Date.UTC(2026, 0, 1)

  const newMessage = () => {
    const id = `s${seed}-m${next++}`
    const count = 1 + Math.floor(random() * 3)
    const sentences = Array.from(
      { length: count },
      (_, i) => `The ${pick(WORDS)} note ${id} part ${i} mentions ${pick(WORDS)} and ${pick(WORDS)}.`,
    )
    clock += 60_000
    const message = {
      id,
      role: 'user',
      content: sentences.join(' '),
      conversationId: pick(CONVERSATIONS),
      timestamp: clock,
    }
    model.set(id, {
      conversationId: message.conversationId,
      timestamp: clock,
      sentences,
      forgottenSentences: new Set(),
      forgotten: false,
    })
    return message
  }

  /**
   * A forget by scope removes every message in its scope stored before it, on any device: those the forgetting device
   * holds, and those another device stored while they were apart (the forget replayed there).
   */
  const inScope = (selects: (message: Modelled) => boolean) =>
    [...model].flatMap(([id, message]) => (selects(message) ? [id] : []))
  /** Lets the device's sync round store what was just added in its mirror, so it is stored before any later forget. */
  const aRound = () => new Promise((done) => setTimeout(done, 150))
  /** A forget by id removes the message the device holds when it is made (`held`). */
  const markForgotten = (ids: string[]) => {
    for (const id of ids) model.get(id)!.forgotten = true
  }

  for (let step = 0; step < 24; step++) {
    const device = pick(devices)
    const roll = random()
    if (step === 8) await server.stop()
    if (step === 16) await server.restart()
    if (step % 6 === 5 && step !== 11) for (const d of devices) await d.synced().catch(() => undefined)
    const held = await stored(device)
    const heldIds = [...held.keys()]
    if (roll < 0.35 || heldIds.length < 3) {
      await device.add(Array.from({ length: 1 + Math.floor(random() * 3) }, newMessage))
      await aRound()
    } else if (roll < 0.45) {
      await device.import([newMessage(), newMessage()])
      await aRound()
    } else if (roll < 0.6) {
      const id = pick(heldIds)
      const message = held.get(id)!
      const spans = splitSentences(message.content)
      // Offsets as stored now: those of a message no forget shortened here, whose split is its stored spans.
      if (message.content !== model.get(id)!.sentences.join(' ') || spans.length === 0) continue
      const span = pick(spans)
      model.get(id)!.forgottenSentences.add(message.content.slice(span.start, span.end))
      await device.forget({ sentences: [{ messageId: id, start: span.start, end: span.end }] })
    } else if (roll < 0.7) {
      const id = pick(heldIds)
      markForgotten([id])
      await device.forget(random() < 0.5 ? { id } : { ids: [id, 'not-stored'] })
    } else if (roll < 0.8) {
      const conversationId = pick(CONVERSATIONS)
      markForgotten(inScope((m) => m.conversationId === conversationId))
      await device.forget({ conversationId })
    } else if (roll < 0.9) {
      const before = pick([...held.values()]).timestamp
      markForgotten(inScope((m) => m.timestamp < before))
      await device.forget({ before })
    } else {
      const after = pick([...held.values()]).timestamp
      markForgotten(inScope((m) => m.timestamp > after))
      await device.forget({ after })
    }
  }

  await server.restart()
  for (let pass = 0; pass < 3; pass++) for (const device of devices) await device.synced()

  const expected = new Map<string, string[]>()
  for (const [id, message] of model) {
    const left = message.sentences.filter((sentence) => !message.forgottenSentences.has(sentence))
    if (!message.forgotten && left.length > 0) expected.set(id, left)
  }
  for (const device of devices) {
    const held = await stored(device)
    expect([...held.keys()].sort(), `seed ${seed}`).toEqual([...expected.keys()].sort())
    for (const [id, sentences] of expected) {
      const kept = splitSentences(held.get(id)!.content).map((span) =>
        held.get(id)!.content.slice(span.start, span.end),
      )
      expect(kept, `seed ${seed}, ${id}`).toEqual(sentences)
    }
  }
  await Promise.all(devices.map((device) => device.close()))
}

describe('sync, random sequences on two devices against a reference model', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8])
    it(
      `seed ${seed}: both devices end with what the user kept, nothing acknowledged lost`,
      () => runSequence(seed),
      240_000,
    )
})
