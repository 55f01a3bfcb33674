import { MARK_KEY } from '../ai/turn-marks'
import type { StoredMessage } from '../types'

/**
 * A stored message as a chat UI shows it: the shape of the AI SDK's `UIMessage` (what `useChat` takes as `messages`),
 * without depending on it.
 */
export interface ChatUIMessage {
  /** The stored message's id. */
  id: string
  /** Who said it (stored messages of other roles are left out). */
  role: 'user' | 'assistant' | 'system'
  /** Its text, marked with the stored message's id (`providerMetadata.sift`): what the middleware checks it by. */
  parts: {
    /** A text part. */
    type: 'text'
    /** The stored text. */
    text: string
    /** The mark the middleware reads. */
    providerMetadata: {
      /** The stored message this is. */
      [MARK_KEY]: {
        /** Its id. */
        id: string
      }
    }
  }[]
  /** When it was said, in epoch milliseconds, and its conversation. */
  metadata: {
    /** When it was said: epoch milliseconds. */
    timestamp: number
    /** Its conversation. */
    conversationId: string
  }
}

const CHAT_ROLES = new Set(['user', 'assistant', 'system'])

/** Stored messages, newest first (a `newestFirst` page), as chat messages oldest first; roles a chat does not show are left out. */
export function toChatMessages(newestFirst: readonly StoredMessage[]): ChatUIMessage[] {
  const messages: ChatUIMessage[] = []
  for (let i = newestFirst.length - 1; i >= 0; i--) {
    const { id, role, content, timestamp, conversationId } = newestFirst[i]
    if (!CHAT_ROLES.has(role)) continue
    messages.push({
      id,
      role: role as ChatUIMessage['role'],
      parts: [{ type: 'text', text: content, providerMetadata: { [MARK_KEY]: { id } } }],
      metadata: { timestamp, conversationId },
    })
  }
  return messages
}
