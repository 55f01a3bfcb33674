import { readFile, writeFile } from 'node:fs/promises'
import { storeExchange } from '../../src/ai/store-exchange'
import type { ForgetStatement, ForgottenStatement } from '../../src/core/forget-tool'
import { splitSentences } from '../../src/core/split-sentences'
import { forgetRestatements, forgetStatements } from '../../src/forget'
import type { ForgetSentence, ForgettableMatch, Memory } from '../../src/types'
import { UsageError } from '../../tools/context-cli/context-args'
import { DEFAULT_EMBEDDING_CACHE_DIR } from '../../tools/embedding-cache-dir'
import { controlOutcome } from './controls'
import type { SetConversation, SetRequest, Split } from './forget-set-format'

/**
 * The ask-to-forget flow run as a chat app runs it, on the forget set (bench/forget-flow/): each conversation is
 * stored in a fresh memory; each request's whole user message goes to `findForgettable`, the app forgets what the
 * user confirms of the list it shows, and then the probes and the facts are asked.
 *
 * Ranking: the rank of the message holding the statement, and whether its first sentence is the statement.
 * Flow: the list shown is the matches' sentences; the simulated user confirms the ones that carry the request's value
 * (the person who asked knows what they meant), and the app forgets those sentences (`forget({ sentences })`, the
 * default) or their whole messages (`--forget message`, `forget({ ids })`), one request after another. Then
 * every probe's and every fact question's 2,000-character context is read: a retracted value in any of them is a
 * leak, a fact whose answer no longer is in its context (but was before the flow) or in its evidence is lost.
 * `--forget tool`: the chat model's forget tool instead (`forgetStatements`), called with the whole message, as a
 * model that passes the user's words does, and every statement it finds approved (the AI SDK approves a call, not
 * its statements one by one); `--min-score` and `--other-matches-min-score` are its options of those names, and `--repeats off` its `repeats: false` (the statements
 * without their repeats). Its removed statements that do not carry the request's value are counted as extra. Each
 * request's exchange is then stored as the `siftMemory` middleware stores it (`storeExchange`: the user's message
 * and a reply telling what was forgotten), without the sentences that restate what was forgotten; `--store-requests
 * whole` stores them as said, `off` not at all (the flow before the middleware stored them).
 * Controls (forget-wordings-fresh.json): messages that ask nothing to be forgotten, each given to `findForgettable`
 * before the flow; counted when it reads a request in them (`findForgetRequest`, what an app that shows the list only
 * then would show) and when it suggests anything (`controls.ts`). Each request counts as read when its matches carry
 * a `request`.
 */

interface Args {
  set: string
  conversations: Set<number> | undefined
  split: Split | undefined
  forget: 'sentence' | 'message' | 'tool' | 'none'
  limit: number
  minScore: number | undefined
  otherMatchesMinScore: number | undefined
  budget: number
  json: string | undefined
  tuning: Record<string, number>
  repeats: boolean
  /** With `--forget tool`: whether each request's exchange is stored as the middleware stores it, and how. */
  storeRequests: 'off' | 'whole' | 'without-restatements'
  /** `forgetRestatements`' `minScore` (`REPEAT_SEARCH.exchangeMinScore` when absent). */
  restatementMinScore: number | undefined
}

const USAGE =
  'usage: npm run bench:forget -- [--set FILE] [--conversations 1-3|4,5,6] [--split tune|held-out] [--forget sentence|message|tool|none] [--repeats on|off] [--store-requests off|whole|without-restatements] [--restatement-min-score N] [--limit N] [--min-score N] [--other-matches-min-score N] [--budget N] [--tune NAME=VALUE] [--json OUT]'

function parseArgs(argv: string[]): Args {
  const args: Args = {
    set: 'bench/forget-flow/forget-set.json',
    conversations: undefined,
    split: undefined,
    forget: 'sentence',
    limit: 10,
    minScore: undefined,
    otherMatchesMinScore: undefined,
    budget: 2000,
    json: undefined,
    tuning: {},
    repeats: true,
    storeRequests: 'without-restatements',
    restatementMinScore: undefined,
  }
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]]
    if (value === undefined) throw new UsageError(`${flag} needs a value\n${USAGE}`)
    if (flag === '--set') args.set = value
    else if (flag === '--json') args.json = value
    else if (flag === '--repeats' && (value === 'on' || value === 'off')) args.repeats = value === 'on'
    else if (flag === '--store-requests' && ['off', 'whole', 'without-restatements'].includes(value))
      args.storeRequests = value as Args['storeRequests']
    else if (flag === '--restatement-min-score') args.restatementMinScore = Number(value)
    else if (flag === '--limit') args.limit = Number(value)
    else if (flag === '--min-score') args.minScore = Number(value)
    else if (flag === '--other-matches-min-score') args.otherMatchesMinScore = Number(value)
    else if (flag === '--budget') args.budget = Number(value)
    else if (flag === '--forget' && ['sentence', 'message', 'tool', 'none'].includes(value))
      args.forget = value as Args['forget']
    else if (flag === '--conversations') args.conversations = numbers(value)
    else if (flag === '--split' && (value === 'tune' || value === 'held-out')) args.split = value
    else if (flag === '--tune' && value.includes('=')) args.tuning[value.split('=')[0]] = Number(value.split('=')[1])
    else throw new UsageError(`unknown option ${flag} ${value}\n${USAGE}`)
  }
  return args
}

