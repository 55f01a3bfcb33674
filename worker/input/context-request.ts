import { SiftError } from '../../src/errors'
import type { Strategy, TokenBudget } from '../../src/types'
import { DEFAULT_MAX_REQUEST_CHARS } from './input-limits'
import { describe } from './message-input'
import { readInput } from './readable-input'

/** A budget in characters of `ctx.text`. */
export interface CharBudget {
  chars: number
}

/** A validated `buildContext` call with every default applied. */
export interface ContextRequest {
  /** The request first, then the extra queries. */
  queries: string[]
  /** Characters, or tokens: then the text is counted with `tokenizer` and kept within `tokens`. */
  budget: CharBudget | TokenBudget
  strategy: Strategy
  conversationId: string | undefined
  recentTurns: number
  excludeRecent: number
  adaptiveStop: boolean
  followUpdates: boolean
  /**
   * The share of the budget the scope's summaries may take together (0: none fits, each is named as left out); `false`
   * leaves them out unnamed (`summary: false`).
   */
  summaryShare: number | false
  /** The line the text starts with when it holds anything, inside the budget (`BuildContextOptions.heading`). */
  heading?: string
}

export const DEFAULT_BUDGET = 8000
/** `BuildContextOptions.summary.maxShare` unless given: a summary is a help beside the originals, not their stand-in. */
export const DEFAULT_SUMMARY_SHARE = 0.25
/** The tokenizers Sift ships, by name; any other tokenizer is a Hugging Face `tokenizer.json` named by its URL or path. */
export const TOKENIZER_NAMES = ['o200k_base', 'cl100k_base'] as const
/**
 * Extra queries one request may take. The character limit does not bound their count, and each query is embedded
 * and ranked on its own (a dense scan of every vector, BM25, fusion, stand-ins, later statements) while the engine
 * answers nothing else: thousands of one-letter queries would hold it for minutes. 32 is well beyond the handful
 * a chat's request needs, and keeps the costliest request allowed near the cost of the longest one
 * (tests/input/query-count.test.ts).
 */
export const MAX_EXTRA_QUERIES = 32
/** A heading is a label, not content: a longer one would be a second context the packer cannot rank. */
const MAX_HEADING_CHARS = 1000
const STRATEGIES: readonly Strategy[] = ['hybrid', 'dense', 'lexical', 'head', 'tail', 'full']

/**
 * Validates a `buildContext` call and applies defaults; throws `INVALID_INPUT` naming what is wrong. A `conversationId`
 * nothing was stored under is valid: the context is empty (`stats.historySentences` 0), as for a chat's first request.
 */
export function toContextRequest(
  request: unknown,
  options: unknown = {},
  maxRequestChars = DEFAULT_MAX_REQUEST_CHARS,
): ContextRequest {
  return readInput('buildContext', () => contextRequest(request, options, maxRequestChars))
}

