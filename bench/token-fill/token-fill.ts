// How full a token budget gets, and what it costs, on LoCoMo: every answerable question's hybrid context at each token
// budget with each tokenizer, counted by the tokenizer itself; beside a character budget for the same requests.
//   npx tsx bench/token-fill/token-fill.ts --data ../shared/data/locomo10.json [--budgets 500,2000]
// Prints, per tokenizer and budget: contexts, mean / min fill, how many were over (must be 0), and buildContext's
// p50/p95 ms in Node. The LoCoMo data is for evaluation only.
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { Tokenizer } from '@huggingface/tokenizers'
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base'
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base'
import { readHistory } from '../../tools/locomo/locomo'
import { createMemory } from '../../src/node'
import type { BuildContextOptions } from '../../src/types'

const { values } = parseArgs({
  options: { data: { type: 'string' }, budgets: { type: 'string', default: '500,2000' } },
})
if (!values.data)
  throw new Error('usage: npx tsx bench/token-fill/token-fill.ts --data LOCOMO.json [--budgets 500,2000]')
const budgets = values.budgets.split(',').map(Number)
const plain = { disallowedSpecial: new Set<string>() }
const useLite = new Tokenizer(JSON.parse(readFileSync('public/models/use-lite/tokenizer.json', 'utf8')), {})
const tokenizers: Record<string, (text: string) => number> = {
  o200k_base: (text) => o200k(text, plain),
  cl100k_base: (text) => cl100k(text, plain),
  'use-lite/tokenizer.json': (text) => useLite.encode(text, { add_special_tokens: false }).ids.length,
}

interface Tally {
  fills: number[]
  over: number
  ms: number[]
}
const tallies = new Map<string, Tally>()
const tally = (key: string) => tallies.get(key) ?? tallies.set(key, { fills: [], over: 0, ms: [] }).get(key)!

const history = await readHistory(values.data, { images: 'caption' })
for (const conversation of history.conversations) {
  const memory = await createMemory({ name: `token-fill-${conversation.id}`, embeddingCacheDir: '.cache/embeddings' })
  await memory.add(conversation.messages)
  await memory.indexed()
  for (const question of conversation.questions) {
    if (!(question.category >= 1 && question.category <= 4) || !question.evidence?.length) continue
    for (const tokens of budgets) {
      const runs: [string, BuildContextOptions['budget'], (text: string) => number][] = [
        [`${tokens * 4} characters`, tokens * 4, (text) => text.length],
        ...Object.entries(tokenizers).map(
          ([tokenizer, count]): [string, BuildContextOptions['budget'], typeof count] => [
            `${tokens} tokens, ${tokenizer}`,
            { tokens, tokenizer },
            count,
          ],
        ),
      ]
      for (const [key, budget, count] of runs) {
        const ctx = await memory.buildContext(question.question, { budget, conversationId: conversation.id })
        const limit = typeof budget === 'number' ? budget : tokens
        const used = count(ctx.text)
        const entry = tally(key)
        entry.fills.push(used / limit)
        if (used > limit) entry.over++
        entry.ms.push(ctx.stats.ms - ctx.stats.queryMs)
      }
    }
  }
  await memory.close()
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
}
console.log('| budget | contexts | mean fill | min fill | over | ms p50 / p95 (Node) |')
console.log('|---|---|---|---|---|---|')
for (const [key, { fills, over, ms }] of tallies) {
  const mean = fills.reduce((sum, f) => sum + f, 0) / fills.length
  console.log(
    `| ${key} | ${fills.length} | ${(100 * mean).toFixed(1)}% | ${(100 * Math.min(...fills)).toFixed(1)}% | ${over} | ${quantile(ms, 0.5).toFixed(2)} / ${quantile(ms, 0.95).toFixed(2)} |`,
  )
}
