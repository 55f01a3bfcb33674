// The share of each chat request's characters a provider's prompt cache could reuse (issue 31), in the two ways
// providers cache: by the longest prefix a request shares with an earlier one, wherever it ends (OpenAI's automatic
// caching, vLLM's prefix cache: `prefix`), and by the prefix up to a cache breakpoint the app marks, reused only when
// everything up to it is unchanged (Anthropic's `cache_control`: `breakpoint`). The chat of chat.ts is replayed as
// docs/setup.md's recipe sends it (`chatPrompt`): each request's context built from the stored history, the latest
// turns sent verbatim, then the request and its reply stored. Each context is sent in both layouts: before, its text
// in one system text after the system prompt (a string `context`, as chatPrompt and the middleware sent every context
// until issue 31); after, its stable sections (pins, summary) in a system text of their own before the excerpts'
// (`Context.sections`, as both send it now). `prefix` compares consecutive OpenAI-compatible request bodies
// (`toOpenAIMessages`), `breakpoint` consecutive Anthropic ones (`toAnthropicPrompt`), each as JSON.
//
//   npm run bench:prompt-cache [-- --budget 4000] [--recent 4]
import { parseArgs } from 'node:util'
import {
  type ChatPrompt,
  chatPrompt,
  type ChatTurn,
  createMemory,
  toAnthropicPrompt,
  toOpenAIMessages,
} from '../../src/node'
import type { Context } from '../../src/types'
import { DEFAULT_EMBEDDING_CACHE_DIR } from '../../tools/embedding-cache-dir'
import { EARLIER, LATER_SUMMARY, PINNED, REQUESTS, RESUMMARISED_AFTER, SUMMARY, SYSTEM_PROMPT } from './chat'

const CHAT = 'chat'
const MINUTE = 60_000
const EARLIER_AT = Date.UTC(2026, 10, 20, 18)
const LATER_AT = Date.UTC(2026, 11, 28, 9)

const { values } = parseArgs({
  options: { budget: { type: 'string', default: '4000' }, recent: { type: 'string', default: '4' } },
})
const budget = Number(values.budget)
const recentTurns = Number(values.recent)
const layouts = {
  before: (context: Context) => context.text,
  after: (context: Context) => context,
} as const
type Layout = keyof typeof layouts

const memory = await createMemory({ name: 'prompt-cache', embeddingCacheDir: DEFAULT_EMBEDDING_CACHE_DIR })
const earlierIds = await memory.add(
  EARLIER.map((turn, i) => ({ ...turn, conversationId: CHAT, timestamp: EARLIER_AT + i * MINUTE })),
)
for (const index of PINNED) await memory.pin(earlierIds[index])
await memory.setSummary(CHAT, SUMMARY, { through: earlierIds.at(-1)! })

const prompts: Record<Layout, ChatPrompt[]> = { before: [], after: [] }
let later: ChatTurn[] = []
let lastId = earlierIds.at(-1)!
for (const [n, [request, reply]] of REQUESTS.entries()) {
  if (n === RESUMMARISED_AFTER) await memory.setSummary(CHAT, LATER_SUMMARY, { through: lastId })
  const recent = later.slice(-recentTurns)
  await memory.indexed()
  const context = await memory.buildContext(request, { budget, conversationId: CHAT, excludeRecent: recent.length })
  for (const layout of ['before', 'after'] as const)
    prompts[layout].push(chatPrompt({ system: SYSTEM_PROMPT, context: layouts[layout](context), recent, request }))
  const at = LATER_AT + n * 2 * MINUTE
  const ids = await memory.add([
    { role: 'user', content: request, conversationId: CHAT, timestamp: at },
    { role: 'assistant', content: reply, conversationId: CHAT, timestamp: at + MINUTE },
  ])
  lastId = ids.at(-1)!
  later = [...later, { role: 'user', content: request }, { role: 'assistant', content: reply }]
}
await memory.close()

/** Characters `a` and `b` share from their start. */
function commonPrefix(a: string, b: string): number {
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  return i
}

const MODEL = 'chat-model'

/** A request as an OpenAI-compatible body: the prefix a cache reuses is what it shares with the previous one. */
function prefixReuse(prompt: ChatPrompt, previous: ChatPrompt | undefined): { chars: number; reused: number } {
  const body = (of: ChatPrompt) => JSON.stringify({ model: MODEL, messages: toOpenAIMessages(of) })
  const chars = body(prompt).length
  return { chars, reused: previous === undefined ? 0 : commonPrefix(body(previous), body(prompt)) }
}

/**
 * A request as an Anthropic body: the cache holds the prefix through the block marked `cache_control`, and the next
 * request reuses it only when its own prefix through its mark is the same.
 */
function breakpointReuse(prompt: ChatPrompt, previous: ChatPrompt | undefined): { chars: number; reused: number } {
  const cached = (of: ChatPrompt) => {
    const { system } = toAnthropicPrompt(of)
    const through = system.findIndex((block) => block.cache_control !== undefined)
    return JSON.stringify({ model: MODEL, system: system.slice(0, through + 1) }).slice(0, -2)
  }
  const { system, messages } = toAnthropicPrompt(prompt)
  const chars = JSON.stringify({ model: MODEL, system, messages }).length
  return { chars, reused: previous !== undefined && cached(previous) === cached(prompt) ? cached(prompt).length : 0 }
}

const caches = { prefix: prefixReuse, breakpoint: breakpointReuse }
type Cache = keyof typeof caches
const shares = (cache: Cache, layout: Layout) =>
  prompts[layout].map((prompt, i) => {
    const { chars, reused } = caches[cache](prompt, prompts[layout][i - 1])
    return reused / chars
  })
const columns = (['prefix', 'breakpoint'] as const).flatMap((cache) =>
  (['before', 'after'] as const).map((layout) => ({ name: `${cache}, ${layout}`, shares: shares(cache, layout) })),
)
const percent = (share: number) => `${(100 * share).toFixed(1)}%`
const mean = (values: number[]) => values.slice(1).reduce((sum, value) => sum + value, 0) / (values.length - 1)
console.log(
  `prompt-cache: ${REQUESTS.length} requests, budget ${budget} characters, ${recentTurns} recent turns verbatim, ` +
    `system prompt ${SYSTEM_PROMPT.length} characters, 2 pins and a summary (set again before request ${RESUMMARISED_AFTER + 1})`,
)
console.log('share of each request a cache could reuse from the request before it:\n')
console.log(`| request | ${columns.map((column) => column.name).join(' | ')} |`)
console.log(`|---|${columns.map(() => '---|').join('')}`)
for (let i = 1; i < REQUESTS.length; i++)
  console.log(`| ${i + 1} | ${columns.map((column) => percent(column.shares[i])).join(' | ')} |`)
console.log(`| mean of 2–${REQUESTS.length} | ${columns.map((column) => percent(mean(column.shares))).join(' | ')} |`)
