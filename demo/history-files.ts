import { isLocomoHistory, locomoSamples, parseHistory, qualifiedConversation } from '../tools/locomo/locomo-format'
import type { MessageInput } from '../src/types'

/** One conversation found in a file, ready for `memory.import` (ids, conversation and timestamps decided here). */
export interface FileConversation {
  /** What the picker shows. */
  title: string
  messages: MessageInput[]
}

/**
 * What a history file holds: conversations to pick from (LoCoMo samples, ChatGPT chats), or data `memory.import`
 * takes as it is (a plain `[{ role, content }]` array, a Sift export), which it checks itself.
 */
export type HistoryFile =
  | { kind: 'conversations'; format: 'locomo' | 'chatgpt'; conversations: FileConversation[] }
  | { kind: 'importable'; format: 'messages' | 'sift-export'; data: unknown; messages: number }

/** Sift's default `maxMessageChars`: a longer turn (a pasted document in a ChatGPT chat) is stored as several messages. */
const MAX_MESSAGE_CHARS = 100_000

/** Reads a file's text. Throws an Error whose message says what the file should be. */
export function readHistoryFile(text: string): HistoryFile {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new Error(
      `The file is not JSON (${(error as Error).message}). Choose a LoCoMo file, a [{role, content}] array, a ChatGPT conversations.json or a Sift export.`,
    )
  }
  if (isRecord(data) && data.format === 'sift-memory')
    return {
      kind: 'importable',
      format: 'sift-export',
      data,
      messages: Array.isArray(data.messages) ? data.messages.length : 0,
    }
  if (isLocomoHistory(data))
    return { kind: 'conversations', format: 'locomo', conversations: locomoConversations(data) }
  const items = Array.isArray(data) ? data : [data]
  if (items.length > 0 && items.every((item) => isRecord(item) && isRecord(item.mapping))) {
    const conversations = items.map(chatGptConversation).filter((conversation) => conversation.messages.length > 0)
    if (conversations.length === 0) throw new Error('This ChatGPT export has no conversation with text messages.')
    return { kind: 'conversations', format: 'chatgpt', conversations }
  }
  if (
    Array.isArray(data) &&
    data.length > 0 &&
    data.every((item) => isRecord(item) && typeof item.role === 'string' && typeof item.content === 'string')
  ) {
    return { kind: 'importable', format: 'messages', data, messages: data.length }
  }
  throw new Error(
    'Unknown layout. Expected LoCoMo JSON (samples with "conversation"), a non-empty [{role, content}] array, a ChatGPT conversations.json or a Sift export.',
  )
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * A LoCoMo file's conversations as the recall benchmark reads them (tools/locomo/locomo-format.ts: speakers as roles,
 * captions appended, session dates plus a second per turn), with each dia_id qualified by its sample
 * (`conv-26/D1:3`) since the demo's memory can hold several conversations; named after the sample and its speakers.
 */
function locomoConversations(data: unknown): FileConversation[] {
  const samples = locomoSamples(data)
  return parseHistory(data).conversations.map((conversation, index) => {
    const { speaker_a, speaker_b } = samples[index].conversation
    const speakers = [speaker_a, speaker_b].filter((name) => typeof name === 'string').join(' & ')
    const messages = qualifiedConversation(conversation)
    return { title: `${conversation.id}${speakers ? `: ${speakers}` : ''} (${messages.length} turns)`, messages }
  })
}

interface ChatGptNode {
  parent?: string | null
  message?: {
    id?: string
    author?: { role?: string }
    create_time?: number | null
    content?: { parts?: unknown[] }
    metadata?: { is_visually_hidden_from_conversation?: boolean }
  } | null
}

/**
 * A ChatGPT chat as the user saw it: the branch that ends at `current_node` (edited and regenerated turns live on
 * other branches), its visible user and assistant text turns only (no system prompt, tool call or image), with
 * the export's message ids and times. The conversation id is the title and the chat's first day, for people to read.
 */
function chatGptConversation(chat: unknown): FileConversation {
  const { title, create_time, mapping, current_node } = chat as {
    title?: unknown
    create_time?: unknown
    mapping: Record<string, ChatGptNode>
    current_node?: unknown
  }
  const chatTime = typeof create_time === 'number' ? create_time * 1000 : 0
  const name = (typeof title === 'string' && title.trim() !== '' ? title : 'Untitled chat')
    .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
    .trim()
    .slice(0, 80)
  const conversationId = chatTime > 0 ? `${name} · ${new Date(chatTime).toISOString().slice(0, 10)}` : name
  const branch: ChatGptNode[] = []
  const seen = new Set<string>()
  for (
    let key = typeof current_node === 'string' ? current_node : lastNode(mapping);
    key && mapping[key] && !seen.has(key);
    key = mapping[key].parent ?? undefined
  ) {
    seen.add(key)
    branch.push(mapping[key])
  }
  const messages: MessageInput[] = []
  let time = chatTime
  for (const { message } of branch.reverse()) {
    const role = message?.author?.role
    if (!message || (role !== 'user' && role !== 'assistant') || message.metadata?.is_visually_hidden_from_conversation)
      continue
    const content = (message.content?.parts ?? [])
      .filter((part): part is string => typeof part === 'string')
      .join('\n')
      .trim()
    if (content === '') continue
    time = typeof message.create_time === 'number' ? message.create_time * 1000 : time
    const id = typeof message.id === 'string' ? message.id : `${conversationId}/${messages.length + 1}`
    messages.push(...splitLongMessage({ id, conversationId, role, content, timestamp: time }))
  }
  return { title: `${conversationId} (${messages.length} turns)`, messages }
}

/** The node no other node names as its parent, for an export without `current_node`. */
function lastNode(mapping: Record<string, ChatGptNode>): string | undefined {
  const parents = new Set(Object.values(mapping).map((node) => node.parent))
  return Object.keys(mapping).findLast((key) => !parents.has(key))
}

/**
 * A message longer than `MAX_MESSAGE_CHARS` as consecutive parts (ids `…#2`, `…#3`), cut at the last whitespace before
 * the limit where there is one, since `add` and `import` refuse a longer message (and with it the whole import).
 */
export function splitLongMessage(message: MessageInput & { id: string }, maxChars = MAX_MESSAGE_CHARS): MessageInput[] {
  const parts: MessageInput[] = []
  let rest = message.content
  while (rest.length > maxChars) {
    const space = rest.lastIndexOf(' ', maxChars)
    const cut = space > maxChars / 2 ? space + 1 : maxChars
    parts.push({
      ...message,
      id: parts.length === 0 ? message.id : `${message.id}#${parts.length + 1}`,
      content: rest.slice(0, cut),
    })
    rest = rest.slice(cut)
  }
  parts.push({ ...message, id: parts.length === 0 ? message.id : `${message.id}#${parts.length + 1}`, content: rest })
  return parts
}
