import { summaryStandIn } from './summary-standin'
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createWriteStream, type WriteStream } from 'node:fs'
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { cpus, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { renderAnswerTable } from './multilingual/answer-report'
import { MultilingualRecall } from './multilingual/multilingual-recall'
import {
  isMultilingualSet,
  readMultilingualSet,
  type MultilingualConversation,
  type MultilingualQuestion,
} from './multilingual/multilingual-set'
import { isSiftError } from '../../src/errors'
import type { Memory, MemoryStats, Strategy } from '../../src/types'
import { toTuning } from '../../worker/input/tuning-option'
import {
  BENCH_RECALL_USAGE,
  parseBenchRecallArgs,
  readTuning,
  type BenchRecallArgs,
  type TuningValue,
} from './recall-args'
import { ContextDigest } from './context-digest'
import { renderRecallTable, type RecallResults } from './recall-report'
import { UsageError } from '../../tools/context-cli/context-args'
import { DEFAULT_EMBEDDING_CACHE_DIR } from '../../tools/embedding-cache-dir'
import { readHistory } from '../../tools/locomo/locomo'
import type { EvidenceQuestion, LoadedConversation } from '../../tools/locomo/locomo-format'
import { readQuestionSet, sharedContentTerms, withQuestionSet } from './recall-questions'
import { RecallTally, foundEvidence } from './recall-tally'

/**
 * Recall benchmark: does the context `buildContext(question)` builds contain the turns the answer is in? Each
 * conversation goes into a fresh memory once; every answerable question (LoCoMo: categories 1–4, with evidence) is
 * asked against it (scoped to the conversation) for each strategy × budget. On the multilingual set
 * (`bench/recall/multilingual/`), every question is asked, and whether its answer is in the context is measured too
 * (`MultilingualRecall`), beside a random-packing baseline.
 */

interface Miss {
  strategy: string
  budget: number
  /** Evidence ids that did make it into the context (empty: an any-evidence miss). */
  found: string[]
  /** Multilingual set only: whether the answer string is in the context's text. */
  answerInContext?: boolean
}

interface ConversationSize {
  /** `stats.historyChars`: characters of all message contents. */
  historyChars: number
  /** Length of the `full` strategy's rendered text. */
  renderedChars: number
}

type CreateMemory = typeof import('../../src/node').createMemory

const elapsed = (since: number): string => `${((performance.now() - since) / 1000).toFixed(1)} s`
const log = (line: string): void => void process.stderr.write(`${line}\n`)

function isAnswerable(question: EvidenceQuestion): boolean {
  return question.category >= 1 && question.category <= 4
}

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return undefined
  }
}

class RecallBench {
  readonly tallies = new Map<string, Map<number, RecallTally>>()
  readonly sizes: Record<string, ConversationSize> = {}
  defaultStrategy: string | undefined
  memoryStats: MemoryStats | undefined

  constructor(
    private readonly createMemory: CreateMemory,
    private readonly args: BenchRecallArgs,
    private readonly misses: WriteStream | undefined,
    private readonly tuning: Record<string, TuningValue>,
    private readonly multilingual: MultilingualRecall | undefined,
    private readonly digest: ContextDigest | undefined,
  ) {
    for (const strategy of args.strategies)
      this.tallies.set(strategy, new Map(args.budgets.map((budget) => [budget, new RecallTally()])))
  }

  async run(conversation: LoadedConversation, questions: EvidenceQuestion[], label: string): Promise<void> {
    const started = performance.now()
    const memory = await this.createMemory({
      name: `bench-recall-${conversation.id}`,
      embeddingCacheDir: this.args.cache ?? DEFAULT_EMBEDDING_CACHE_DIR,
      tuning: this.tuning,
    })
    try {
      await memory.add(conversation.messages)
      await memory.indexed()
      for (const { id } of conversation.messages.slice(0, this.args.pins ?? 0))
        if (id !== undefined) await memory.pin(id)
      const standIn = this.args.summaryStandIn && summaryStandIn(conversation.messages, this.args.summaryStandIn)
      if (standIn) await memory.setSummary(conversation.id, standIn.text, { through: standIn.through })
      const stats = await memory.stats()
      this.memoryStats = stats
      log(
        `${label}: ${conversation.messages.length} turns, ${stats.sentences} sentences indexed in ${elapsed(started)}`,
      )
      await this.measureReferences(memory, conversation, questions)
      const asking = performance.now()
      for (const [index, question] of questions.entries()) {
        await this.ask(memory, conversation, question)
        if ((index + 1) % 50 === 0 || index + 1 === questions.length)
          log(`${label}: ${index + 1}/${questions.length} questions, ${elapsed(asking)}`)
      }
    } finally {
      await memory.close()
    }
  }

