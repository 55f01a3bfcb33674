import { readFile } from 'node:fs/promises'
import { UsageError, parseOptions, parsePositiveInteger } from '../../tools/context-cli/context-args'

export const BENCH_RECALL_USAGE =
  'usage: npm run bench:recall -- --data FILE [--budgets 2000,8000] [--strategies head,tail,lexical,dense,hybrid] [--json OUT] [--misses OUT.jsonl] [--limit-conversations N] [--limit-questions N] [--images caption|omit] [--cache DIR] [--adaptive-stop] [--no-follow-updates] [--questions FILE] [--summary-standin CHARS] [--pins N] [--recent-turns N] [--exclude-recent N] [--tokenizer NAME] [--heading TEXT] [--digest] [--tune NAME=VALUE | --tune FILE.json]...'

/** A tuning value from the command line: `true`, `false` or a number. */
export type TuningValue = number | boolean

/** One `--tune`: a name and its value, or a JSON file of names and values. */
export type TuneSource = { name: string; value: TuningValue } | { file: string }

export const DEFAULT_BUDGETS = [2000, 8000]
export const DEFAULT_STRATEGIES = ['head', 'tail', 'lexical', 'dense', 'hybrid']

/** What `npm run bench:recall` was asked to do. */
export interface BenchRecallArgs {
  data: string
  budgets: number[]
  /** Passed to the engine as they are: it rejects names it does not know. */
  strategies: string[]
  json?: string
  misses?: string
  limitConversations?: number
  /** Questions per conversation (the first N answerable ones): for quick runs, not for reported numbers. */
  limitQuestions?: number
  cache?: string
  /** LoCoMo image turns: append the photo's caption (default) or drop it; see `tools/locomo/locomo-format.ts`. */
  images: 'caption' | 'omit'
  /** Build every context with `adaptiveStop: true` (stop at a relevance cliff). */
  adaptiveStop: boolean
  /**
   * Build every context with this `followUpdates`: true, the engine's default, unless `--no-follow-updates`
   * (`--follow-updates`, from when it was opt-in, is still read and changes nothing).
   */
  followUpdates: boolean
  /** A question set asked instead of LoCoMo's questions (`bench/recall/recall-questions.ts`), e.g. the paraphrase set. */
  questions?: string
  /**
   * The engine's retrieval constants to replace, in the order given (a later one wins): `--tune NAME=VALUE` or
   * `--tune FILE.json`, passed to the Node entry's internal `tuning` option, which rejects unknown names and values.
   */
  tune?: TuneSource[]
  /** Set each conversation's summary slot to a stand-in of at most this many characters (`summary-standin.ts`). */
  summaryStandIn?: number
  /**
   * Print a SHA-256 over every context built (its text and items, in the order built), overall and per strategy and
   * budget: two runs that print the same digests built byte-identical contexts.
   */
  digest: boolean
  /** Pin each conversation's first N messages (`Memory.pin`), so that every context has a pinned section. */
  pins?: number
  /** Build every context with this `recentTurns`. */
  recentTurns?: number
  /** Build every context with this `excludeRecent`. */
  excludeRecent?: number
  /** Read `--budgets` as tokens counted with this tokenizer (`{ tokens, tokenizer }`), not characters. */
  tokenizer?: string
  /** Build every context with this `heading`. */
  heading?: string
}

function commaList(option: string, value: string): string[] {
  const items = value.split(',').map((item) => item.trim())
  if (items.some((item) => item === ''))
    throw new UsageError(`--${option} must be a comma-separated list without empty items, got ${JSON.stringify(value)}`)
  return [...new Set(items)]
}

