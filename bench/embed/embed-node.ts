// Measures embedding throughput of the converted USE-Lite model through transformers.js on
// onnxruntime-node (CPU), batch 32, for both shipped precisions. Run: npx tsx bench/embed/embed-node.ts
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { AutoModel, AutoTokenizer, env } from '@huggingface/transformers'

const root = join(import.meta.dirname, '..', '..')
const BATCH = 32
const ROUNDS = 5

const lines = readFileSync(join(root, 'tests/fixtures/sentences.txt'), 'utf8')
  .split('\n')
  .filter((l) => l.length > 0 && !l.startsWith('#'))
env.localModelPath = join(root, 'public/models')
env.allowRemoteModels = false
const tokenizer = await AutoTokenizer.from_pretrained('use-lite')
for (const dtype of ['fp32', 'q8'] as const) {
  const model = await AutoModel.from_pretrained('use-lite', { dtype })
  const batches = Array.from({ length: Math.floor(lines.length / BATCH) }, (_, i) =>
    lines.slice(i * BATCH, (i + 1) * BATCH),
  )
  await model(tokenizer(batches[0], { padding: true, truncation: true }))
  const started = performance.now()
  let sentences = 0
  for (let round = 0; round < ROUNDS; round++) {
    for (const batch of batches) {
      await model(tokenizer(batch, { padding: true, truncation: true }))
      sentences += batch.length
    }
  }
  const seconds = (performance.now() - started) / 1000
  console.log(
    `${dtype}: ${(sentences / seconds).toFixed(0)} sentences/s (batch ${BATCH}, ${sentences} sentences, onnxruntime-node CPU)`,
  )
}