  /**
   * The strategy used when none is given, as the engine reports it, and the size of the whole history; on the
   * multilingual set, the random baseline from the whole history's sentences.
   */
  private async measureReferences(
    memory: Memory,
    conversation: LoadedConversation,
    questions: readonly EvidenceQuestion[],
  ): Promise<void> {
    const conversationId = conversation.id
    const request = questions[0].question
    if (this.defaultStrategy === undefined) {
      const byDefault = await memory.buildContext(request, { conversationId })
      this.defaultStrategy = byDefault.stats.strategy
      this.digest?.add('default', request, byDefault)
    }
    const full = await memory.buildContext(request, { conversationId, strategy: 'full' })
    this.digest?.add('full', request, full)
    this.sizes[conversationId] = { historyChars: full.stats.historyChars, renderedChars: full.stats.used }
    this.multilingual?.conversationIndexed(
      conversation as MultilingualConversation,
      questions as readonly MultilingualQuestion[],
      full.items,
    )
  }

  private async ask(memory: Memory, conversation: LoadedConversation, question: EvidenceQuestion): Promise<void> {
    const conversationId = conversation.id
    const missed: Miss[] = []
    for (const [strategy, byBudget] of this.tallies) {
      for (const [budget, tally] of byBudget) {
        const { tokenizer, recentTurns, excludeRecent, heading } = this.args
        const context = await memory.buildContext(question.question, {
          budget: tokenizer === undefined ? budget : { tokens: budget, tokenizer },
          strategy: strategy as Strategy,
          conversationId,
          adaptiveStop: this.args.adaptiveStop,
          followUpdates: this.args.followUpdates,
          ...(recentTurns === undefined ? {} : { recentTurns }),
          ...(excludeRecent === undefined ? {} : { excludeRecent }),
          ...(heading === undefined ? {} : { heading }),
        })
        this.digest?.add(`${strategy} @ ${budget}`, question.question, context)
        const stray = context.items.find((item) => item.conversationId !== conversationId)
        if (stray)
          throw new Error(`buildContext scoped to ${conversationId} returned a sentence of ${stray.conversationId}`)
        const found = foundEvidence(
          question.evidence,
          context.items.map((item) => item.messageId),
        )
        tally.record(question, found, context.stats.used, context.stats.fill)
        if (this.args.summaryStandIn) this.summaryChars(strategy, budget).push(context.stats.summary?.chars ?? 0)
        const answerInContext = this.multilingual?.contextBuilt(
          conversation as MultilingualConversation,
          question as MultilingualQuestion,
          strategy,
          budget,
          context,
          found.length > 0,
        )
        if (found.length < question.evidence.length || answerInContext === false)
          missed.push({ strategy, budget, found, ...(answerInContext === undefined ? {} : { answerInContext }) })
      }
    }
    if (missed.length > 0 && this.misses) {
      const { question: text, answer, category, evidence } = question
      const { id, kind } = question as Partial<MultilingualQuestion>
      const record = { conversationId, id, kind, question: text, answer, category, evidence, missed }
      this.misses.write(`${JSON.stringify(record)}\n`)
    }
  }

  /** The characters each context's summary section took, per strategy and budget (`--summary-standin`). */
  readonly summarySections = new Map<string, number[]>()

  summaryChars(strategy: string, budget: number): number[] {
    const key = `${strategy} @ ${budget}`
    let list = this.summarySections.get(key)
    if (!list) this.summarySections.set(key, (list = []))
    return list
  }

  results(): RecallResults {
    const results: RecallResults = {}
    for (const [strategy, byBudget] of this.tallies) {
      results[strategy] = Object.fromEntries([...byBudget].map(([budget, tally]) => [String(budget), tally.summary()]))
    }
    return results
  }
}

async function openMisses(path: string | undefined): Promise<WriteStream | undefined> {
  if (!path) return undefined
  await mkdir(dirname(path), { recursive: true })
  return createWriteStream(path)
}

