import { expect } from 'vitest'
import { splitSentences } from '../../src/core/split-sentences'
import type { ForgetSelector, MessageInput, MessagePage, Pin, SetSummaryOptions, Summary } from '../../src/types'
import { seededRandom } from '../../worker/util/seeded-random'

/**
 * One seeded random sequence of what a user does on two devices of one synced memory — adds, imports, forgets by every
 * selector, pins, unpins, summaries set and cleared, the same messages imported on both while apart — with the server
 * stopped and started again, and one device offline (its memory closed, or its tab) for a stretch in between; then both devices sync and are compared with a reference
 * model of what the user did. The same sequence runs on Node devices (tests/sync/random-sequences.test.ts) and on two
 * browser profiles of every engine (e2e/sync.test.ts), each side passing its own devices and server.
 *
 * The model: every message any device stored stays, less every message a device forgot by id while it held it, every
 * message in the scope of a forget by conversation or time that was stored (on either device) before it, and every
 * sentence a device forgot; a message with no sentence left is gone. A message is pinned when the last pin or unpin of
 * it was a pin and it stays. A conversation's summary is the last one set unless a clear came after it, or a forget
 * after it removed (a sentence of) a message it covers: one of the conversation at or before the summary's last
 * message in time.
 */

/** The calls of a `Memory` the sequence makes: a Node memory is one; a browser profile's is a proxy into its page. */
export interface SequenceMemory {
  add(messages: MessageInput[]): Promise<unknown>
  import(messages: MessageInput[]): Promise<unknown>
  forget(selector: ForgetSelector): Promise<number>
  pin(messageId: string): Promise<void>
  unpin(messageId: string): Promise<void>
  pins(): Promise<Pin[]>
  setSummary(conversationId: string, text: string, options: SetSummaryOptions): Promise<void>
  summary(conversationId: string): Promise<Summary | undefined>
  clearSummary(conversationId: string): Promise<boolean>
  messages(options: { limit: number }): Promise<MessagePage>
  synced(): Promise<void>
}

/** A device: its open memory, and going offline (the memory closed: the app's tab gone) and coming back. */
export interface SequenceDevice {
  memory(): SequenceMemory
  goOffline(): Promise<void>
  comeBack(): Promise<void>
}

/** The sync server: stopped and started again over the same files, and the sealed field of each live document. */
export interface SequenceServer {
  stop(): Promise<void>
  restart(): Promise<void>
  sealings(): Promise<string[]>
}

export interface SequenceOutcome {
  /** Sealed fields the server held at some point and no longer does: each a forgotten or replaced record. */
  replacedSealings: string[]
  /** The sealed fields the server holds at the end. */
  liveSealings: string[]
  /** Each sentence the user forgot, of a message nothing else forgot whole. */
  forgottenSentences: string[]
  /** What the sequence did and what the model expects, for the test's log: so many adds, forgets, pins… */
  tally: Record<string, number>
}

const WORDS = ['harbour', 'violin', 'lantern', 'orchid', 'glacier', 'pepper', 'saddle', 'meadow', 'copper', 'thistle']
const CONVERSATIONS = ['c1', 'c2', 'c3']

/** The model of one message: its original sentences, and what was forgotten of it. */
interface Modelled {
  conversationId: string
  timestamp: number
  sentences: string[]
  forgottenSentences: Set<string>
  forgotten: boolean
  /** The last step at which a forget removed something of it. */
  changedAt: number
}

/** The model of a conversation's summary slot: the last write, and for a summary what it covers. */
type ModelledSummary = { text: string; setAt: number; throughTimestamp: number } | { cleared: true }

interface Held {
  content: string
  conversationId: string
  timestamp: number
}

async function stored(memory: SequenceMemory): Promise<Map<string, Held>> {
  const held = new Map<string, Held>()
  for (const { id, content, conversationId, timestamp } of (await memory.messages({ limit: 1000 })).messages)
    held.set(id, { content, conversationId: conversationId ?? '', timestamp })
  return held
}

