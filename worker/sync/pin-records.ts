import type { MirrorEntry, ReplicaSide } from './replica-side'
import type { SyncedMessage } from './merge-rules'

/**
 * Pins as synced records (docs/sync-design.md, "Merging"): one document per message ever pinned, `{ pinned, writtenAt }`,
 * diffed against the store's pins each round.
 */
export class PinRecords {
  /** Pin documents whose message has not arrived here yet, by document id: applied once it has. */
  private readonly waiting = new Set<string>()

  constructor(private readonly side: ReplicaSide) {}

  /**
   * Pins and unpins what arrived after `applied`, for the messages the store holds; a pin of a message that has not
   * arrived yet waits for it (`waitingPins`).
   */
  async applyArrivals(messages: readonly SyncedMessage[], applied: number): Promise<void> {
    const held = new Set(messages.map((message) => message.id))
    const pinned = new Set(await this.side.local.pinned())
    for (const [documentId, entry] of this.side.entries) {
      const pin = entry.pin
      const arrived = entry.seq > applied && this.side.written.get(documentId) !== entry.rev
      if (!pin || entry.deleted || !(arrived || this.waiting.has(documentId))) continue
      if (!held.has(pin.messageId)) {
        this.waiting.add(documentId)
        continue
      }
      this.waiting.delete(documentId)
      if (pinned.has(pin.messageId) !== pin.pinned) await this.side.local.setPinned(pin.messageId, pin.pinned)
    }
  }

  /**
   * Writes the store's pins to the mirror, one document per message ever pinned: pinned, or unpinned (a write with
   * its time, so that a pin and an unpin made apart end as the later one), or deleted once its message is.
   */
  async write(messages: readonly SyncedMessage[]): Promise<boolean> {
    const held = new Set(messages.map((message) => message.id))
    const pinned = new Set(await this.side.local.pinned())
    const byMessage = new Map<string, [string, MirrorEntry]>()
    for (const [documentId, entry] of this.side.entries)
      if (entry.pin) byMessage.set(entry.pin.messageId, [documentId, entry])
    const writtenAt = Date.now()
    const writes: object[] = []
    for (const messageId of pinned) {
      const known = byMessage.get(messageId)?.[1]
      if (known && !known.deleted && known.pin?.pinned) continue
      const document = await this.side.documents.seal('pin', messageId, { pinned: true, writtenAt })
      writes.push({ ...document, ...(known ? { _rev: known.rev } : {}) })
    }
    for (const [messageId, [documentId, entry]] of byMessage) {
      if (entry.deleted || this.waiting.has(documentId)) continue
      if (!held.has(messageId)) {
        // Deleted with its message; a message merely not arrived yet keeps its pin.
        const message = this.side.entries.get(await this.side.documentIdOf('message', messageId))
        if (message?.deleted) writes.push({ _id: documentId, _rev: entry.rev, _deleted: true })
      } else if (entry.pin?.pinned && !pinned.has(messageId)) {
        const document = await this.side.documents.seal('pin', messageId, { pinned: false, writtenAt })
        writes.push({ ...document, _rev: entry.rev })
      }
    }
    return this.side.write(writes)
  }
}