/** The conversations of `--data`: LoCoMo's (or the `--questions` set's), or the multilingual set's. */
async function readConversations(args: BenchRecallArgs, multilingual: boolean): Promise<LoadedConversation[]> {
  if (multilingual) {
    if (args.questions) throw new UsageError('--questions asks about LoCoMo conversations, not the multilingual set')
    try {
      return await readMultilingualSet(args.data)
    } catch (error) {
      throw new UsageError(`cannot read --data: ${(error as Error).message}`)
    }
  }
  let history: Awaited<ReturnType<typeof readHistory>>
  try {
    history = await readHistory(args.data, { images: args.images })
  } catch (error) {
    throw new UsageError(`cannot read --data: ${(error as Error).message}`)
  }
  if (history.format !== 'locomo')
    throw new UsageError(`--data must be LoCoMo JSON (with questions); ${args.data} is a plain message list`)
  for (const warning of history.warnings) log(`data: ${warning}`)
  return args.questions ? await askedFromQuestionSet(args.questions, history.conversations) : history.conversations
}

/** The SHA-256 of `--data`: of the file, or of a folder's files one after the other, by name. */
async function dataHash(path: string): Promise<string> {
  const hash = createHash('sha256')
  if (!(await stat(path)).isDirectory()) return hash.update(await readFile(path)).digest('hex')
  for (const name of (await readdir(path)).filter((file) => file.endsWith('.json')).sort())
    hash.update(await readFile(join(path, name)))
  return hash.digest('hex')
}

