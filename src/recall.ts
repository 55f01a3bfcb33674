import type { BuildContextOptions } from './context-types'
import { recallResult, type RecallInput, type RecallResult } from './core/recall-tool'
import type { Memory } from './types'

/** How the recall tool builds its context. */
export interface RecallOptions {
  /**
   * Characters of excerpts per call (`BuildContextOptions.budget`, in characters).
   *
   * Range: an integer ≥ 1; anything else rejects the call with `INVALID_INPUT`.
   *
   * @defaultValue `2000`: a few facts with their surroundings, not a second context
   */
  budget?: number
  /**
   * Only this conversation's history.
   *
   * @defaultValue every conversation
   */
  conversationId?: string
  /**
   * The latest turns the model already sees verbatim, left out (`BuildContextOptions.excludeRecent`).
   *
   * Range: an integer ≥ 0.
   *
   * @defaultValue `0`
   */
  excludeRecent?: number
  /**
   * How the excerpts are ranked (`BuildContextOptions.strategy`).
   *
   * @defaultValue `'hybrid'`
   */
  strategy?: BuildContextOptions['strategy']
}

const DEFAULT_RECALL_BUDGET = 2000

/**
 * Runs the recall tool (`RECALL_TOOL`) for `input`, the arguments the model called it with: the context for its
 * query, as excerpts with their dates. Rejects as `buildContext` does (`INVALID_INPUT` for a query that is not a
 * string).
 */
export async function recall(
  memory: Pick<Memory, 'buildContext'>,
  input: RecallInput,
  options: RecallOptions = {},
): Promise<RecallResult> {
  const { budget = DEFAULT_RECALL_BUDGET, conversationId, excludeRecent, strategy } = options
  return recallResult(await memory.buildContext(input?.query, { budget, conversationId, excludeRecent, strategy }))
}
