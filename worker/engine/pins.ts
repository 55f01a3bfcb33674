import { SiftError } from '../../src/errors'
import type { Pin } from '../../src/types'
import type { SentenceCatalog } from '../index/sentence-catalog'
import { toPinMessageId, toPinsConversationId } from '../input/pin-input'
import type { EngineStore } from './open-parts'
import type { WriteQueue } from './write-queue'

/** What pins read and write: the store's pins row, the catalog that says which messages exist, the write queue. */
export interface PinParts {
  store: EngineStore
  catalog: SentenceCatalog
  writes: WriteQueue
  /** Throws `CLOSED` (or the store's superseded error) once the memory cannot be used. */
  assertOpen: () => void
}

/**
 * The pinned messages (`Memory.pin`): every context of a pinned message's conversation holds it, first in priority.
 * Kept in the store's `pins` row (sealed in an encrypted memory), read once and then held here; every change is written
 * in the engine's write queue, so a pin never falls between a forget's commit and its unpinning.
 */
export class Pins {
  private ids: Promise<string[]> | undefined

  constructor(private readonly parts: PinParts) {}

  /** Pins a stored message; pinning it again changes nothing. `INVALID_INPUT` for an id that is not stored. */
  pin(messageId: unknown): Promise<void> {
    const id = toPinMessageId('pin', messageId)
    return this.change(async (ids) => {
      if (!this.parts.catalog.message(id))
        throw new SiftError('INVALID_INPUT', `pin: no message with id "${id}" is stored; pin a stored message's id.`)
      return ids.includes(id) ? ids : [...ids, id]
    })
  }

  /** Unpins a message; `INVALID_INPUT` for an id that is not pinned. */
  unpin(messageId: unknown): Promise<void> {
    const id = toPinMessageId('unpin', messageId)
    return this.change(async (ids) => {
      if (!ids.includes(id))
        throw new SiftError('INVALID_INPUT', `unpin: the message "${id}" is not pinned; pins() lists the pinned ones.`)
      return ids.filter((pinned) => pinned !== id)
    })
  }

  /** An import stored messages whose export pinned `messageIds`: they are pinned after the pins there are. */
  async imported(messageIds: readonly string[]): Promise<void> {
    if (messageIds.length === 0) return
    await this.change(async (ids) => [...ids, ...messageIds.filter((id) => !ids.includes(id))])
  }

  /** The pins, in the order they were pinned: every conversation's, or one's. */
  async list(conversationId?: unknown): Promise<Pin[]> {
    this.parts.assertOpen()
    const id = toPinsConversationId(conversationId)
    return (await this.pinned()).flatMap((messageId) => {
      const message = this.parts.catalog.message(messageId)
      if (!message || (id !== undefined && message.conversationId !== id)) return []
      return [{ messageId, conversationId: message.conversationId }]
    })
  }

  /** The sids of the pinned messages in `conversationId` (every conversation when undefined), in pin order. */
  async sids(conversationId: string | undefined): Promise<number[]> {
    return (await this.list(conversationId)).flatMap(({ messageId }) => this.parts.catalog.message(messageId)!.sids)
  }

  /**
   * A forget removed `messageIds`, and its own write took them out of the pins row (worker/store/forget-write.ts):
   * the ids held here follow. Called inside the write queue by the forget; ids not read yet are read as written.
   */
  forgotten(messageIds: readonly string[]): void {
    if (this.ids === undefined || messageIds.length === 0) return
    const gone = new Set(messageIds)
    this.hold(this.ids.then((ids) => (ids.some((id) => gone.has(id)) ? ids.filter((id) => !gone.has(id)) : ids)))
  }

  /** The ids as stored, read once. */
  private pinned(): Promise<string[]> {
    return this.ids ?? this.hold(this.parts.store.pinnedIds())
  }

  /** Holds `ids` as the pins, until they fail to read: the next call then reads them again. */
  private hold(ids: Promise<string[]>): Promise<string[]> {
    this.ids = ids
    ids.catch(() => {
      if (this.ids === ids) this.ids = undefined
    })
    return ids
  }

  private change(next: (ids: string[]) => Promise<string[]>): Promise<void> {
    this.parts.assertOpen()
    return this.parts.writes.run(async () => {
      this.parts.assertOpen()
      const ids = await this.pinned()
      const changed = await next(ids)
      if (changed !== ids) await this.save(changed)
    })
  }

  private async save(ids: string[]): Promise<void> {
    await this.parts.store.savePinnedIds(ids)
    this.hold(Promise.resolve(ids))
  }
}