async function benchRecall(args: BenchRecallArgs): Promise<void> {
  const started = performance.now()
  const multilingual = await isMultilingualSet(args.data).catch(() => false)
  const loaded = await readConversations(args, multilingual)
  // Checked here, as the engine will, so a misspelt name fails before the first conversation is indexed.
  const tuning = await readTuning(args.tune ?? [])
  const tuningValues = toTuning(tuning)
  const tuned = Object.entries(tuning)
  if (tuned.length > 0) log(`tuning: ${tuned.map(([name, value]) => `${name}=${value}`).join(', ')}`)

  const conversations = loaded.slice(0, args.limitConversations)
  const plan = conversations.map((conversation) => {
    const answerable = multilingual ? conversation.questions : conversation.questions.filter(isAnswerable)
    const asked = answerable.filter((question) => question.evidence.length > 0).slice(0, args.limitQuestions)
    return {
      conversation,
      asked,
      withoutEvidence: answerable.filter((question) => question.evidence.length === 0).length,
    }
  })
  const questionCount = plan.reduce((sum, { asked }) => sum + asked.length, 0)
  log(
    `${conversations.length} conversations, ${questionCount} questions × ${args.strategies.length} strategies × ${args.budgets.length} budgets`,
  )

  // Loaded only once the arguments are known to be good: the engine pulls in ONNX Runtime.
  const { createMemory } = await import('../../src/node')
  const misses = await openMisses(args.misses)
  const answers = multilingual ? new MultilingualRecall(args.budgets) : undefined
  const digest = args.digest ? new ContextDigest() : undefined
  const bench = new RecallBench(createMemory, args, misses, tuning, answers, digest)
  try {
    for (const [index, { conversation, asked }] of plan.entries()) {
      if (asked.length > 0) await bench.run(conversation, asked, `${conversation.id} [${index + 1}/${plan.length}]`)
    }
  } finally {
    await new Promise((resolve) => (misses ? misses.end(resolve) : resolve(undefined)))
  }

  const seconds = (performance.now() - started) / 1000
  const results = bench.results()
  const defaultStrategy = bench.defaultStrategy ?? 'unknown'
  const sizes = Object.values(bench.sizes)
  const mean = (pick: (size: ConversationSize) => number) =>
    sizes.length ? sizes.reduce((sum, size) => sum + pick(size), 0) / sizes.length : 0
  const full = {
    meanHistoryChars: mean((size) => size.historyChars),
    meanRenderedChars: mean((size) => size.renderedChars),
    perConversation: bench.sizes,
  }
  process.stdout.write(renderRecallTable(results, defaultStrategy))
  if (answers) process.stdout.write(`\n${renderAnswerTable(answers.results(), defaultStrategy)}`)
  if (digest) process.stdout.write(digest.render())
  for (const [key, chars] of bench.summarySections) {
    const held = chars.filter((c) => c > 0).length
    const mean = chars.reduce((sum, c) => sum + c, 0) / Math.max(1, chars.length)
    process.stdout.write(
      `summary section, ${key}: in ${held} of ${chars.length} contexts, ${mean.toFixed(0)} chars on average\n`,
    )
  }
  process.stdout.write(
    `full reference: ${Math.round(full.meanHistoryChars)} chars of history per conversation (${Math.round(full.meanRenderedChars)} rendered); ` +
      `${questionCount} questions, ${seconds.toFixed(0)} s\n`,
  )

  if (args.json) {
    const dirty = git(['status', '--porcelain', '--untracked-files=no'])
    const meta = {
      date: new Date().toISOString(),
      commit: git(['rev-parse', 'HEAD']),
      uncommittedChanges: dirty === undefined ? undefined : dirty.length > 0,
      machine: {
        cpu: cpus()[0]?.model,
        cores: cpus().length,
        memoryGiB: Math.round(totalmem() / 2 ** 30),
        platform: process.platform,
        arch: process.arch,
        node: process.version,
      },
      engine: bench.memoryStats ? { backend: bench.memoryStats.backend, model: bench.memoryStats.model } : undefined,
      data: {
        path: args.data,
        sha256: await dataHash(args.data),
        images: multilingual ? undefined : args.images,
        questionSet: args.questions
          ? {
              path: args.questions,
              sha256: createHash('sha256')
                .update(await readFile(args.questions))
                .digest('hex'),
            }
          : undefined,
        conversations: conversations.length,
        questions: questionCount,
        answerableWithoutEvidence: plan.reduce((sum, { withoutEvidence }) => sum + withoutEvidence, 0),
        limitQuestions: args.limitQuestions,
      },
      adaptiveStop: args.adaptiveStop,
      followUpdates: args.followUpdates,
      summaryStandIn: args.summaryStandIn,
      summarySections: Object.fromEntries(
        [...bench.summarySections].map(([key, chars]) => [
          key,
          chars.reduce((s, c) => s + c, 0) / Math.max(1, chars.length),
        ]),
      ),
      /** What `--tune` changed, and every retrieval constant the run used. */
      tuning: { changed: tuning, values: tuningValues },
      full,
      seconds,
      command: `npm run bench:recall -- ${process.argv.slice(2).join(' ')}`,
    }
    await mkdir(dirname(args.json), { recursive: true })
    const answerResults = answers ? { answers: answers.results() } : {}
    await writeFile(
      args.json,
      `${JSON.stringify({ default: defaultStrategy, ...results, ...answerResults, meta }, null, 2)}\n`,
    )
    log(`wrote ${args.json}`)
  }
}

/** The conversations the set asks about, with its questions; each question that shares a content word with its evidence is reported. */
async function askedFromQuestionSet(
  path: string,
  conversations: readonly LoadedConversation[],
): Promise<LoadedConversation[]> {
  let asked: LoadedConversation[]
  try {
    asked = withQuestionSet(conversations, await readQuestionSet(path))
  } catch (error) {
    throw new UsageError(`cannot use --questions: ${(error as Error).message}`)
  }
  for (const conversation of asked) {
    const texts = new Map(conversation.messages.map((message) => [message.id, message.content]))
    const speakers = [...new Set(conversation.messages.map((message) => message.role))]
    for (const { question, evidence } of conversation.questions) {
      const shared = sharedContentTerms(
        question,
        evidence.map((id) => texts.get(id)!),
        speakers,
      )
      if (shared.length > 0)
        log(`questions: "${question}" (${conversation.id}) shares ${shared.join(', ')} with its evidence`)
    }
  }
  return asked
}

async function main(): Promise<number> {
  try {
    await benchRecall(parseBenchRecallArgs(process.argv.slice(2)))
    return 0
  } catch (error) {
    if (error instanceof UsageError || (isSiftError(error) && error.code === 'INVALID_INPUT')) {
      process.stderr.write(`bench:recall: ${error.message}\n${BENCH_RECALL_USAGE}\n`)
      return 2
    }
    process.stderr.write(`bench:recall: ${(error as Error).stack ?? error}\n`)
    return 1
  }
}

process.exitCode = await main()
