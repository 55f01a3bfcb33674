import { describe, expect, it } from 'vitest'
import { withoutSentences } from '../../worker/store/sentence-removal'
import { toMessageRecord } from '../../worker/store/message-record'
import {
  type Leaf,
  latestWrite,
  mergedMessage,
  type SyncedMessage,
  type SyncedPin,
} from '../../worker/sync/merge-rules'
import { seededRandom } from '../../worker/util/seeded-random'

const content =
  'I moved to Bristol in May. My sister lives in Dublin. I work as a bookkeeper now. The cat is called Miso. ' +
  'We run on Sundays. My passport expires next year.'

/** The message as a device syncs it: its stored form less `seq` and sids. */
function synced(): SyncedMessage {
  const {
    seq: _seq,
    firstSid: _firstSid,
    ...message
  } = toMessageRecord({ id: 'm1', seq: 1, role: 'user', content, conversationId: 'c1', timestamp: 1 }, 0)
  return message
}

/** `message` with the sentences in `slots` (of the original's) forgotten, as a device's forget leaves it. */
function forgotten(message: SyncedMessage, slots: number[]): SyncedMessage | undefined {
  const spans = message.spans
  return withoutSentences(
    message,
    slots
      .filter((slot) => spans[2 * slot] < spans[2 * slot + 1])
      .map((slot) => ({ start: spans[2 * slot], end: spans[2 * slot + 1] })),
  ).record
}

const slotsOf = (message: SyncedMessage) => message.spans.length / 2

/**
 * What a reader and the store's sids see of a message: its text and each slot's sentence ('' where forgotten). Where a
 * forgotten sentence's empty span sits depends on the order of the forgets, and says nothing.
 */
function readable(message: SyncedMessage | undefined) {
  if (message === undefined) return undefined
  const { spans, content, ...rest } = message
  const slots = Array.from({ length: slotsOf(message) }, (_, slot) =>
    content.slice(spans[2 * slot], spans[2 * slot + 1]),
  )
  return { ...rest, content, slots }
}

describe('merging a message edited on two devices while apart', () => {
  it('keeps a sentence only where every device kept it, whatever the order and the winner (random forgets)', () => {
    const random = seededRandom(7)
    const original = synced()
    const slots = slotsOf(original)
    expect(slots).toBe(6)
    for (let round = 0; round < 300; round++) {
      const devices = 2 + Math.floor(random() * 3)
      const forgets = Array.from({ length: devices }, () =>
        Array.from({ length: slots }, (_, slot) => slot).filter(() => random() < 0.25),
      )
      const leaves: Leaf<SyncedMessage>[] = []
      for (const [i, slotsForgotten] of forgets.entries()) {
        const value = forgotten(original, slotsForgotten)
        leaves.push(value ? { rev: `2-${i}`, deleted: false, value } : { rev: `2-${i}`, deleted: true })
      }
      const union = [...new Set(forgets.flat())]
      const expected = forgotten(original, union)
      const shuffled = [...leaves].sort(() => random() - 0.5)
      const winner = shuffled[Math.floor(random() * shuffled.length)].rev
      expect(readable(mergedMessage(shuffled, winner)), `round ${round}: ${JSON.stringify(forgets)}`).toEqual(
        readable(expected),
      )
    }
  })

  it('lets a forget of the whole message win over any change on the other device', () => {
    const original = synced()
    const leaves: Leaf<SyncedMessage>[] = [
      { rev: '2-a', deleted: false, value: forgotten(original, [1]) },
      { rev: '2-b', deleted: true },
    ]
    expect(mergedMessage(leaves, '2-a')).toBeUndefined()
  })

  it('merges the same message imported on both devices into one', () => {
    const leaves = [
      { rev: '1-a', deleted: false, value: synced() },
      { rev: '1-b', deleted: false, value: synced() },
    ]
    expect(mergedMessage(leaves, '1-b')).toEqual(synced())
  })
})

describe('merging a summary or a pin written on two devices while apart', () => {
  it('keeps the latest write, a drop or a clear included, ties by revision, deletions aside', () => {
    const leaf = (rev: string, writtenAt: number, extra: object = { text: rev }): Leaf<{ writtenAt: number }> => ({
      rev,
      deleted: false,
      value: { writtenAt, ...extra },
    })
    const dropped = leaf('3-c', 300, { dropped: true })
    expect(latestWrite([leaf('2-a', 200), dropped, leaf('2-b', 250)])).toBe(dropped)
    expect(latestWrite([leaf('2-a', 200), leaf('2-b', 200)])?.rev).toBe('2-b')
    expect(latestWrite([leaf('2-b', 200), leaf('2-a', 200)])?.rev).toBe('2-b')
    expect(latestWrite([{ rev: '4-x', deleted: true }, leaf('2-a', 100)])?.rev).toBe('2-a')
    expect(latestWrite([{ rev: '4-x', deleted: true }])).toBeUndefined()
  })

  it('ends a pin and an unpin made apart as the later of the two, on every device', () => {
    const pin: Leaf<SyncedPin> = { rev: '2-a', deleted: false, value: { writtenAt: 100, pinned: true } }
    const unpin: Leaf<SyncedPin> = { rev: '2-b', deleted: false, value: { writtenAt: 90, pinned: false } }
    expect(latestWrite([pin, unpin])?.value?.pinned).toBe(true)
    expect(latestWrite([unpin, pin])?.value?.pinned).toBe(true)
    const later: Leaf<SyncedPin> = { rev: '3-c', deleted: false, value: { writtenAt: 120, pinned: false } }
    expect(latestWrite([pin, later])?.value?.pinned).toBe(false)
  })
})