function contextRequest(request: unknown, options: unknown, maxRequestChars: number): ContextRequest {
  if (typeof request !== 'string')
    invalid(`request must be a string (the user's next message), got ${describe(request)}`)
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    invalid(`options must be an object like { budget: 8000 }, got ${describe(options)}`)
  const {
    budget = DEFAULT_BUDGET,
    strategy = 'hybrid',
    conversationId,
    recentTurns = 0,
    excludeRecent = 0,
    queries = [],
    adaptiveStop = false,
    followUpdates = true,
    summary = {},
    heading,
  } = options as Record<string, unknown>
  const tokenBudget = typeof budget === 'object' && budget !== null ? toTokenBudget(budget) : undefined
  if (tokenBudget === undefined && (typeof budget !== 'number' || !Number.isInteger(budget) || budget <= 0))
    invalid(`budget must be a positive integer number of characters or { tokens, tokenizer }, got ${describe(budget)}`)
  if (!STRATEGIES.includes(strategy as Strategy))
    invalid(`strategy must be one of ${STRATEGIES.join(', ')}, got ${describe(strategy)}`)
  if (conversationId !== undefined && typeof conversationId !== 'string')
    invalid(`conversationId must be a string when given, got ${describe(conversationId)}`)
  if (typeof recentTurns !== 'number' || !Number.isInteger(recentTurns) || recentTurns < 0)
    invalid(`recentTurns must be an integer ≥ 0, got ${describe(recentTurns)}`)
  if (typeof excludeRecent !== 'number' || !Number.isInteger(excludeRecent) || excludeRecent < 0)
    invalid(
      `excludeRecent must be an integer ≥ 0 (the latest turns the app sends verbatim), got ${describe(excludeRecent)}`,
    )
  if (!Array.isArray(queries)) invalid(`queries must be an array of strings, got ${describe(queries)}`)
  if (queries.length > MAX_EXTRA_QUERIES)
    invalid(
      `queries has ${queries.length} entries, more than the limit of at most ${MAX_EXTRA_QUERIES} extra queries; pass the few that matter`,
    )
  // By index, not `some`: a sparse array's hole must be refused too.
  for (let i = 0; i < queries.length; i++)
    if (typeof queries[i] !== 'string') invalid(`queries[${i}] must be a string, got ${describe(queries[i])}`)
  if (typeof adaptiveStop !== 'boolean') invalid(`adaptiveStop must be a boolean, got ${describe(adaptiveStop)}`)
  if (typeof followUpdates !== 'boolean') invalid(`followUpdates must be a boolean, got ${describe(followUpdates)}`)
  const summaryShare = toSummaryShare(summary)
  if (heading !== undefined && (typeof heading !== 'string' || heading.length > MAX_HEADING_CHARS))
    invalid(`heading must be a string of at most ${MAX_HEADING_CHARS} characters when given, got ${describe(heading)}`)
  const requestChars = (queries as string[]).reduce((sum, query) => sum + query.length, request.length)
  if (requestChars > maxRequestChars) {
    invalid(
      `the request and its queries have ${requestChars} characters, more than the limit of ${maxRequestChars} (MemoryOptions.maxRequestChars); pass the part of the message that matters or raise the limit`,
    )
  }
  return {
    queries: [request, ...(queries as string[])],
    budget: tokenBudget ?? { chars: budget as number },
    strategy: strategy as Strategy,
    conversationId,
    recentTurns,
    excludeRecent,
    adaptiveStop,
    followUpdates,
    summaryShare,
    ...(heading !== undefined && heading !== '' && { heading }),
  }
}

function toSummaryShare(summary: unknown): number | false {
  if (summary === false) return false
  if (typeof summary !== 'object' || summary === null || Array.isArray(summary))
    invalid(`summary must be false or { maxShare }, got ${describe(summary)}`)
  const { maxShare = DEFAULT_SUMMARY_SHARE } = summary as Record<string, unknown>
  if (typeof maxShare !== 'number' || !(maxShare >= 0 && maxShare <= 1))
    invalid(`summary.maxShare must be a number from 0 to 1 (a share of the budget), got ${describe(maxShare)}`)
  return maxShare
}

function toTokenBudget(budget: object): TokenBudget {
  if (Array.isArray(budget)) invalid(`budget must be a number or { tokens, tokenizer }, got ${describe(budget)}`)
  const { tokens, tokenizer } = budget as Record<string, unknown>
  if (typeof tokens !== 'number' || !Number.isInteger(tokens) || tokens <= 0)
    invalid(`budget.tokens must be a positive integer, got ${describe(tokens)}`)
  if (typeof tokenizer !== 'string' || !isTokenizerName(tokenizer))
    invalid(
      `budget.tokenizer must be ${TOKENIZER_NAMES.map((name) => `'${name}'`).join(' or ')}, or the URL or path of a Hugging Face tokenizer.json, got ${describe(tokenizer)}`,
    )
  return { tokens, tokenizer }
}

/** A shipped encoding's name, or what can be a tokenizer.json's URL or path (a bare word is a misspelt encoding). */
function isTokenizerName(tokenizer: string): boolean {
  return (TOKENIZER_NAMES as readonly string[]).includes(tokenizer) || /[/\\]|\.json$/.test(tokenizer)
}

function invalid(message: string): never {
  throw new SiftError('INVALID_INPUT', `buildContext: ${message}.`)
}
