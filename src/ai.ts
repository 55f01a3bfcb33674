/**
 * `sift-memory/ai`: Sift for apps built on the Vercel AI SDK (`ai`, an optional peer dependency): a language-model
 * middleware that sends the context instead of the history and stores each finished exchange, and the recall tool.
 *
 * @module sift-memory/ai
 */
import { jsonSchema, tool, type Tool } from 'ai'
import { RECALL_TOOL, type RecallInput, type RecallResult } from './core/recall-tool'
import { recall, type RecallOptions } from './recall'
import type { Memory } from './types'
import { newMessageId } from './ai/exchange-ids'
import { MARK_KEY } from './ai/turn-marks'

export {
  siftMemory,
  type ContextReport,
  type SiftCallOptions,
  type SiftMemoryOptions,
  type StoreReport,
} from './ai/memory-middleware'
export { MARK_KEY, type TurnMark } from './ai/turn-marks'
export type { RecallExcerpt, RecallInput, RecallResult } from './core/recall-tool'
export type { RecallOptions } from './recall'

/**
 * The recall tool as an AI SDK tool (`tools: { recall: recallTool(memory) }`): the model calls it once it knows what
 * it needs from earlier in the conversation, and gets the matching excerpts with their dates (`recall`).
 */
export function recallTool(
  memory: Pick<Memory, 'buildContext'>,
  options?: RecallOptions,
): Tool<RecallInput, RecallResult> {
  return tool({
    description: RECALL_TOOL.description,
    inputSchema: jsonSchema<RecallInput>({
      ...RECALL_TOOL.parameters,
      properties: { query: { ...RECALL_TOOL.parameters.properties.query } },
      required: [...RECALL_TOOL.parameters.required],
    }),
    execute: (input) => recall(memory, input, options),
  })
}

/**
 * A user message for `useChat`'s `sendMessage` (or any UI message list) whose text carries the id it will be stored
 * under (`providerMetadata.sift`): the middleware stores it under that id, so that a regenerated reply to it replaces
 * the reply stored before instead of storing the message again, and a forget of it reaches the app's copy.
 */
export function userMessage(text: string): {
  role: 'user'
  parts: [{ type: 'text'; text: string; providerMetadata: { [MARK_KEY]: { id: string; asked: true } } }]
} {
  const mark = { id: newMessageId(), asked: true as const }
  return { role: 'user', parts: [{ type: 'text', text, providerMetadata: { [MARK_KEY]: mark } }] }
}
