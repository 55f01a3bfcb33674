import { MARK_KEY } from '../ai/turn-marks'
import type { StoredMessage } from '../types'

/**
 * A stored message as a chat UI shows it: the shape of the AI SDK's `UIMessage` (what `useChat` takes as `messages`),
 * without depending on it.
 */
export interface ChatUIMessage {
  id: string
  role: 'user' | 'assistant' | 'system'
  /** Its text, marked with the stored message's id (`providerMetadata.sift`): what the middleware checks it by. */
  parts: { type: 'text'; text: string; providerMetadata: { [MARK_KEY]: { id: string } } }[]
  /** When it was said, in epoch milliseconds, and its conversation. */
  metadata: { timestamp: number; conversationId: string }
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