function numbers(list: string): Set<number> {
  const out = new Set<number>()
  for (const part of list.split(',')) {
    const [from, to = from] = part.split('-').map(Number)
    for (let n = from; n <= to; n++) out.add(n)
  }
  return out
}

const lower = (text: string): string => text.toLocaleLowerCase('en')
const holds = (text: string, value: string): boolean => lower(text).includes(lower(value))
const log = (line: string): void => void process.stderr.write(`${line}\n`)
const percent = (part: number, whole: number): string => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`

interface Tally {
  requests: number
  rank1: number
  within3: number
  sentenceFirst: number
  probes: number
  leakedProbes: number
  contexts: number
  leakedContexts: number
  facts: number
  factsLostFromStore: number
  factsLostFromContext: number
  sentencesForgotten: number
  messagesForgotten: number
  /** With `--forget tool`: requests whose statement it removed, and removed sentences without the request's value. */
  statementsRemoved: number
  extraForgotten: number
  /** With `--store-requests`: the request messages' sentences without the request's value, and those not stored. */
  requestNews: number
  requestNewsLost: number
  /** Requests whose matches carry a `request` (the app shows the list). */
  requestsRead: number
  /** Controls asked, those `findForgettable` made a suggestion for, and those it read as a request. */
  controls: number
  controlsSuggested: number
  controlsRead: number
}

const emptyTally = (): Tally => ({
  requests: 0,
  rank1: 0,
  within3: 0,
  sentenceFirst: 0,
  probes: 0,
  leakedProbes: 0,
  contexts: 0,
  leakedContexts: 0,
  facts: 0,
  factsLostFromStore: 0,
  factsLostFromContext: 0,
  sentencesForgotten: 0,
  messagesForgotten: 0,
  statementsRemoved: 0,
  extraForgotten: 0,
  requestNews: 0,
  requestNewsLost: 0,
  requestsRead: 0,
  controls: 0,
  controlsSuggested: 0,
  controlsRead: 0,
})

/** The sentences of the list the user confirms: those that carry the request's value. */
function confirmed(matches: readonly ForgettableMatch[], value: string): ForgetSentence[] {
  return matches.flatMap((match) =>
    match.sentences
      .filter((sentence) => holds(sentence.text, value))
      .map(({ start, end }) => ({ messageId: match.messageId, start, end })),
  )
}

/** The approval of a forget tool call as the AI SDK gives it: the whole call, every statement it found. */
const approveAll = (statements: ForgetStatement[]) => statements

async function runConversation(memory: Memory, conversation: SetConversation, args: Args, tally: Tally) {
  const conversationId = conversation.id
  await memory.add(conversation.messages.map((m) => ({ ...m, conversationId })))
  await memory.indexed()
  const contextOf = async (request: string) =>
    (await memory.buildContext(request, { budget: args.budget, conversationId })).text
  const before = new Map<string, boolean>()
  if (args.forget !== 'none')
    for (const fact of conversation.facts) before.set(fact.id, holds(await contextOf(fact.question), fact.answer))

  const controls = (conversation.controls ?? []).filter((control) => !args.split || control.split === args.split)
  tally.controls += controls.length
  const outcome = await controlOutcome(memory, controls, { limit: args.limit, conversationId }, log)
  tally.controlsSuggested += outcome.suggested
  tally.controlsRead += outcome.readAsRequest
  const requests = conversation.requests.filter((request) => !args.split || request.split === args.split)
  for (const request of requests) {
    const matches = await memory.findForgettable(request.message, { limit: args.limit, conversationId })
    const rank = matches.findIndex((m) => m.messageId === request.statement.messageId) + 1
    tally.requests++
    if (await memory.findForgetRequest(request.message)) tally.requestsRead++
    else log(`${request.id}: not read as a request`)
    if (rank === 1) tally.rank1++
    if (rank >= 1 && rank <= 3) tally.within3++
    if (rank === 1 && matches[0].sentences[0]?.text === request.statement.sentence) tally.sentenceFirst++
    else log(`${request.id}: statement at rank ${rank || '-'}: ${matches[0]?.sentences[0]?.text ?? '(nothing)'}`)
    if (args.forget === 'tool') {
      const input = { statement: request.message }
      const { limit, minScore, otherMatchesMinScore, repeats } = args
      const options = { conversationId, limit, minScore, otherMatchesMinScore, repeats, confirm: approveAll }
      const { forgotten } = await forgetStatements(memory, input, options)
      tally.sentencesForgotten += forgotten.length
      if (forgotten.some((s) => s.text === request.statement.sentence)) tally.statementsRemoved++
      for (const statement of forgotten.filter((s) => !holds(s.text, request.value))) {
        tally.extraForgotten++
        log(`${request.id}: the tool also removed "${statement.text}"`)
      }
      if (args.storeRequests !== 'off') await storeRequest(memory, request, forgotten, args, tally, conversationId)
      continue
    }
    const chosen = confirmed(matches, request.value)
    if (args.repeats) {
      // The second list the app shows: what repeats each confirmed sentence (an assistant's reply that echoes it
      // shares its words, not the request's), ranked with the sentence itself as the request.
      const texts = new Set(
        matches.flatMap((m) => m.sentences.filter((s) => holds(s.text, request.value)).map((s) => s.text)),
      )
      for (const text of texts) {
        const repeats = await memory.findForgettable(text, { limit: args.limit, conversationId })
        for (const sentence of confirmed(repeats, request.value))
          if (!chosen.some((c) => c.messageId === sentence.messageId && c.start === sentence.start))
            chosen.push(sentence)
      }
    }
    if (args.forget === 'message' && chosen.length > 0) {
      tally.messagesForgotten += await memory.forget({ ids: [...new Set(chosen.map((c) => c.messageId))] })
    } else if (args.forget === 'sentence' && chosen.length > 0) {
      tally.sentencesForgotten += await memory.forget({ sentences: chosen })
    }
  }
  if (args.forget === 'none') return
  await memory.indexed()

  const values = requests.map((r) => r.value)
  const stored = (await memory.messages({ conversationId, limit: 1000 })).messages
  const storedById = new Map(stored.map((m) => [m.id, m.content]))
  const leaks = (text: string) => values.some((value) => holds(text, value))
  for (const request of requests) {
    const left = stored.filter((m) => holds(m.content, request.value)).map((m) => m.id)
    if (left.length > 0) log(`${request.id}: "${request.value}" is still stored in ${left.join(', ')}`)
    const text = await contextOf(request.probe)
    tally.probes++
    tally.contexts++
    if (leaks(text)) {
      tally.leakedProbes++
      tally.leakedContexts++
      log(`${request.id}: the probe's context still holds a retracted value`)
    }
  }
  for (const fact of conversation.facts) {
    const text = await contextOf(fact.question)
    tally.facts++
    tally.contexts++
    if (leaks(text)) tally.leakedContexts++
    if (!fact.evidence.some((id) => holds(storedById.get(id) ?? '', fact.answer))) {
      tally.factsLostFromStore++
      log(`${fact.id}: "${fact.answer}" is no longer stored`)
    }
    if (before.get(fact.id) && !holds(text, fact.answer)) {
      tally.factsLostFromContext++
      log(`${fact.id}: "${fact.answer}" was in its context before the flow and is not after`)
    }
  }
}

