import type { SyncedMessage } from './merge-rules'

/** A forget by scope, the kinds a device replays on arrival: the others name their records, whose tombstones carry them. */
export type ScopeSelector = { conversationId: string } | { before: number } | { after: number }

/** A forget by scope as synced (its `forget` document): what it selected, and when it was made (epoch milliseconds). */
export interface SyncedForget {
  selector: ScopeSelector
  at: number
}

/**
 * The ids of `messages` that a forget made on another device removes when it arrives here: those its selector matches
 * that were said no later than the forget was made. Messages added here while the devices were apart never reached
 * the forgetting device, so its tombstones miss them, yet the user forgot their scope as it stood then; a message
 * said after the forget is new and stays ("forget this conversation", then talking on in it). Timestamps are the
 * messages' own (`StoredMessage.timestamp`), as each device's clock set them.
 */
export function replayedForget(
  forget: SyncedForget,
  messages: Iterable<Pick<SyncedMessage, 'id' | 'conversationId' | 'timestamp'>>,
): string[] {
  const { selector, at } = forget
  const ids: string[] = []
  for (const message of messages) if (message.timestamp <= at && selects(selector, message)) ids.push(message.id)
  return ids
}

function selects(
  selector: ScopeSelector,
  { conversationId, timestamp }: Pick<SyncedMessage, 'conversationId' | 'timestamp'>,
) {
  if ('conversationId' in selector) return conversationId === selector.conversationId
  if ('before' in selector) return timestamp < selector.before
  return timestamp > selector.after
}
