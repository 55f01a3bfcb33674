// What following updates costs a context: `buildContext` with `followUpdates` on (the default) and off, alternating
// request by request, over every LoCoMo conversation stored in one memory (the real model, embeddings from the cache).
// Usage: npx tsx bench/updates/update-cost.ts [--data ../shared/data/locomo10.json] [--questions N] [--budget N]
import { readFileSync } from 'node:fs'
import { DEFAULT_EMBEDDING_CACHE_DIR } from '../../tools/embedding-cache-dir'

interface LocomoTurn {
  speaker: string
  text: string
}
interface LocomoSample {
  sample_id: string
  conversation: Record<string, unknown> & { speaker_a: string }
  qa: { question: string }[]
}

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name)
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * p)].toFixed(1)

async function main(): Promise<void> {
  const data = JSON.parse(readFileSync(option('--data', '../shared/data/locomo10.json'), 'utf8')) as LocomoSample[]
  const perConversation = Number(option('--questions', '30'))
  const budget = Number(option('--budget', '2000'))
  const { createMemory } = await import('../../src/node')
  const memory = await createMemory({
    name: `update-cost-${Date.now()}`,
    embeddingCacheDir: DEFAULT_EMBEDDING_CACHE_DIR,
  })
  const questions: string[] = []
  let timestamp = Date.UTC(2023, 0, 1)
  for (const sample of data) {
    const { conversation } = sample
    const messages = []
    for (let session = 1; Array.isArray(conversation[`session_${session}`]); session++)
      for (const turn of conversation[`session_${session}`] as LocomoTurn[])
        messages.push({
          role: turn.speaker === conversation.speaker_a ? ('user' as const) : ('assistant' as const),
          content: `${turn.speaker}: ${turn.text}`,
          timestamp: (timestamp += 60_000),
          conversationId: sample.sample_id,
        })
    await memory.add(messages)
    questions.push(...sample.qa.slice(0, perConversation).map((qa) => qa.question))
  }
  await memory.indexed()
  const { sentences } = await memory.stats()
  const times = { on: [] as number[], off: [] as number[] }
  for (const [i, question] of questions.entries())
    for (const mode of i % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
      const started = performance.now()
      await memory.buildContext(question, { budget, followUpdates: mode === 'on' })
      times[mode].push(performance.now() - started)
    }
  await memory.close()
  process.stdout.write(`${sentences} sentences, ${questions.length} requests each way, budget ${budget}\n`)
  for (const mode of ['off', 'on'] as const)
    process.stdout.write(
      `followUpdates ${mode}: buildContext p50 ${percentile(times[mode], 0.5)} ms, p95 ${percentile(times[mode], 0.95)} ms\n`,
    )
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : error}\n`)
  process.exit(1)
})
