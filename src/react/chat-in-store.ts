// A chat's messages as the memory has them: what `useStoredChat` applies to useChat's own copy after a forget.
import { editsAgainstStore, type TurnView } from '../ai/stored-turns'
import type { Memory } from '../types'

/** The shape of a chat message this reads (the AI SDK's `UIMessage`): an id, a role and parts, text among them. */
export interface ChatMessageLike {
  /** The chat's id for the message. */
  id: string
  /** Who said it. */
  role: string
  /** Its parts: the text parts are read, with the mark (`providerMetadata.sift`) that names the stored message. */
  parts: readonly { type: string; text?: string; providerMetadata?: unknown }[]
}

/** What becomes of each chat message, by its id: left out (undefined), or its parts now. */
export type ChatEdits<M extends ChatMessageLike> = Map<string, M['parts'] | undefined>

/**
 * The changes that bring `messages` in line with the memory, from one read: a message whose stored text was
 * forgotten is left out, one with forgotten sentences gets the stored text. Only messages that name their stored
 * message (`providerMetadata.sift`, which the middleware and `useMemory`'s messages carry, or the reply after an
 * unmarked user message) are checked.
 */
export async function chatEdits<M extends ChatMessageLike>(
  memory: Memory,
  messages: readonly M[],
): Promise<ChatEdits<M>> {
  const views = messages.map(
    (message): TurnView => ({
      role: message.role,
      texts: message.parts.map((part) =>
        part.type === 'text' && typeof part.text === 'string'
          ? { text: part.text, options: part.providerMetadata }
          : undefined,
      ),
    }),
  )
  const edits = await editsAgainstStore(memory, views)
  const changed: ChatEdits<M> = new Map()
  for (const [index, parts] of edits) {
    const message = messages[index]
    const kept = message.parts.flatMap((part, i) => {
      if (!parts.has(i)) return [part]
      const text = parts.get(i)
      return text === undefined ? [] : [{ ...part, text }]
    })
    changed.set(message.id, kept.some((part) => part.type === 'text') ? (kept as M['parts']) : undefined)
  }
  return changed
}

/** `messages` with `edits` applied; the same array when they change nothing in it. */
export function withChatEdits<M extends ChatMessageLike>(messages: M[], edits: ChatEdits<M>): M[] {
  if (!messages.some((message) => edits.has(message.id))) return messages
  return messages.flatMap((message) => {
    if (!edits.has(message.id)) return [message]
    const parts = edits.get(message.id)
    return parts === undefined ? [] : [{ ...message, parts }]
  })
}