/** `memory` counting each write it is asked for, and with SIFT_SEQUENCE_TRACE set logging it (to read a failing seed). */
function traced(memory: SequenceMemory, where: string, count: (what: string) => void): SequenceMemory {
  const writes = new Set(['add', 'import', 'forget', 'pin', 'unpin', 'setSummary', 'clearSummary'])
  return new Proxy(memory, {
    get(target, key: keyof SequenceMemory) {
      const value = target[key]
      if (typeof key !== 'string' || !writes.has(key)) return value
      return (...args: unknown[]) => {
        count(key === 'forget' ? `forget ${Object.keys(args[0] as object)[0]}` : key)
        if (process.env.SIFT_SEQUENCE_TRACE) console.log(`${where}: ${key} ${JSON.stringify(args)}`)
        return (value as (...args: unknown[]) => unknown).apply(target, args)
      }
    },
  })
}

const byTime = (held: Map<string, Held>) => [...held.values()].map((message) => message.timestamp).sort((a, b) => a - b)

/** The seeds to run: `defaults`, or with SIFT_SEQUENCE_SEEDS=FROM-TO those (a wider sweep, to look for a rare failure). */
export function sequenceSeeds(defaults: number[]): number[] {
  const range = process.env.SIFT_SEQUENCE_SEEDS
  if (!range) return defaults
  const [from, to] = range.split('-').map(Number)
  return Array.from({ length: to - from + 1 }, (_, i) => from + i)
}

