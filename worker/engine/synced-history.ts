import { SiftError } from '../../src/errors'
import { compareTimeOrder } from '../../src/core/render-context'
import type { ForgetSelector } from '../../src/types'
import type { ValidMessage } from '../input/message-input'
import type { SiftStore } from '../store/store'
import type { LocalHistory } from '../sync/replica'
import type { Pins } from './pins'
import type { Summaries } from './summaries'

/** The engine's parts that sync reaches, lent by `Engine.syncedHistory`. */
export interface SyncedHistoryPorts {
  inWriteQueue<T>(work: () => Promise<T>): Promise<T>
  store(): Pick<SiftStore, 'messagesInSeqOrder' | 'storedIds' | 'forgetRevision'>
  storeMessages(batch: readonly ValidMessage[]): Promise<unknown>
  forget(selector: ForgetSelector): Promise<number>
  pins(): Pick<Pins, 'pin' | 'unpin' | 'list'>
  summaries(): Pick<Summaries, 'listed' | 'arrived' | 'clear'>
}

/**
 * What sync reads and writes of a memory (`LocalHistory`, worker/sync/replica.ts): its messages and forget revision
 * read in one turn of the write queue (no write falls between or inside the reads), arrivals stored as the app's adds are (one transaction, then indexed in the
 * background) with their ids and timestamps and without the length limit (another device of the memory took them),
 * and forgets as the app's, so that each reaches the indexes, pins and summaries by the one forget cascade.
 */
export function syncedHistory(ports: SyncedHistoryPorts): LocalHistory {
  return {
    snapshot: () =>
      ports.inWriteQueue(async () => {
        const store = ports.store()
        return { messages: await store.messagesInSeqOrder(), forgetRevision: await store.forgetRevision() }
      }),
    addArrived: async (messages) => {
      const taken = await ports.inWriteQueue(() => ports.store().storedIds(messages.map((m) => m.id)))
      const batch = messages
        .filter((message) => !taken.has(message.id))
        .map(({ id, conversationId, role, timestamp, content }) => ({ id, conversationId, role, timestamp, content }))
      if (batch.length > 0) await ports.storeMessages(batch)
    },
    forget: (selector) => ports.forget(selector),
    pinned: async () => (await ports.pins().list()).map((pin) => pin.messageId),
    setPinned: async (messageId, pinned) => {
      // The other device's pin or unpin as this device's own; one already so, or of a message gone since, changes nothing.
      await (pinned ? ports.pins().pin(messageId) : ports.pins().unpin(messageId)).catch((error: unknown) => {
        if (!(error instanceof SiftError && error.code === 'INVALID_INPUT')) throw error
      })
    },
    summaries: () => ports.summaries().listed(),
    summaryArrived: (summary) => ports.summaries().arrived(summary),
    clearSummary: (conversationId) => ports.summaries().clear(conversationId),
    covered: (conversationId, through) =>
      ports.inWriteQueue(async () => {
        const messages = await ports.store().messagesInSeqOrder(conversationId)
        const last = messages.find((message) => message.id === through)
        if (!last) return []
        return messages
          .filter((message) => compareTimeOrder(message, last) <= 0)
          .map((message): [string, number] => [message.id, message.content.length])
      }),
  }
}