export function parseBenchRecallArgs(argv: string[]): BenchRecallArgs {
  const values = parseOptions(argv, {
    data: { type: 'string' },
    budgets: { type: 'string' },
    strategies: { type: 'string' },
    json: { type: 'string' },
    misses: { type: 'string' },
    'limit-conversations': { type: 'string' },
    'limit-questions': { type: 'string' },
    cache: { type: 'string' },
    images: { type: 'string', default: 'caption' },
    'adaptive-stop': { type: 'boolean', default: false },
    'follow-updates': { type: 'boolean', default: false },
    'no-follow-updates': { type: 'boolean', default: false },
    questions: { type: 'string' },
    tune: { type: 'string', multiple: true },
    'summary-standin': { type: 'string' },
    digest: { type: 'boolean', default: false },
    pins: { type: 'string' },
    'recent-turns': { type: 'string' },
    'exclude-recent': { type: 'string' },
    tokenizer: { type: 'string' },
    heading: { type: 'string' },
  })
  if (!values.data) throw new UsageError('--data FILE is required')
  const images = values.images ?? 'caption'
  if (images !== 'caption' && images !== 'omit')
    throw new UsageError(`--images must be caption or omit, got ${JSON.stringify(images)}`)
  const limit = (option: 'limit-conversations' | 'limit-questions') => {
    const value = values[option]
    return value === undefined ? undefined : parsePositiveInteger(option, value)
  }
  return {
    data: values.data,
    budgets:
      values.budgets === undefined
        ? DEFAULT_BUDGETS
        : commaList('budgets', values.budgets).map((budget) => parsePositiveInteger('budgets', budget)),
    strategies: values.strategies === undefined ? DEFAULT_STRATEGIES : commaList('strategies', values.strategies),
    json: values.json,
    misses: values.misses,
    limitConversations: limit('limit-conversations'),
    limitQuestions: limit('limit-questions'),
    cache: values.cache,
    images,
    adaptiveStop: values['adaptive-stop'] ?? false,
    followUpdates: !(values['no-follow-updates'] ?? false),
    digest: values.digest ?? false,
    ...counts(values, ['pins', 'recent-turns', 'exclude-recent']),
    ...(values.tokenizer === undefined ? {} : { tokenizer: values.tokenizer }),
    ...(values.heading === undefined ? {} : { heading: values.heading }),
    ...(values.questions === undefined ? {} : { questions: values.questions }),
    ...(values.tune === undefined ? {} : { tune: values.tune.map(tuneSource) }),
    ...(values['summary-standin'] === undefined
      ? {}
      : { summaryStandIn: parsePositiveInteger('summary-standin', values['summary-standin']) }),
  }
}

/** The whole-number options given, by their camel-case names: `recent-turns` as `recentTurns`. */
function counts(
  values: Record<string, unknown>,
  options: readonly ('pins' | 'recent-turns' | 'exclude-recent')[],
): Partial<Pick<BenchRecallArgs, 'pins' | 'recentTurns' | 'excludeRecent'>> {
  const given: Record<string, number> = {}
  for (const option of options) {
    const value = values[option]
    if (typeof value !== 'string') continue
    const count = Number(value)
    if (!Number.isInteger(count) || count < 0)
      throw new UsageError(`--${option} must be a whole number ≥ 0, got ${JSON.stringify(value)}`)
    given[option.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())] = count
  }
  return given
}

/** `NAME=VALUE` (a number, `true` or `false`), or else the path of a JSON file. */
function tuneSource(argument: string): TuneSource {
  const equals = argument.indexOf('=')
  if (equals < 0) return { file: argument }
  const name = argument.slice(0, equals).trim()
  const text = argument.slice(equals + 1).trim()
  const value = text === 'true' ? true : text === 'false' ? false : text === '' ? Number.NaN : Number(text)
  if (name === '' || Number.isNaN(value))
    throw new UsageError(
      `--tune takes NAME=VALUE with a number, true or false, or a JSON file; got ${JSON.stringify(argument)}`,
    )
  return { name, value }
}

/** The tuning the `--tune` options give together: each file's names and values, then each NAME=VALUE, in order. */
export async function readTuning(sources: readonly TuneSource[]): Promise<Record<string, TuningValue>> {
  const tuning: Record<string, TuningValue> = {}
  for (const source of sources) {
    if ('name' in source) {
      tuning[source.name] = source.value
      continue
    }
    let data: unknown
    try {
      data = JSON.parse(await readFile(source.file, 'utf8'))
    } catch (error) {
      throw new UsageError(`cannot read --tune ${source.file}: ${(error as Error).message}`)
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data))
      throw new UsageError(`--tune ${source.file} must hold a JSON object of tuning names and values`)
    for (const [name, value] of Object.entries(data)) {
      if (typeof value !== 'number' && typeof value !== 'boolean')
        throw new UsageError(`--tune ${source.file}: ${name} must be a number, true or false`)
      tuning[name] = value
    }
  }
  return tuning
}
