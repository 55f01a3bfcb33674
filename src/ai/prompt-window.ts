// How the middleware reads one call's prompt and what it sends instead: pure functions over the AI SDK's prompt.
import { type ForgottenStatement, forgottenBy } from '../core/forget-tool'
import type { ModelMessage, ModelPrompt } from './model-types'

/** One call's prompt, cut where the middleware cuts it (`readPromptWindow`). */
export interface PromptWindow {
  /** The system messages before any other: the stable prefix, sent first and unchanged. */
  system: ModelMessage[]
  /** The turns before the latest user message that are sent verbatim: the latest `recentTurns` of them. */
  recent: ModelMessage[]
  /**
   * How many turns `recent` holds, counted as the middleware stores them: each user message one, each run of
   * assistant and tool messages (a reply, with the tool calls of its steps) one. The context's `excludeRecent`.
   */
  recentTurns: number
  /** Messages of the prompt left out: the older turns, which reach the model through the context. */
  dropped: number
  /** The latest user message and what follows it: this call's own earlier steps (tool calls and their results). */
  current: ModelMessage[]
  /** The latest user message's text: what the context is built for, and what is stored. */
  request: string
  /** What the assistant wrote after it in this call's earlier steps: the start of the reply that is stored. */
  replySoFar: string
  /** The statements the forget tool removed in this call's earlier steps (`forgottenInSteps`). */
  forgotten: ForgottenStatement[]
}

/** The text of a message's text parts, joined; '' for a message without text. */
export function textOf(message: ModelMessage): string {
  if (message.role === 'system') return message.content
  const texts: string[] = []
  for (const part of message.content) if (part.type === 'text') texts.push(part.text)
  return texts.join('\n')
}

/**
 * Reads `prompt` as the system prefix, the older turns, the latest `recentTurns` turns and the current exchange (the
 * latest user message and what follows it); undefined when it holds no user message (nothing to build a context for).
 * A system message after the prefix is an older turn like any other. The recent turns never start with a tool
 * result whose call was left out: a provider refuses a result without its call.
 */
export function readPromptWindow(prompt: ModelPrompt, recentTurns: number): PromptWindow | undefined {
  let latestUser = -1
  for (let i = prompt.length - 1; i >= 0 && latestUser < 0; i--) if (prompt[i].role === 'user') latestUser = i
  if (latestUser < 0) return undefined
  let prefixEnd = 0
  while (prefixEnd < latestUser && prompt[prefixEnd].role === 'system') prefixEnd++
  // Back from the latest user message, a whole turn at a time.
  let start = latestUser
  let turns = 0
  while (turns < recentTurns && start > prefixEnd) {
    const role = prompt[start - 1].role
    if (role === 'system') break
    start--
    if (role !== 'user') while (start > prefixEnd && isReplyPart(prompt[start - 1])) start--
    turns++
  }
  while (start < latestUser && prompt[start].role === 'tool') start++
  const current = prompt.slice(latestUser)
  const replySoFar = current
    .slice(1)
    .filter((message) => message.role === 'assistant')
    .map(textOf)
    .filter((text) => text !== '')
    .join('\n\n')
  return {
    system: prompt.slice(0, prefixEnd),
    recent: prompt.slice(start, latestUser),
    recentTurns: turns,
    dropped: start - prefixEnd,
    current,
    request: textOf(prompt[latestUser]),
    replySoFar,
    forgotten: forgottenInSteps(current),
  }
}

/**
 * The statements a forget tool removed in the current exchange's steps: its results in the tool messages after the
 * user's message, told apart from other tools' by their shape (`ForgetResult`), whatever name the app gave the tool.
 */
export function forgottenInSteps(current: readonly ModelMessage[]): ForgottenStatement[] {
  const forgotten: ForgottenStatement[] = []
  for (const message of current)
    if (message.role === 'tool')
      for (const part of message.content)
        if (part.type === 'tool-result' && part.output.type === 'json')
          forgotten.push(...forgottenBy(part.output.value))
  return forgotten
}

/** Whether a message belongs to an assistant's reply: its text and tool calls, and the tools' results. */
function isReplyPart(message: ModelMessage): boolean {
  return message.role === 'assistant' || message.role === 'tool'
}

/**
 * The prompt sent instead: the system prefix, then each of the context's `texts` (its stable sections, then its
 * excerpts: `contextSystemTexts`) as a system message of its own (after the prefix, so that a provider's prompt cache
 * still finds the prefix unchanged), the recent turns and the current exchange.
 */
export function promptWithContext(window: PromptWindow, texts: readonly string[]): ModelPrompt {
  return [
    ...window.system,
    ...texts.map((content) => ({ role: 'system' as const, content })),
    ...window.recent,
    ...window.current,
  ]
}