/**
 * The request's exchange stored as the middleware stores it once the call succeeded (`storeExchange`): the user's
 * message and a reply that tells what was forgotten, as a model does, without the sentences that restate it unless
 * `--store-requests whole`. Counts the message's other news lost.
 */
async function storeRequest(
  memory: Memory,
  request: SetRequest,
  forgotten: ForgottenStatement[],
  args: Args,
  tally: Tally,
  conversationId: string,
): Promise<void> {
  const ids = { user: `${request.id}-asked`, reply: `${request.id}-reply`, userMarked: false }
  const reply =
    forgotten.length === 0
      ? 'I could not find that in what you told me.'
      : `Done. I have forgotten: ${forgotten.map((s) => s.text).join(' ')}`
  const exchange = {
    ids,
    conversationId,
    request: request.message,
    replySoFar: '',
    startedAt: Date.now(),
    forgotten: [],
  }
  // Stored whole, then its restatements removed as `storeExchange` removes them, with the bench's `minScore`.
  const report = await storeExchange(memory, exchange, reply, 50_000)
  if (report.error) throw report.error
  if (args.storeRequests === 'without-restatements')
    await forgetRestatements(memory, forgotten, report.ids, conversationId, args.restatementMinScore)
  const stored = (await memory.messages({ ids: [ids.user] })).messages[0]?.content ?? ''
  for (const sentence of splitSentences(request.message)) {
    if (holds(sentence.text, request.value)) continue
    tally.requestNews++
    if (!stored.includes(sentence.text)) {
      tally.requestNewsLost++
      log(`${request.id}: the stored request lost "${sentence.text}"`)
    }
  }
}

