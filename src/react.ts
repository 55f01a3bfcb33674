/**
 * `sift-memory/react`: a hook for a chat UI built with React (an optional peer dependency).
 *
 * @module sift-memory/react
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import type { SiftError } from './errors'
import { type ChatMessageLike, chatEdits, withChatEdits } from './react/chat-in-store'
import { toChatMessages, type ChatUIMessage } from './react/chat-messages'
import { acquireMemory } from './react/shared-memory'
import type { IndexProgress, Memory, MemoryOptions } from './types'

export type { ChatUIMessage } from './react/chat-messages'
export type { ChatMessageLike } from './react/chat-in-store'

/** What `useStoredChat` reads of `useChat`'s helpers. */
export interface ChatLike<M extends ChatMessageLike> {
  /** The chat's messages, as `useChat` holds them. */
  messages: M[]
  /** How the hook replaces them after a forget (`useChat`'s `setMessages`). */
  setMessages: (update: (messages: M[]) => M[]) => void
  /** `useChat`'s status: the messages are checked only when it is `'ready'` or `'error'` (no reply streaming). */
  status: string
}

/**
 * Keeps `useChat`'s own copy of the thread in line with the memory: after each change the memory tells of (a forget
 * in this tab or another, a clear), once no reply is streaming, the messages whose stored text was forgotten leave
 * the screen, and those with forgotten sentences show the stored text. The middleware leaves them out of the next
 * request either way; this makes the screen agree. Only messages that name their stored message are checked: the
 * replies the middleware stored, the messages `useMemory` read, and user messages sent with `userMessage`
 * (`sift-memory/ai`) or answered by a stored reply.
 */
export function useStoredChat<M extends ChatMessageLike>(state: MemoryState, chat: ChatLike<M>): void {
  const { memory, changes } = state
  const latest = useRef(chat)
  latest.current = chat
  const idle = chat.status === 'ready' || chat.status === 'error'
  // biome-ignore lint/correctness/useExhaustiveDependencies: a check runs after each change the memory tells of, and when a reply has finished.
  useEffect(() => {
    if (!memory || !idle) return
    let current = true
    chatEdits(memory, latest.current.messages).then(
      (edits) => current && edits.size > 0 && latest.current.setMessages((messages) => withChatEdits(messages, edits)),
      () => undefined,
    )
    return () => {
      current = false
    }
  }, [memory, changes, idle])
}

/** What `useMemory` lists, besides the memory's own options. */
export interface UseMemoryOptions extends MemoryOptions {
  /**
   * The conversation whose messages `messages` holds.
   *
   * @defaultValue every conversation
   */
  conversationId?: string
  /**
   * The latest messages `messages` holds (`MessagesOptions.limit`).
   *
   * Range: an integer from 1 to 1,000; another value fails the read, and `error` says why.
   *
   * @defaultValue `100`
   */
  limit?: number
}

/** A memory as a chat UI renders it (`useMemory`). */
export interface MemoryState {
  /**
   * The memory, once open; its `add`, `forget`, `import` and `clear` update `messages` in every component (and tab)
   * that uses it. Pass this one to `siftMemory` (`sift-memory/ai`), so that each stored exchange shows.
   */
  memory: Memory | undefined
  /** Why the memory did not open, or the last read of `messages` failed. */
  error: SiftError | undefined
  /** Whether the embedding model has loaded (`memory.ready()`): until then contexts are ranked by their words. */
  modelReady: boolean
  /** The latest indexing progress (sentences embedded, pending), from `onProgress`; undefined before the first. */
  progress: IndexProgress | undefined
  /** The latest stored messages of the conversation, oldest first, as `useChat` takes them; undefined until read. */
  messages: ChatUIMessage[] | undefined
  /** Reads `messages` again. */
  refresh: () => void
  /** How many changes (adds, forgets, clears…, in this tab or another) the memory told of since it opened. */
  changes: number
}

const DEFAULT_LIMIT = 100

/**
 * The memory `options.name` names, for a chat UI: opened once per page however many components use it (with the
 * first one's options; closed when the last one unmounts), whether its model is ready, its indexing progress, and
 * the conversation's stored messages as chat messages, kept up to date as messages are added or forgotten through
 * it, in this tab or another.
 */
export function useMemory(options: UseMemoryOptions = {}): MemoryState {
  const { conversationId, limit = DEFAULT_LIMIT, ...memoryOptions } = options
  const [memory, setMemory] = useState<Memory>()
  const [error, setError] = useState<SiftError>()
  const [modelReady, setModelReady] = useState(false)
  const [progress, setProgress] = useState<IndexProgress>()
  const [messages, setMessages] = useState<ChatUIMessage[]>()
  const [changes, setChanges] = useState(0)
  // What a change heard later reads: the memory and the page as they are by then.
  const latest = useRef({ memory, conversationId, limit })
  latest.current = { memory, conversationId, limit }
  // Reads may finish out of order: only the latest one started is shown.
  const readsStarted = useRef(0)
  const read = useCallback((from: Memory, conversation: string | undefined, count: number) => {
    const read = ++readsStarted.current
    from.messages({ conversationId: conversation, limit: count, newestFirst: true }).then(
      (page) => read === readsStarted.current && setMessages(toChatMessages(page.messages)),
      (failure: SiftError) => read === readsStarted.current && setError(failure),
    )
  }, [])
  const refresh = useCallback(() => {
    const { memory, conversationId, limit } = latest.current
    if (memory) read(memory, conversationId, limit)
  }, [read])
  const name = memoryOptions.name

  // biome-ignore lint/correctness/useExhaustiveDependencies: the memory is opened with the first options its name is used with, as createMemory does across tabs; only another name opens another.
  useEffect(() => {
    let current = true
    const { opening, release } = acquireMemory(memoryOptions, (event) => {
      if (!current) return
      if (event.type === 'progress') setProgress(event.progress)
      else setChanges((count) => count + 1)
      refresh()
    })
    opening.then(
      (opened) => {
        if (!current) return
        setMemory(opened)
        opened.ready().then(
          () => current && setModelReady(true),
          () => undefined,
        )
      },
      (failure: SiftError) => current && setError(failure),
    )
    return () => {
      current = false
      setMemory(undefined)
      release()
    }
  }, [name])

  useEffect(() => {
    if (memory) read(memory, conversationId, limit)
  }, [memory, conversationId, limit, read])

  return { memory, error, modelReady, progress, messages, refresh, changes }
}
