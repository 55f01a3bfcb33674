// How many lines `followUpdates` marks as superseded in LoCoMo contexts (few facts there are revised, so most marks
// are a sanity check for false ones): per budget, the mean lines, 'update' lines and marked lines per context, the
// share of contexts with a mark, and some marked pairs to read.
//   npx tsx bench/updates/update-marks.ts --data ../shared/data/locomo10.json [--budgets 2000,8000] [--strategy hybrid] [--examples 10] [--tune NAME=VALUE]...
import { parseArgs } from 'node:util'
import { createMemory } from '../../src/node'
import type { Strategy } from '../../src/types'
import { DEFAULT_EMBEDDING_CACHE_DIR } from '../../tools/embedding-cache-dir'
import { readHistory } from '../../tools/locomo/locomo'

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    budgets: { type: 'string', default: '2000,8000' },
    strategy: { type: 'string', default: 'hybrid' },
    examples: { type: 'string', default: '10' },
    tune: { type: 'string', multiple: true, default: [] },
  },
})
// `--tune NAME=VALUE`: a selection constant replaced (the Node entry's internal `tuning` option), for the sweeps.
const tuning = Object.fromEntries(
  values.tune.map((pair) => {
    const [name, value] = pair.split('=')
    return [name, value === 'true' || (value === 'false' ? false : Number(value))]
  }),
)
if (values.data === undefined)
  throw new Error(
    'usage: npx tsx bench/updates/update-marks.ts --data LOCOMO.json [--budgets 2000,8000] [--strategy hybrid] [--examples 10]',
  )
const budgets = values.budgets.split(',').map(Number)
const history = await readHistory(values.data)
const tally = new Map(budgets.map((budget) => [budget, { contexts: 0, lines: 0, updates: 0, marked: 0, withMark: 0 }]))
const examples: string[] = []
for (const conversation of history.conversations) {
  const memory = await createMemory({
    name: `update-marks-${conversation.id}`,
    embeddingCacheDir: DEFAULT_EMBEDDING_CACHE_DIR,
    tuning,
  })
  try {
    await memory.add(conversation.messages)
    await memory.indexed()
    for (const { question, category, evidence } of conversation.questions) {
      if (category < 1 || category > 4 || evidence.length === 0) continue
      for (const budget of budgets) {
        const ctx = await memory.buildContext(question, {
          conversationId: conversation.id,
          strategy: values.strategy as Strategy,
          followUpdates: true,
          budget,
        })
        const t = tally.get(budget)!
        const marked = ctx.items.filter((item) => item.supersededBy !== undefined)
        t.contexts++
        t.lines += ctx.items.length
        t.updates += ctx.items.filter((item) => item.reason === 'update').length
        t.marked += marked.length
        if (marked.length > 0) t.withMark++
        if (budget === budgets[0] && examples.length < Number(values.examples)) {
          for (const item of marked) {
            const newer = ctx.items.filter((other) => other.messageId === item.supersededBy).map((other) => other.text)
            examples.push(`${question}\n  ${item.role}: ${item.text}\n  → ${newer.join(' … ')}`)
          }
        }
      }
    }
  } finally {
    await memory.close()
  }
}
console.log(`${history.conversations.length} conversations, strategy ${values.strategy} + followUpdates`)
console.log(
  'budget | contexts | lines per context | update lines per context | marked lines per context | contexts with a mark',
)
for (const [budget, t] of tally) {
  const mean = (x: number) => (x / t.contexts).toFixed(2)
  console.log(
    `${budget} | ${t.contexts} | ${mean(t.lines)} | ${mean(t.updates)} | ${mean(t.marked)} | ${((100 * t.withMark) / t.contexts).toFixed(1)}%`,
  )
}
if (examples.length > 0)
  console.log(
    `\nMarked at ${budgets[0]} (question, the marked line, the later sentence that superseded it):\n${examples.join('\n')}`,
  )