/** Runs the sequence of `seed` for `steps` steps, syncs, and checks both devices against the model. */
export async function runSequence(
  seed: number,
  devices: [SequenceDevice, SequenceDevice],
  server: SequenceServer,
  steps = 40,
): Promise<SequenceOutcome> {
  const random = seededRandom(seed)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]
  const model = new Map<string, Modelled>()
  const pinned = new Map<string, boolean>()
  const summaries = new Map<string, ModelledSummary>()
  const seenSealings = new Set<string>()
  let next = 0
  let clock = Date.UTC(2026, 0, 1)
  let step = 0

  // The server is down for the second third of the sequence; one device is offline from the first sixth to past it.
  const [serverDown, serverUp] = [Math.floor(steps / 3), Math.floor((2 * steps) / 3)]
  const [offlineFrom, offlineUntil] = [Math.floor(steps / 6), Math.floor(steps / 2)]
  const offlineDevice = devices[seed % 2]
  const online = () =>
    devices.filter((device) => device !== offlineDevice || step < offlineFrom || step >= offlineUntil)
  let serverRunning = true
  const tally: Record<string, number> = {}
  const count = (what: string) => {
    tally[what] = (tally[what] ?? 0) + 1
  }

  const newMessage = (): MessageInput => {
    const id = `s${seed}-m${next++}`
    const sentences = Array.from(
      { length: 1 + Math.floor(random() * 3) },
      (_, i) => `The ${pick(WORDS)} note ${id} part ${i} mentions ${pick(WORDS)} and ${pick(WORDS)}.`,
    )
    clock += 60_000
    const conversationId = pick(CONVERSATIONS)
    model.set(id, {
      conversationId,
      timestamp: clock,
      sentences,
      forgottenSentences: new Set(),
      forgotten: false,
      changedAt: -1,
    })
    return { id, role: 'user', content: sentences.join(' '), conversationId, timestamp: clock }
  }

  /**
   * A forget by scope removes every message in its scope stored before it, on any device: those the forgetting device
   * holds, and those another device stored while they were apart (the forget replayed there).
   */
  const inScope = (selects: (message: Modelled) => boolean) =>
    [...model].flatMap(([id, message]) => (selects(message) ? [id] : []))
  const markForgotten = (ids: string[]) => {
    for (const id of ids) {
      const message = model.get(id)!
      if (!message.forgotten) Object.assign(message, { forgotten: true, changedAt: step })
    }
  }
  /** Lets the device's sync round take what was just written, so that a later write on either side comes after it. */
  const aRound = () => new Promise((done) => setTimeout(done, 150))
  /** Both devices up to date with each other through the server (both online, the server running). */
  const syncBoth = async () => {
    for (const device of [...devices, devices[0]]) await device.memory().synced()
    for (const sealing of await server.sealings()) seenSealings.add(sealing)
  }

  for (; step < steps; step++) {
    if (process.env.SIFT_SEQUENCE_TRACE)
      console.log(
        `step ${step}: server ${serverRunning ? 'up' : 'down'}, online ${online().map((d) => devices.indexOf(d))}`,
      )
    if (step === serverDown) {
      await server.stop()
      serverRunning = false
    }
    if (step === serverUp) {
      await server.restart()
      serverRunning = true
    }
    if (step === offlineFrom) await offlineDevice.goOffline()
    if (step === offlineUntil) await offlineDevice.comeBack()
    const everyoneUp = serverRunning && online().length === 2
    if (step % 6 === 5)
      for (const device of online())
        await device
          .memory()
          .synced()
          .catch(() => undefined)

    if (step === serverUp - 1) {
      // The same backup imported on both devices while they are apart: each message once, on both, in the end.
      const imported = [newMessage(), newMessage()]
      for (const [index, device] of devices.entries())
        await traced(device.memory(), `step ${step}, device ${index}`, count).import(imported)
    }
    const device = pick(online())
    const memory = traced(device.memory(), `step ${step}, device ${devices.indexOf(device)}`, count)
    const held = await stored(memory)
    const heldIds = [...held.keys()]
    const roll = random()
    if (roll < 0.28 || heldIds.length < 3) {
      await memory.add(Array.from({ length: 1 + Math.floor(random() * 3) }, newMessage))
    } else if (roll < 0.34) {
      await memory.import([newMessage(), newMessage()])
    } else if (roll < 0.44) {
      const id = pick(heldIds)
      const message = held.get(id)!
      const modelled = model.get(id)!
      const spans = splitSentences(message.content)
      // Offsets as stored now: those of a message no forget shortened here, whose split is its stored spans.
      if (message.content !== modelled.sentences.join(' ') || spans.length === 0) continue
      const span = pick(spans)
      modelled.forgottenSentences.add(message.content.slice(span.start, span.end))
      if (!modelled.forgotten) modelled.changedAt = step
      await memory.forget({ sentences: [{ messageId: id, start: span.start, end: span.end }] })
    } else if (roll < 0.51) {
      const id = pick(heldIds)
      markForgotten([id])
      await memory.forget(random() < 0.5 ? { id } : { ids: [id, 'not-stored'] })
    } else if (roll < 0.54) {
      const conversationId = pick(CONVERSATIONS)
      markForgotten(inScope((m) => m.conversationId === conversationId))
      await memory.forget({ conversationId })
    } else if (roll < 0.57) {
      // From the first third of what is held, and `after` from the last: a forget of most of the history would leave
      // the rest of the sequence little to do.
      const before = pick(byTime(held).slice(0, Math.ceil(held.size / 3)))
      markForgotten(inScope((m) => m.timestamp < before))
      await memory.forget({ before })
    } else if (roll < 0.6) {
      const after = pick(byTime(held).slice(-Math.ceil(held.size / 3)))
      markForgotten(inScope((m) => m.timestamp > after))
      await memory.forget({ after })
    } else if (roll < 0.8) {
      const pinnedHere = new Set((await memory.pins()).map((pin) => pin.messageId))
      const unpinned = heldIds.filter((id) => !pinnedHere.has(id))
      const pinning = !(pinnedHere.size > 0 && (random() < 0.5 || unpinned.length === 0))
      const id = pinning ? pick(unpinned) : pick([...pinnedHere])
      // A forget from the other device may take the message between the read above and the call: the call then fails
      // saying so, as it does for an app, and the pin or unpin is not made.
      await (pinning ? memory.pin(id) : memory.unpin(id)).then(
        () => pinned.set(id, pinning),
        (error: unknown) => {
          if (!String(error).includes('is stored')) throw error
        },
      )
    } else if (roll < 0.92) {
      // A summary is written from what the app read, so set here only where both devices agree on the conversation: a
      // summary set apart from the other device's forgets covers what that device forgot, which the model leaves out.
      if (!everyoneUp) continue
      await syncBoth()
      // As an app does: the turns read, and the page's revision passed, so that only a forget after the read drops it.
      const page = await memory.messages({ limit: 1000 })
      const message = pick(page.messages)
      const conversationId = message.conversationId!
      const text = `Summary at step ${step} of ${conversationId}: the ${pick(WORDS)} notes so far.`
      summaries.set(conversationId, { text, setAt: step, throughTimestamp: message.timestamp })
      await memory.setSummary(conversationId, text, { through: message.id, asOf: page.revision })
    } else {
      // A clear, like a set, where both devices agree: a clear of an older summary while a newer one is on its way here
      // leaves the newer one standing (the user never saw it), which the model does not follow.
      if (!everyoneUp) continue
      await syncBoth()
      const current = []
      for (const conversationId of CONVERSATIONS)
        if ((await memory.summary(conversationId))?.state === 'current') current.push(conversationId)
      if (current.length === 0) continue
      const conversationId = pick(current)
      summaries.set(conversationId, { cleared: true })
      await memory.clearSummary(conversationId)
    }
    await aRound()
    if (serverRunning) for (const sealing of await server.sealings()) seenSealings.add(sealing)
  }

  await server.restart()
  // Synced until a pass changes nothing on the server: two devices that settle one conflict at once write two
  // settlings, a conflict of their own, settled again in the next rounds.
  let passes = 0
  for (let before = ''; ; passes++) {
    await syncBoth()
    const after = (await server.sealings()).sort().join()
    if (after === before) break
    before = after
    if (passes === 8) throw new Error(`seed ${seed}: the devices still wrote after ${passes} passes of syncing both`)
  }
  tally['passes to agree'] = passes

  const expected = new Map<string, string[]>()
  for (const [id, message] of model) {
    const left = message.sentences.filter((sentence) => !message.forgottenSentences.has(sentence))
    if (!message.forgotten && left.length > 0) expected.set(id, left)
  }
  const expectedPins = [...pinned].flatMap(([id, isPinned]) => (isPinned && expected.has(id) ? [id] : [])).sort()
  const expectedSummaries = CONVERSATIONS.map((conversationId) => {
    const last = summaries.get(conversationId)
    if (!last || 'cleared' in last) return undefined
    const spoiled = [...model.values()].some(
      (message) =>
        message.conversationId === conversationId &&
        message.timestamp <= last.throughTimestamp &&
        message.changedAt > last.setAt,
    )
    return spoiled ? undefined : last.text
  })
  for (const [index, device] of devices.entries()) {
    const memory = device.memory()
    const where = `seed ${seed}, device ${index}`
    const held = await stored(memory)
    expect([...held.keys()].sort(), where).toEqual([...expected.keys()].sort())
    for (const [id, sentences] of expected) {
      const content = held.get(id)!.content
      expect(
        splitSentences(content).map((span) => content.slice(span.start, span.end)),
        `${where}, ${id}`,
      ).toEqual(sentences)
    }
    expect((await memory.pins()).map((pin) => pin.messageId).sort(), `${where}, pins`).toEqual(expectedPins)
    const summaryTexts = []
    for (const conversationId of CONVERSATIONS) {
      const summary = await memory.summary(conversationId)
      summaryTexts.push(summary?.state === 'current' ? summary.text : undefined)
    }
    expect(summaryTexts, `${where}, summaries`).toEqual(expectedSummaries)
  }

  const live = await server.sealings()
  const forgottenSentences = [...model.values()].flatMap((message) =>
    message.forgotten ? [] : [...message.forgottenSentences],
  )
  tally['messages kept'] = expected.size
  tally['pins kept'] = expectedPins.length
  tally['summaries kept'] = expectedSummaries.filter((text) => text !== undefined).length
  return {
    tally,
    replacedSealings: [...seenSealings].filter((sealing) => !live.includes(sealing)),
    liveSealings: live,
    forgottenSentences,
  }
}
