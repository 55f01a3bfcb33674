// The turns a call sends verbatim, checked against the memory: a turn the user forgot since the app last sent it is
// left out, and one with forgotten sentences is sent as it is stored now. The app's own copy of the thread (useChat
// keeps one) would otherwise carry it to the LLM word for word.
import type { Memory } from '../types'
import type { ModelMessage } from './model-types'
import { markIn, possiblePartIds, turnAgainstStore } from './turn-marks'

/** The turns as the memory has them, and how many whole messages were left out because they were forgotten. */
export interface StoredTurns {
  messages: ModelMessage[]
  /** Messages left out: every text they had was forgotten. */
  forgotten: number
  /** Messages whose text was replaced by what is stored now. */
  rewritten: number
}

/** A text part of a message in the prompt, where it is. */
interface TextAt {
  message: number
  part: number
  text: string
}

/**
 * `messages` with every marked turn (`TurnMark`, on a text part or on the message) checked against the memory in
 * one read. A user message without a mark is the one the marked reply after it answers (`requestId`). Turns with no
 * mark (never stored, or stored by the app under its own ids) pass as they are.
 */
export async function withStoredTurns(memory: Memory, messages: readonly ModelMessage[]): Promise<StoredTurns> {
  const turns = markedTurns(messages)
  if (turns.size === 0) return { messages: [...messages], forgotten: 0, rewritten: 0 }
  const asked = new Map<string, string[]>()
  for (const [id, texts] of turns)
    asked.set(
      id,
      possiblePartIds(
        id,
        texts.reduce((sum, t) => sum + t.text.length, 0),
      ),
    )
  const stored = new Map(
    (await memory.messages({ ids: [...asked.values()].flat() })).messages.map((m) => [m.id, m.content]),
  )
  // Per message, per part: what its text becomes (undefined: left out).
  const edits = new Map<number, Map<number, string | undefined>>()
  const edit = (at: TextAt, text: string | undefined) => {
    const parts = edits.get(at.message) ?? new Map<number, string | undefined>()
    parts.set(at.part, text)
    edits.set(at.message, parts)
  }
  for (const [id, texts] of turns) {
    const verdict = turnAgainstStore(
      texts.map((t) => t.text),
      asked.get(id)!.map((partId) => stored.get(partId)),
    )
    if ('keep' in verdict) continue
    texts.forEach((at, i) => edit(at, 'replace' in verdict && i === 0 ? verdict.replace : undefined))
  }
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

/** The text parts of each stored turn the messages hold, by the turn's id, in prompt order. */
function markedTurns(messages: readonly ModelMessage[]): Map<string, TextAt[]> {
  const turns = new Map<string, TextAt[]>()
  const add = (id: string, at: TextAt) => turns.set(id, [...(turns.get(id) ?? []), at])
  // A reply's mark names the user message it answers: the nearest user message before it.
  const requestIds = new Map<number, string>()
  let lastUser = -1
  messages.forEach((message, index) => {
    if (message.role === 'system') return
    if (message.role === 'user') lastUser = index
    const messageMark = markIn(message.providerOptions)
    for (const part of message.content) {
      if (part.type !== 'text') continue
      const mark = markIn(part.providerOptions) ?? messageMark
      if (mark?.requestId !== undefined && lastUser >= 0 && !requestIds.has(lastUser))
        requestIds.set(lastUser, mark.requestId)
    }
  })
  messages.forEach((message, index) => {
    if (message.role === 'system') return
    const messageMark = markIn(message.providerOptions)
    message.content.forEach((part, i) => {
      if (part.type !== 'text') return
      const id = (markIn(part.providerOptions) ?? messageMark)?.id ?? requestIds.get(index)
      if (id !== undefined) add(id, { message: index, part: i, text: part.text })
    })
  })
  return turns
}
