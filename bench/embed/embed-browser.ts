// Embedding throughput in headless Chromium through the real worker (`add` + `indexed()`), once without and once
// with the WebGPU flag (SwiftShader when the machine has no GPU), with `device: 'auto'` unless told otherwise:
//   npx tsx bench/embed/embed-browser.ts [--sentences N] [--dtype fp32|q8] [--device auto|wasm|webgpu] [--no-build]
// The model is loaded by a one-sentence warm-up first, so the figure is steady-state sentences per second.
import { parseArgs } from 'node:util'
import { buildDemo, demoOutDir } from '../../scripts/demo-build'
import { launchChromium } from '../../scripts/launch-chromium'
import { startStaticServer } from '../../scripts/static-server'
import type { Device, MessageInput } from '../../src/types'
import '../../demo/test-hook'

const { values } = parseArgs({
  options: {
    sentences: { type: 'string', default: '256' },
    dtype: { type: 'string', default: 'fp32' },
    device: { type: 'string', default: 'auto' },
    'no-build': { type: 'boolean', default: false },
  },
})
const count = Number(values.sentences)
if (!Number.isInteger(count) || count < 1) {
  console.error(`bench-embed-browser: --sentences must be a positive integer, got ${values.sentences}`)
  process.exit(1)
}
const dtype = values.dtype as 'fp32' | 'q8'
const device = values.device as Device
if (!['fp32', 'q8'].includes(dtype) || !['auto', 'wasm', 'webgpu'].includes(device)) {
  console.error(`bench-embed-browser: --dtype must be fp32 or q8 and --device auto, wasm or webgpu`)
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
    return await page.evaluate(
      async ({ messages, dtype, device }) => {
        const memory = await window.sift.createMemory({ name: 'bench-embed', device, embedding: { dtype } })
        await memory.add({ role: 'user', content: 'Warm-up sentence that loads the model.' })
        await memory.indexed()
        const before = (await memory.stats()).sentences
        const start = performance.now()
        await memory.add(messages)
        await memory.indexed()
        const seconds = (performance.now() - start) / 1000
        const stats = await memory.stats()
        await memory.close()
        return {
          backend: stats.backend,
          reason: stats.backendReason,
          sentences: stats.sentences - before,
          seconds,
          isolated: self.crossOriginIsolated,
          cores: navigator.hardwareConcurrency,
        }
      },
      { messages: syntheticMessages(count), dtype, device },
    )
  } finally {
    await browser.close()
  }
}

if (!values['no-build']) await buildDemo()
const server = await startStaticServer({ root: demoOutDir, port: 0 })
try {
  for (const webgpu of [false, true]) {
    const { backend, reason, sentences, seconds, isolated, cores } = await measure(server.url, webgpu)
    const rate = (sentences / seconds).toFixed(1)
    console.log(
      `${webgpu ? 'WebGPU flag' : 'no flag    '} ${dtype} backend=${backend}: ${sentences} sentences in ${seconds.toFixed(2)} s = ${rate} sentences/s (${reason}; crossOriginIsolated=${isolated}, ${cores} cores)`,
    )
  }
} finally {
  await server.close()
}
