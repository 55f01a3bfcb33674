// How often a context holds a superseded statement without the one that revised it, on a synthetic history of
// revised facts (`bench/updates/synthetic-updates.ts`): per strategy and budget, with and without `followUpdates`; with
// it, how often both are there and the older one is marked (`ContextItem.supersededBy`), and how many marks are
// false: a marked line that is not a case's stale statement marked by that case's revision (a distractor, chit-chat).
//   npx tsx bench/updates/update-recall.ts [--budgets 2000,8000] [--conversations 6] [--facts 8] [--gap 400]
import { parseArgs } from 'node:util'
import { createMemory } from '../../src/node'
import type { Strategy } from '../../src/types'
import { DEFAULT_EMBEDDING_CACHE_DIR } from '../../tools/embedding-cache-dir'
import { syntheticUpdates } from './synthetic-updates'

const { values } = parseArgs({
  options: {
    budgets: { type: 'string', default: '2000,8000' },
    conversations: { type: 'string', default: '6' },
    facts: { type: 'string', default: '8' },
    gap: { type: 'string', default: '400' },
  },
})
const budgets = values.budgets.split(',').map(Number)
const modes: { label: string; strategy: Strategy; followUpdates: boolean }[] = [
  { label: 'lexical', strategy: 'lexical', followUpdates: false },
  { label: 'dense', strategy: 'dense', followUpdates: false },
  { label: 'hybrid', strategy: 'hybrid', followUpdates: false },
  { label: 'lexical + followUpdates', strategy: 'lexical', followUpdates: true },
  { label: 'dense + followUpdates', strategy: 'dense', followUpdates: true },
  { label: 'hybrid + followUpdates', strategy: 'hybrid', followUpdates: true },
]
const histories = syntheticUpdates({
  conversations: Number(values.conversations),
  factsPerConversation: Number(values.facts),
  gapTurns: Number(values.gap),
})
const tally = new Map<
  string,
  {
    newer: number
    staleOnly: number
    both: number
    marked: number
    falseMarks: number
    n: number
    chars: number
    ms: number
  }
>()
for (const history of histories) {
  const memory = await createMemory({
    name: `update-recall-${history.conversationId}`,
    embeddingCacheDir: DEFAULT_EMBEDDING_CACHE_DIR,
  })
  try {
    await memory.add(history.messages)
    await memory.indexed()
    const revisionOf = new Map(history.cases.map((c) => [c.stale, c.newer]))
    for (const { question, newer, stale } of history.cases) {
      for (const mode of modes) {
        for (const budget of budgets) {
          const ctx = await memory.buildContext(question, {
            conversationId: history.conversationId,
            strategy: mode.strategy,
            followUpdates: mode.followUpdates,
            budget,
          })
          const ids = new Set(ctx.items.map((item) => item.messageId))
          const key = `${mode.label} @${budget}`
          const t = tally.get(key) ?? {
            newer: 0,
            staleOnly: 0,
            both: 0,
            marked: 0,
            falseMarks: 0,
            n: 0,
            chars: 0,
            ms: 0,
          }
          t.n++
          t.chars += ctx.stats.used
          t.ms += ctx.stats.ms
          if (ids.has(newer)) t.newer++
          if (ids.has(stale) && !ids.has(newer)) t.staleOnly++
          if (ids.has(stale) && ids.has(newer)) t.both++
          if (ctx.items.some((item) => item.messageId === stale && item.supersededBy === newer)) t.marked++
          t.falseMarks += ctx.items.filter(
            (item) => item.supersededBy !== undefined && revisionOf.get(item.messageId) !== item.supersededBy,
          ).length
          tally.set(key, t)
        }
      }
    }
  } finally {
    await memory.close()
  }
}
const pct = (x: number, n: number) => `${((100 * x) / n).toFixed(1)}%`
console.log(`${histories.length} conversations, ${histories.reduce((s, h) => s + h.cases.length, 0)} revised facts`)
console.log(
  'mode @budget | newer in context | stale without newer | both | both, stale marked | false marks per context | mean chars | mean ms',
)
for (const [key, t] of tally) {
  console.log(
    `${key} | ${pct(t.newer, t.n)} | ${pct(t.staleOnly, t.n)} | ${pct(t.both, t.n)} | ${pct(t.marked, t.n)} | ${(t.falseMarks / t.n).toFixed(2)} | ${Math.round(t.chars / t.n)} | ${(t.ms / t.n).toFixed(1)}`,
  )
}
