// The turns an app holds, checked against the memory: a turn the user forgot since is left out, and one with
// forgotten sentences is shown and sent as it is stored now. The app's own copy of the thread (useChat keeps one)
// would otherwise carry it to the LLM word for word and keep it on screen. One algorithm for the middleware's prompt
// (`withStoredTurns`) and the hook's chat messages (`sift-memory/react`), over the same view of a thread.
import type { Memory } from '../types'
import type { ModelMessage } from './model-types'
import { markIn, possiblePartIds, turnAgainstStore } from './turn-marks'

/** A message as this check reads it: its role, and its text parts with the provider options that may mark them. */
export interface TurnView {
  role: string
  /** The message's own provider options (a mark there covers every text part). */
  options?: unknown
  /** Its parts, by index: text parts with their options, other parts as undefined. */
  texts: ({ text: string; options?: unknown } | undefined)[]
}

/** What becomes of each message: kept as it is, left out, or its text parts changed (undefined: part left out). */
export type TurnEdits = Map<number, Map<number, string | undefined>>

/** Most ids one `messages({ ids })` takes. */
const MAX_IDS_PER_READ = 1000

/** A text part of a message, where it is. */
interface TextAt {
  message: number
  part: number
  text: string
}

/**
 * The edits that bring `messages` in line with the memory, from one read of every marked turn's ids (`TurnMark`, on
 * a text part or on the message). A user message without a mark is the one the marked reply after it answers
 * (`requestId`). Turns with no mark (never stored, or stored by the app under its own ids) are left as they are.
 */
export async function editsAgainstStore(memory: Memory, messages: readonly TurnView[]): Promise<TurnEdits> {
  const edits: TurnEdits = new Map()
  const turns = markedTurns(messages)
  if (turns.size === 0) return edits
  const asked = new Map<string, string[]>()
  for (const [id, texts] of turns)
    asked.set(
      id,
      possiblePartIds(
        id,
        texts.reduce((sum, t) => sum + t.text.length, 0),
      ),
    )
  // One read for a thread's turns; more only where long turns ask for more ids than a page holds.
  const wanted = [...asked.values()].flat()
  const stored = new Map<string, string>()
  for (let from = 0; from < wanted.length; from += MAX_IDS_PER_READ)
    for (const m of (await memory.messages({ ids: wanted.slice(from, from + MAX_IDS_PER_READ) })).messages)
      stored.set(m.id, m.content)
  for (const [id, texts] of turns) {
    const verdict = turnAgainstStore(
      texts.map((t) => t.text),
      asked.get(id)!.map((partId) => stored.get(partId)),
    )
    if ('keep' in verdict) continue
    texts.forEach((at, i) => {
      const parts = edits.get(at.message) ?? new Map<number, string | undefined>()
      parts.set(at.part, 'replace' in verdict && i === 0 ? verdict.replace : undefined)
      edits.set(at.message, parts)
    })
  }
  return edits
}

/** The prompt's turns as the memory has them, and how many messages were left out or rewritten. */
export interface StoredTurns {
  messages: ModelMessage[]
  /** Messages left out: every text they had was forgotten. */
  forgotten: number
  /** Messages whose text was replaced by what is stored now. */
  rewritten: number
}

/** `messages` (a prompt's turns) with `editsAgainstStore` applied. */
export async function withStoredTurns(memory: Memory, messages: readonly ModelMessage[]): Promise<StoredTurns> {
  const views = messages.map((message): TurnView => {
    if (message.role === 'system') return { role: message.role, texts: [] }
    const texts = message.content.map((part) =>
      part.type === 'text' ? { text: part.text, options: part.providerOptions } : undefined,
    )
    return { role: message.role, options: message.providerOptions, texts }
  })
  const edits = await editsAgainstStore(memory, views)
  let forgotten = 0
  let rewritten = 0
  const result: ModelMessage[] = []
  messages.forEach((message, index) => {
    const parts = edits.get(index)
    if (!parts || message.role === 'system') {
      result.push(message)
      return
    }
    const content = message.content.flatMap((part, i) => {
      if (!parts.has(i)) return [part]
      const text = parts.get(i)
      return text === undefined ? [] : [{ ...part, text } as typeof part]
    })
    if (content.length === 0) forgotten++
    else {
      if ([...parts.values()].some((text) => text !== undefined)) rewritten++
      result.push({ ...message, content } as ModelMessage)
    }
  })
  return { messages: result, forgotten, rewritten }
}

/** The text parts of each stored turn the messages hold, by the turn's id, in order. */
function markedTurns(messages: readonly TurnView[]): Map<string, TextAt[]> {
  const markOf = (message: TurnView, part: { options?: unknown }) => markIn(part.options) ?? markIn(message.options)
  // A reply's mark names the user message it answers: the nearest user message before it.
  const requestIds = new Map<number, string>()
  let lastUser = -1
  messages.forEach((message, index) => {
    if (message.role === 'user') lastUser = index
    for (const part of message.texts) {
      const requestId = part && markOf(message, part)?.requestId
      if (requestId !== undefined && lastUser >= 0 && !requestIds.has(lastUser)) requestIds.set(lastUser, requestId)
    }
  })
  const turns = new Map<string, TextAt[]>()
  messages.forEach((message, index) => {
    message.texts.forEach((part, i) => {
      if (!part) return
      const mark = markOf(message, part)
      const id = mark && !mark.asked ? mark.id : requestIds.get(index)
      if (id !== undefined) turns.set(id, [...(turns.get(id) ?? []), { message: index, part: i, text: part.text }])
    })
  })
  return turns
}
