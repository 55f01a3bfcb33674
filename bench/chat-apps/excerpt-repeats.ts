// The share of excerpt characters that repeat turns the request also sends verbatim, for docs/setup.md's recipe before
// `excludeRecent` (the context built from the whole history) and after it (the latest turns left out). A LoCoMo
// conversation is replayed turn by turn; every `--every`th user turn is a request, sent with the RECENT turns before
// it verbatim and a context of the history before it.
//
//   npx tsx bench/chat-apps/excerpt-repeats.ts --data ../shared/data/locomo10.json [--conversation 0] [--every 10] [--budget 4000]
import { parseArgs } from 'node:util'
import { DEFAULT_EMBEDDING_CACHE_DIR } from '../../tools/embedding-cache-dir'
import { readHistory } from '../../tools/locomo/locomo'
import { createMemory } from '../../src/node'

const RECENT = 6
const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    conversation: { type: 'string', default: '0' },
    every: { type: 'string', default: '10' },
    budget: { type: 'string', default: '4000' },
  },
})
if (!values.data) throw new Error('--data FILE (a LoCoMo file) is required')
const history = await readHistory(values.data)
const conversation = history.conversations[Number(values.conversation)]
const every = Number(values.every)
const budget = Number(values.budget)
const memory = await createMemory({
  name: `excerpt-repeats-${conversation.id}`,
  embeddingCacheDir: DEFAULT_EMBEDDING_CACHE_DIR,
})
const tally = { before: { repeated: 0, total: 0 }, after: { repeated: 0, total: 0 } }
let requests = 0
let stored: string[] = []
for (const [index, message] of conversation.messages.entries()) {
  if (index >= RECENT && index % every === 0) {
    await memory.indexed()
    const recentIds = new Set(stored.slice(-RECENT))
    for (const [name, options] of [
      ['before', { budget }],
      ['after', { budget, excludeRecent: RECENT }],
    ] as const) {
      const context = await memory.buildContext(message.content, options)
      for (const item of context.items) {
        tally[name].total += item.text.length
        if (recentIds.has(item.messageId)) tally[name].repeated += item.text.length
      }
    }
    requests++
  }
  stored = [...stored, ...(await memory.add(message))]
}
await memory.close()
const share = ({ repeated, total }: { repeated: number; total: number }) =>
  `${((100 * repeated) / Math.max(total, 1)).toFixed(1)}% (${repeated} of ${total} characters)`
console.log(
  `${conversation.id}: ${requests} requests, ${RECENT} recent turns verbatim, budget ${budget}: ` +
    `excerpt characters repeating a verbatim turn before ${share(tally.before)}, after (excludeRecent) ${share(tally.after)}`,
)
