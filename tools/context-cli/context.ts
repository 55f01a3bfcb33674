import { isSiftError } from '../../src/errors'
import type { BuildContextOptions, Context, Memory, Strategy } from '../../src/types'
import { CONTEXT_USAGE, UsageError, parseContextArgs, type ContextArgs } from './context-args'
import { DEFAULT_EMBEDDING_CACHE_DIR } from '../embedding-cache-dir'
import { readHistory } from '../locomo/locomo'
import { qualifiedMessages, type LoadedHistory } from '../locomo/locomo-format'

async function loadHistory(args: ContextArgs): Promise<LoadedHistory> {
  try {
    return await readHistory(args.history)
  } catch (error) {
    throw new UsageError(`cannot read --history: ${(error as Error).message}`)
  }
}

/** Only the options given, so the engine's own defaults apply to the rest. */
function contextOptions(args: ContextArgs): BuildContextOptions {
  const options: BuildContextOptions = {}
  if (args.budget !== undefined) options.budget = args.budget
  if (args.strategy !== undefined) options.strategy = args.strategy as Strategy
  if (args.conversation !== undefined) options.conversationId = args.conversation
  return options
}

async function buildContextFromFile(args: ContextArgs): Promise<void> {
  const history = await loadHistory(args)
  const conversations =
    args.conversation === undefined
      ? history.conversations
      : history.conversations.filter((c) => c.id === args.conversation)
  if (conversations.length === 0) {
    throw new UsageError(
      `--conversation ${args.conversation} is not in ${args.history}; it has: ${history.conversations.map((c) => c.id).join(', ')}`,
    )
  }

  const started = performance.now()
  // Loaded only once the arguments are known to be good: the engine pulls in ONNX Runtime.
  const { createMemory } = await import('../../src/node')
  const memory: Memory = await createMemory({
    name: 'sift-context-cli',
    embeddingCacheDir: args.cache ?? DEFAULT_EMBEDDING_CACHE_DIR,
  })
  try {
    await memory.add(qualifiedMessages(conversations))
    await memory.indexed()
    let context: Context
    try {
      context = await memory.buildContext(args.request, contextOptions(args))
    } catch (error) {
      if (isSiftError(error) && error.code === 'INVALID_INPUT') throw new UsageError(error.message)
      throw error
    }
    const { stats } = context
    process.stdout.write(
      args.json
        ? `${JSON.stringify(context, null, 2)}\n`
        : context.text.endsWith('\n')
          ? context.text
          : `${context.text}\n`,
    )
    process.stderr.write(
      `context: ${stats.used}/${stats.budget} chars (fill ${stats.fill.toFixed(2)}, ${stats.stoppedBy}), ${context.items.length} sentences ` +
        `from ${stats.historySentences} (${stats.historyChars} chars of history), strategy ${stats.strategy}, backend ${stats.backend}, ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s in all\n`,
    )
  } finally {
    await memory.close()
  }
}

async function main(): Promise<number> {
  try {
    await buildContextFromFile(parseContextArgs(process.argv.slice(2)))
    return 0
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`context: ${error.message}\n${CONTEXT_USAGE}\n`)
      return 2
    }
    process.stderr.write(`context: ${isSiftError(error) ? `${error.code}: ` : ''}${(error as Error).message}\n`)
    return 1
  }
}

process.exitCode = await main()
