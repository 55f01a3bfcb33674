/**
 * `sift-memory/ai`: Sift for apps built on the Vercel AI SDK (`ai`, an optional peer dependency): a language-model
 * middleware that sends the context instead of the history and stores each finished exchange, the recall tool, and the
 * forget tool.
 *
 * @module sift-memory/ai
 */
import { jsonSchema, tool, type Tool } from 'ai'
import { FORGET_TOOL, type ForgetInput, type ForgetResult } from './core/forget-tool'
import { RECALL_TOOL, type RecallInput, type RecallResult } from './core/recall-tool'
import { SiftError } from './errors'
import { type ForgetConfirm, type ForgetSearchOptions, findStatementsToForget, forgetApproved } from './forget'
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
export type { ForgetInput, ForgetResult, ForgetStatement, ForgottenStatement } from './core/forget-tool'
export type { ForgetConfirm, ForgetSearchOptions } from './forget'

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
    inputSchema: inputSchemaOf<RecallInput>(RECALL_TOOL.parameters),
    execute: (input) => recall(memory, input, options),
  })
}

/** How `forgetTool` has a call approved, and where it looks for the statements. */
export interface ForgetToolOptions extends ForgetSearchOptions {
  /**
   * Asked when the call runs, with the statements it found, before any is removed: the app's own approval, for an app
   * that does not use the AI SDK's (`ForgetConfirm`).
   *
   * @defaultValue none: the AI SDK's approval alone
   */
  confirm?: ForgetConfirm
  /**
   * Whether a call that found statements waits for the AI SDK's tool approval (the tool's `needsApproval`): the
   * approval request goes to the app (`useChat` shows it as the call's `'approval-requested'` state) and the call
   * runs only once approved. `false` with no `confirm` is refused with `INVALID_INPUT`: nothing would approve.
   *
   * @defaultValue `true` without `confirm`, `false` with it
   */
  needsApproval?: boolean
}

/**
 * The forget tool as an AI SDK tool (`tools: { forget: forgetTool(memory) }`): the model calls it with what the user
 * wants forgotten (`ForgetInput`), and the matching statements are removed once the app approves; the result says
 * which were removed, with their dates, or that nothing matched (`ForgetResult`).
 *
 * The model passes words, not sentences: it cannot know how the history stored them. Sift resolves those words into
 * statements (`findStatementsToForget`: the best sentence of `findForgettable`'s best match, and of each other match
 * from `otherMatchesMinScore`) the same way each time, so an approval can show them before anything runs: the AI SDK
 * asks for approval before the tool runs, with only the model's input, and the app's approval UI turns that input
 * into the statements with `findStatementsToForget(memory, input, options)`. A call whose words match nothing needs no approval: it runs at
 * once and says so. Once approved, the call resolves them again and removes those; the AI SDK first asks the tool
 * again whether it needs approval, so a call whose statements were forgotten meanwhile is denied, not run. Only a
 * message added between the approval and the run that matches too would be removed unseen: with `confirm`, the app
 * sees exactly the statements it approves, as the call runs.
 */
export function forgetTool(
  memory: Pick<Memory, 'findForgettable' | 'forget'>,
  options: ForgetToolOptions = {},
): Tool<ForgetInput, ForgetResult> {
  const { confirm, needsApproval = confirm === undefined, ...search } = options
  if (!needsApproval && confirm === undefined)
    throw new SiftError(
      'INVALID_INPUT',
      'forgetTool: needsApproval is false and there is no confirm: nothing would approve a forget. Pass confirm, or leave needsApproval on.',
    )
  const hasStatements = async (input: ForgetInput) =>
    // A call that cannot find anything (bad input) asks for no approval: it runs, and rejects with why.
    (await findStatementsToForget(memory, input, search).catch(() => [])).length > 0
  return tool({
    description: FORGET_TOOL.description,
    inputSchema: inputSchemaOf<ForgetInput>(FORGET_TOOL.parameters),
    needsApproval: needsApproval ? hasStatements : false,
    execute: (input) => forgetApproved(memory, input, search, confirm),
  })
}

/** A tool definition's parameters as the AI SDK's input schema: a copy, since the definitions are readonly constants. */
function inputSchemaOf<INPUT>(parameters: typeof RECALL_TOOL.parameters | typeof FORGET_TOOL.parameters) {
  return jsonSchema<INPUT>(structuredClone(parameters) as unknown as Parameters<typeof jsonSchema>[0])
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
