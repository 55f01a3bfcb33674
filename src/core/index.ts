// The pure helpers both entries publish: what an app calls to prepare, size or render context text itself. What
// else their files export (the renderer's separators and orderings, which the engine and the packer share) is
// internal; the engine's own heuristics live in worker/, beside what they read.

/** Splits text into the sentences (with their offsets) that Sift stores and ranks, e.g. to preview what `add` indexes. */
export { splitSentences, type SentenceSpan, type SplitOptions } from './split-sentences'

/** Fits ranked sentences into a character budget exactly as `buildContext` does, e.g. to pack candidates an app ranked itself. */
export { packBudget, type PackOptions, type PackResult } from './pack-budget'

/** Renders selected sentences as `buildContext` renders `Context.text`: chronological, role-labelled, gaps marked. */
export { renderContext, type RenderOptions } from './render-context'

/** A sentence with its message, position and score: what `packBudget` and `renderContext` take. */
export type { ScoredSentence } from './scored-sentence'

/** A context as the messages of an OpenAI-compatible or Anthropic request, in the order prompt caching needs. */
export {
  chatPrompt,
  toAnthropicPrompt,
  toOpenAIMessages,
  DEFAULT_EXCERPTS_HEADING,
  type AnthropicPrompt,
  type AnthropicSystemBlock,
  type ChatPrompt,
  type ChatPromptParts,
  type ChatTurn,
  type OpenAIChatMessage,
} from './chat-prompt'

/** The recall tool's definition (JSON Schema) and its result made from a context. */
export {
  RECALL_TOOL,
  recallResult,
  type RecallExcerpt,
  type RecallInput,
  type RecallResult,
} from './recall-tool'

/** The forget tool's definition (JSON Schema), and the statements it removes picked from `findForgettable`'s matches. */
export {
  FORGET_TOOL,
  statementsToForget,
  type ForgetInput,
  type ForgetResult,
  type ForgetStatement,
  type ForgottenStatement,
} from './forget-tool'
