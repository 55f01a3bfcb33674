// `sift-memory/ai`: Sift for apps built on the Vercel AI SDK (`ai`, an optional peer dependency): a language-model
// middleware that sends the context instead of the history and stores each finished exchange, and the recall tool.
import { jsonSchema, tool, type Tool } from 'ai'
import { RECALL_TOOL, type RecallInput, type RecallResult } from './core/recall-tool'
import { recall, type RecallOptions } from './recall'
import type { Memory } from './types'

export { siftMemory, type SiftCallOptions, type SiftMemoryOptions } from './ai/memory-middleware'
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
