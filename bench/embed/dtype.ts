// The shipped model's fp32 and int8 (q8) weights side by side in headless Chromium, through the real API on WASM:
//   npx tsx bench/embed/dtype.ts [--rounds N] [--queries N] [--no-build]
// One page holds one memory per dtype, and every measurement alternates between them (one ingest batch, one request
// each in turn), so that whatever else the machine runs slows both alike. Per dtype: ingest (add + indexed(), one
// message per add) in sentences/s, and buildContext on the ingested history with the request embedded (`ms`, and
// `queryMs`, the embedding's part), p50 / p95; then three cold starts each (createMemory on that history to the
// first context, which waits for the model's load).
import { parseArgs } from 'node:util'
import { buildDemo, demoOutDir } from '../../scripts/demo-build'
import { launchChromium } from '../../scripts/launch-chromium'
import { startStaticServer } from '../../scripts/static-server'
import '../../demo/test-hook'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '6' },
    queries: { type: 'string', default: '100' },
    'no-build': { type: 'boolean', default: false },
  },
})
const rounds = Number(values.rounds)
const queries = Number(values.queries)
if (![rounds, queries].every((n) => Number.isInteger(n) && n > 0)) {
  console.error('bench-dtype: --rounds and --queries must be positive integers')
  process.exit(1)
}

const subjects = [
  'My neighbour',
  'The old captain',
  'A quiet student',
  'Her grandmother',
  'Our new manager',
  'The baker',
  'His cousin',
  'That tourist',
]
const actions = ['painted', 'repaired', 'forgot', 'sold', 'photographed', 'described', 'borrowed', 'cleaned']
const objects = [
  'a red bicycle',
  'the kitchen window',
  'three wooden chairs',
  'an antique clock',
  'the garden fence',
  'a broken laptop',
  'two paper lanterns',
  'the blue boat',
]
const places = [
  'near the harbour',
  'before breakfast',
  'in the rain',
  'after the concert',
  'at the market',
  'during the holidays',
  'behind the station',
  'on Sunday',
]
const sentence = (i: number) =>
  `${subjects[i % 8]} ${actions[Math.floor(i / 8) % 8]} ${objects[Math.floor(i / 64) % 8]} ${places[Math.floor(i / 512) % 8]}`

/** 50 two-sentence messages per round, distinct across rounds; requests distinct from each other and from the history. */
const batches = Array.from({ length: rounds }, (_, round) =>
  Array.from({ length: 50 }, (_, m) => {
    const i = (round * 50 + m) * 2
    return {
      role: m % 2 ? 'assistant' : 'user',
      content: `${sentence(i)} (note ${i}). ${sentence(i + 1)} (note ${i + 1}).`,
    }
  }),
)
const requests = Array.from(
  { length: queries },
  (_, q) => `Who ${actions[q % 8]} ${objects[Math.floor(q / 8) % 8]}, and was it ${places[q % 8]}? (${q})`,
)

if (!values['no-build']) await buildDemo()
const server = await startStaticServer({ root: demoOutDir, port: 0 })
const browser = await launchChromium({ webgpu: false })
try {
  const page = await browser.newPage()
  await page.goto(`${server.url}/?open=0`)
  await page.waitForFunction(() => typeof window.sift?.createMemory === 'function')
  const result = await page.evaluate(
    async ({ batches, requests }) => {
      const dtypes = ['fp32', 'q8'] as const
      const memories = await Promise.all(
        dtypes.map((dtype) =>
          window.sift.createMemory({ name: `bench-dtype-${dtype}`, device: 'wasm', embedding: { dtype } }),
        ),
      )
      for (const memory of memories) {
        await memory.add({ role: 'user', content: 'Warm-up sentence that loads the model.' })
        await memory.indexed()
      }
      const ingest = dtypes.map(() => ({ sentences: 0, ingestMs: 0 }))
      for (const batch of batches) {
        for (const [d, memory] of memories.entries()) {
          const before = (await memory.stats()).sentences
          const started = performance.now()
          for (const message of batch) await memory.add(message)
          await memory.indexed()
          ingest[d].ingestMs += performance.now() - started
          ingest[d].sentences += (await memory.stats()).sentences - before
        }
      }
      const contexts = dtypes.map(() => ({ contextMs: [] as number[], queryMs: [] as number[] }))
      for (const request of requests) {
        for (const [d, memory] of memories.entries()) {
          const { stats } = await memory.buildContext(request)
          contexts[d].contextMs.push(stats.ms)
          contexts[d].queryMs.push(stats.queryMs)
        }
      }
      const backends = await Promise.all(memories.map(async (memory) => (await memory.stats()).backend))
      for (const memory of memories) await memory.close()
      // Cold start: createMemory on the ingested store to the first context, which waits for the model to load.
      const coldStartMs = dtypes.map(() => [] as number[])
      for (let run = 0; run < 3; run++) {
        for (const [d, dtype] of dtypes.entries()) {
          const started = performance.now()
          const memory = await window.sift.createMemory({
            name: `bench-dtype-${dtype}`,
            device: 'wasm',
            embedding: { dtype },
          })
          await memory.buildContext(requests[run])
          coldStartMs[d].push(performance.now() - started)
          await (run === 2 ? memory.clear() : memory.close())
        }
      }
      return dtypes.map((dtype, d) => ({
        dtype,
        backend: backends[d],
        ...ingest[d],
        ...contexts[d],
        coldStartMs: coldStartMs[d],
      }))
    },
    { batches, requests },
  )
  const percentile = (values: number[], p: number) =>
    [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]
  for (const { dtype, backend, sentences, ingestMs, contextMs, queryMs, coldStartMs } of result) {
    console.log(
      `${dtype} (${backend}): ingest ${sentences} sentences at ${(sentences / (ingestMs / 1000)).toFixed(1)}/s; ` +
        `buildContext p50/p95 ${percentile(contextMs, 0.5).toFixed(1)} / ${percentile(contextMs, 0.95).toFixed(1)} ms, ` +
        `of which the request's embedding ${percentile(queryMs, 0.5).toFixed(1)} / ${percentile(queryMs, 0.95).toFixed(1)} ms; ` +
        `cold start ${coldStartMs.map((ms) => ms.toFixed(0)).join(', ')} ms`,
    )
  }
} finally {
  await browser.close()
  await server.close()
}
