import type { ModelMessage } from './model-types'
import { markIn, type TurnMark } from './turn-marks'

/** The ids one exchange is stored under: its user message and its reply (each the first of its parts). */
export interface ExchangeIds {
  user: string
  reply: string
  /**
   * Whether the user's message came marked as one the memory may already hold (a regenerated reply, or a message
   * the app marked with `userMessage`): then it is stored only if missing, and a reply stored to it before is
   * replaced. A call whose message has no mark gets new ids and replaces nothing.
   */
  userMarked: boolean
}

/**
 * The ids of the exchange a call stores, from what is unique to the call, never from equal text: the mark on the
 * user's message (`TurnMark`, which the app's regenerate or `userMessage` carries), else the mark on a reply of this
 * call's earlier steps (a multi-step call stores one exchange), else new random ones. A repeated message ("yes",
 * then "yes" again) is a new exchange.
 */
export function exchangeIds(request: ModelMessage, earlierSteps: readonly ModelMessage[]): ExchangeIds {
  const own = markOfMessage(request)
  if (own) return { user: own.id, reply: replyIdOf(own.id), userMarked: true }
  for (const step of earlierSteps) {
    const mark = step.role === 'assistant' ? markOfMessage(step) : undefined
    if (mark?.requestId !== undefined) return { user: mark.requestId, reply: mark.id, userMarked: false }
  }
  const user = newMessageId()
  return { user, reply: replyIdOf(user), userMarked: false }
}

/** The id the reply to the user message `userId` is stored under. */
export function replyIdOf(userId: string): string {
  return `${userId}-reply`
}

/** A new id for a message the middleware stores: random, so that no two calls share one. */
export function newMessageId(): string {
  return `sift-ai-${crypto.randomUUID()}`
}

/** The mark on a message or on its first marked text part. */
function markOfMessage(message: ModelMessage): TurnMark | undefined {
  if (message.role === 'system') return undefined
  const own = markIn(message.providerOptions)
  if (own) return own
  for (const part of message.content) {
    const mark = part.type === 'text' ? markIn(part.providerOptions) : undefined
    if (mark) return mark
  }
  return undefined
}
