// Embedding throughput in headless Chromium, on the WASM path and on the WebGPU path (SwiftShader when the
// machine has no GPU): `npx tsx scripts/bench-embed-browser.ts [--sentences N] [--no-build]`.
// The model is loaded by a one-sentence warm-up first, so the figure is steady-state sentences per second.
import { parseArgs } from 'node:util'
import { buildDemo, demoOutDir } from './demo-build'
import { launchChromium } from './launch-chromium'
import { startStaticServer } from './static-server'
import type { MessageInput } from '../src/types'
import '../demo/test-hook'

const { values } = parseArgs({
  options: { sentences: { type: 'string', default: '256' }, 'no-build': { type: 'boolean', default: false } },
})
const count = Number(values.sentences)
if (!Number.isInteger(count) || count < 1) {
  console.error(`bench-embed-browser: --sentences must be a positive integer, got ${values.sentences}`)
  process.exit(1)
}

const subjects = ['My neighbour', 'The old captain', 'A quiet student', 'Her grandmother', 'Our new manager', 'The baker', 'His cousin', 'That tourist']
const actions = ['painted', 'repaired', 'forgot', 'sold', 'photographed', 'described', 'borrowed', 'cleaned']
const objects = ['a red bicycle', 'the kitchen window', 'three wooden chairs', 'an antique clock', 'the garden fence', 'a broken laptop', 'two paper lanterns', 'the blue boat']
const places = ['near the harbour', 'before breakfast', 'in the rain', 'after the concert', 'at the market', 'during the holidays', 'behind the station', 'on Sunday']

/** Distinct one-sentence messages, so every message is exactly one sentence to embed. */
function syntheticMessages(n: number): MessageInput[] {
  return Array.from({ length: n }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: `${subjects[i % 8]} ${actions[Math.floor(i / 8) % 8]} ${objects[Math.floor(i / 64) % 8]} ${places[Math.floor(i / 512) % 8]} (note ${i}).`,
  }))
}

async function measure(url: string, webgpu: boolean) {
  const browser = await launchChromium({ webgpu })
  try {
    const page = await browser.newPage()
    await page.goto(`${url}/?open=0`)
    await page.waitForFunction(() => typeof window.sift?.createMemory === 'function')
    return await page.evaluate(async (messages) => {
      const memory = await window.sift.createMemory({ name: 'bench-embed', device: 'auto' })
      await memory.add({ role: 'user', content: 'Warm-up sentence that loads the model.' })
      await memory.indexed()
      const before = (await memory.stats()).sentences
      const start = performance.now()
      await memory.add(messages)
      await memory.indexed()
      const seconds = (performance.now() - start) / 1000
      const stats = await memory.stats()
      await memory.close()
      return { backend: stats.backend, sentences: stats.sentences - before, seconds }
    }, syntheticMessages(count))
  } finally {
    await browser.close()
  }
}

if (!values['no-build']) await buildDemo()
const server = await startStaticServer({ root: demoOutDir, port: 0 })
try {
  for (const webgpu of [false, true]) {
    const { backend, sentences, seconds } = await measure(server.url, webgpu)
    console.log(`${webgpu ? 'WebGPU flag' : 'no flag    '} backend=${backend}: ${sentences} sentences in ${seconds.toFixed(2)} s = ${(sentences / seconds).toFixed(1)} sentences/s`)
  }
} finally {
  await server.close()
}