function report(label: string, t: Tally, args: Args): string[] {
  const lines = [
    `${label}: ${t.requests} requests`,
    `  findForgettable(whole message): statement's message rank 1 ${percent(t.rank1, t.requests)} (${t.rank1}), within 3 ${percent(t.within3, t.requests)} (${t.within3}); rank 1 with the statement as its first sentence ${percent(t.sentenceFirst, t.requests)} (${t.sentenceFirst}); read as a request (findForgetRequest) ${percent(t.requestsRead, t.requests)} (${t.requestsRead})`,
  ]
  if (t.controls > 0)
    lines.push(
      `  controls (asking nothing to be forgotten): ${t.controls}, read as a request ${percent(t.controlsRead, t.controls)} (${t.controlsRead}); findForgettable suggests a match for ${percent(t.controlsSuggested, t.controls)} (${t.controlsSuggested})`,
    )
  if (args.forget !== 'none') {
    lines.push(
      `  after the flow (--forget ${args.forget}: ${t.sentencesForgotten} sentences, ${t.messagesForgotten} messages forgotten): ${args.budget}-character contexts holding a retracted value: probes ${percent(t.leakedProbes, t.probes)} (${t.leakedProbes}/${t.probes}), all ${percent(t.leakedContexts, t.contexts)} (${t.leakedContexts}/${t.contexts})`,
      `  facts lost: from the store ${t.factsLostFromStore}/${t.facts}, from their contexts ${t.factsLostFromContext}/${t.facts}`,
    )
    if (args.forget === 'tool')
      lines.push(
        `  tool: the request's statement removed ${percent(t.statementsRemoved, t.requests)} (${t.statementsRemoved}); sentences removed without the request's value ${t.extraForgotten}`,
      )
    if (args.forget === 'tool' && args.storeRequests !== 'off')
      lines.push(
        `  requests stored (--store-requests ${args.storeRequests}): their other sentences lost ${t.requestNewsLost}/${t.requestNews}`,
      )
  }
  return lines
}

function addTo(sum: Tally, tally: Tally): void {
  for (const key of Object.keys(sum) as (keyof Tally)[]) sum[key] += tally[key]
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2))
  const data = JSON.parse(await readFile(args.set, 'utf8')) as { format: string; conversations: SetConversation[] }
  if (data.format !== 'sift-forget-set') throw new UsageError(`${args.set} is not a sift-forget-set file`)
  const { createMemory } = await import('../../src/node')
  const tallies = new Map<string, Tally>()
  const languages = new Map<string, Tally>()
  const total = emptyTally()
  for (const [index, conversation] of data.conversations.entries()) {
    if (args.conversations && !args.conversations.has(index + 1)) continue
    const tally = emptyTally()
    const memory = await createMemory({
      name: `bench-forget-${conversation.id}-${Date.now()}`,
      embeddingCacheDir: DEFAULT_EMBEDDING_CACHE_DIR,
      tuning: args.tuning,
    })
    try {
      await runConversation(memory, conversation, args, tally)
    } finally {
      await memory.close()
    }
    tallies.set(conversation.id, tally)
    const language = conversation.language ?? 'en'
    if (!languages.has(language)) languages.set(language, emptyTally())
    for (const sum of [total, languages.get(language)!]) addTo(sum, tally)
  }
  const lines = [...tallies].flatMap(([id, tally]) => report(id, tally, args))
  if (languages.size > 1) lines.push(...[...languages].flatMap(([language, tally]) => report(language, tally, args)))
  lines.push(...report('all', total, args))
  process.stdout.write(`${lines.join('\n')}\n`)
  if (args.json)
    await writeFile(
      args.json,
      `${JSON.stringify({ args, total, conversations: Object.fromEntries(tallies) }, null, 2)}\n`,
    )
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof UsageError ? error.message : error instanceof Error ? error.stack : error}\n`,
  )
  process.exit(1)
})
