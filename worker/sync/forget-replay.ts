import type { SyncedMessage } from './merge-rules'

/** A forget by scope, the kinds a device replays on arrival: the others name their records, whose tombstones carry them. */
export type ScopeSelector = { conversationId: string } | { before: number } | { after: number }

/** A forget by scope as synced (its `forget` document): what it selected, and when it was made (epoch milliseconds). */
export interface SyncedForget {
  selector: ScopeSelector
  at: number
}

/** A message as a replayed forget reads it: its scope, and when it was first stored in the synced memory. */
export type ReplayedMessage = Pick<SyncedMessage, 'id' | 'conversationId' | 'timestamp'> & {
  /** When a device first stored it in the memory (epoch milliseconds, that device's clock): `SyncedMessage.addedAt`. */
  addedAt: number
}

/**
 * The ids of `messages` that a forget made on another device removes when it arrives here: those its selector matches
 * that were stored no later than the forget was made. Messages added on a device while the devices were apart never
 * reached the forgetting device, so its tombstones miss them, yet the user forgot their scope as it stood then; a
 * message stored after the forget is new and stays ("forget this conversation", then talking on in it, or importing
 * an old backup into it). When it was stored, not said: an old message imported later was not part of what the user
 * forgot. The clocks are the devices' own.
 */
export function replayedForget(forget: SyncedForget, messages: Iterable<ReplayedMessage>): string[] {
  const { selector, at } = forget
  const ids: string[] = []
  for (const message of messages) if (message.addedAt <= at && selects(selector, message)) ids.push(message.id)
  return ids
}

function selects(selector: ScopeSelector, { conversationId, timestamp }: ReplayedMessage) {
  if ('conversationId' in selector) return conversationId === selector.conversationId
  if ('before' in selector) return timestamp < selector.before
  return timestamp > selector.after
}
