import { SiftError } from '../../src/errors'
import { describe } from './message-input'

/** A `pin` or `unpin` call's `messageId`, checked; whether it is stored or pinned is the pins' own check. */
export function toPinMessageId(method: 'pin' | 'unpin', messageId: unknown): string {
  if (typeof messageId !== 'string' || messageId === '')
    throw new SiftError('INVALID_INPUT', `${method}: messageId must be a non-empty string, got ${describe(messageId)}.`)
  return messageId
}

/** A `pins` call's `conversationId`, checked: undefined lists every conversation's pins. */
export function toPinsConversationId(conversationId: unknown): string | undefined {
  if (conversationId !== undefined && typeof conversationId !== 'string')
    throw new SiftError(
      'INVALID_INPUT',
      `pins: conversationId must be a string when given, got ${describe(conversationId)}.`,
    )
  return conversationId
}
