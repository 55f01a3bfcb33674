import { parseArgs, type ParseArgsConfig } from 'node:util'

export const CONTEXT_USAGE =
  'usage: npm run context -- --history FILE --request "TEXT" [--budget N] [--strategy S] [--conversation ID] [--json] [--cache DIR]'

/** What `npm run context` was asked to do. */
export interface ContextArgs {
  history: string
  request: string
  budget?: number
  /** Passed to the engine as is: it knows which strategies exist. */
  strategy?: string
  conversation?: string
  json: boolean
  /** Embedding cache folder; undefined means the default. */
  cache?: string
}

/** An argument problem: the CLI prints the message and the usage line and exits with code 2. */
export class UsageError extends Error {}

/** A positive whole number from an option value, or a UsageError naming the option. */
export function parsePositiveInteger(option: string, value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1)
    throw new UsageError(`--${option} must be a positive whole number, got ${JSON.stringify(value)}`)
  return Number(value)
}

/** Named options only (`node:util` parseArgs, strict); its complaints become UsageErrors. */
export function parseOptions<const O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, strict: true, allowPositionals: false, options }).values
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

export function parseContextArgs(argv: string[]): ContextArgs {
  const values = parseOptions(argv, {
    history: { type: 'string' },
    request: { type: 'string' },
    budget: { type: 'string' },
    strategy: { type: 'string' },
    conversation: { type: 'string' },
    json: { type: 'boolean', default: false },
    cache: { type: 'string' },
  })
  if (!values.history) throw new UsageError('--history FILE is required')
  if (values.request === undefined || values.request.trim() === '')
    throw new UsageError('--request "TEXT" is required and must not be empty')
  if (values.strategy !== undefined && values.strategy.trim() === '')
    throw new UsageError('--strategy must not be empty')
  return {
    history: values.history,
    request: values.request,
    budget: values.budget === undefined ? undefined : parsePositiveInteger('budget', values.budget),
    strategy: values.strategy,
    conversation: values.conversation,
    json: values.json ?? false,
    cache: values.cache,
  }
}
