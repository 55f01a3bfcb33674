// The harder paraphrase set (README.md beside this file): for lexical, dense and hybrid at each budget, per half and
// kind of question, how often the answer string is in the context's text and how often the sentence stating it is an
// item of the context.
//   npx tsx bench/recall/paraphrase-set/run.ts [--budgets 2000,8000] [--strategies lexical,dense,hybrid]
//     [--tune NAME=VALUE | --tune FILE.json]... [--misses] [--half tune|held-out]
// `--half tune` asks only the tune half's questions, so that a sweep does not read the held-out half's figures.
import { parseArgs } from 'node:util'
import { createMemory } from '../../../src/node'
import type { Strategy } from '../../../src/types'
import { DEFAULT_EMBEDDING_CACHE_DIR } from '../../../tools/embedding-cache-dir'
import { readTuning, type TuneSource } from '../recall-args'
import { type ParaphraseKind, type ParaphraseQuestion, readParaphraseSet } from './paraphrase-set'

const { values } = parseArgs({
  options: {
    budgets: { type: 'string', default: '2000,8000' },
    strategies: { type: 'string', default: 'lexical,dense,hybrid' },
    tune: { type: 'string', multiple: true },
    misses: { type: 'boolean', default: false },
    half: { type: 'string' },
  },
})
if (values.half !== undefined && values.half !== 'tune' && values.half !== 'held-out')
  throw new Error(`--half must be tune or held-out, got ${JSON.stringify(values.half)}`)
const budgets = values.budgets.split(',').map(Number)
const strategies = values.strategies.split(',') as Strategy[]
const tuning = await readTuning(
  (values.tune ?? []).map((argument): TuneSource => {
    const equals = argument.indexOf('=')
    if (equals < 0) return { file: argument }
    const text = argument.slice(equals + 1)
    return { name: argument.slice(0, equals), value: text === 'true' ? true : text === 'false' ? false : Number(text) }
  }),
)

interface Tally {
  n: number
  answer: number
  sentence: number
}
const tallies = new Map<string, Tally>()
const count = (key: string, answer: boolean, sentence: boolean) => {
  const t = tallies.get(key) ?? { n: 0, answer: 0, sentence: 0 }
  t.n++
  if (answer) t.answer++
  if (sentence) t.sentence++
  tallies.set(key, t)
}

const conversations = (await readParaphraseSet()).filter((c) => values.half === undefined || c.half === values.half)
for (const conversation of conversations) {
  const memory = await createMemory({
    name: `bench-paraphrase-${conversation.id}`,
    embeddingCacheDir: DEFAULT_EMBEDDING_CACHE_DIR,
    tuning,
  })
  try {
    await memory.add(conversation.messages.map((message) => ({ ...message, conversationId: conversation.id })))
    await memory.indexed()
    for (const q of conversation.questions) {
      for (const strategy of strategies) {
        for (const budget of budgets) {
          const ctx = await memory.buildContext(q.question, { conversationId: conversation.id, strategy, budget })
          const answer = ctx.text.includes(q.answer)
          const sentence = ctx.items.some((item) => item.messageId === q.messageId && holds(item, q))
          for (const half of [conversation.half, 'all'])
            count(`${half}|${q.kind}|${strategy}|${budget}`, answer, sentence)
          if (values.misses && !answer && strategy === 'hybrid')
            console.log(`miss ${q.fact} ${q.kind} @${budget}: ${q.question}`)
        }
      }
    }
  } finally {
    await memory.close()
  }
}

/** Whether the item is the statement (or a part of it the sentence splitter cut). */
function holds(item: { start: number; end: number }, q: ParaphraseQuestion): boolean {
  return item.start < q.end && item.end > q.start
}

const pct = (x: number, n: number) => `${((100 * x) / n).toFixed(1)}%`
console.log('half | kind | strategy | budget | n | answer in context | statement in context')
for (const half of values.half === undefined ? ['tune', 'held-out', 'all'] : [values.half])
  for (const kind of ['indirect', 'direct'] as ParaphraseKind[])
    for (const strategy of strategies)
      for (const budget of budgets) {
        const t = tallies.get(`${half}|${kind}|${strategy}|${budget}`)
        if (t)
          console.log(
            `${half} | ${kind} | ${strategy} | ${budget} | ${t.n} | ${pct(t.answer, t.n)} | ${pct(t.sentence, t.n)}`,
          )
      }
