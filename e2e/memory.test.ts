// The real browser API (through the demo page's test hook) on both backends: ingest, index, build a context,
// persist across a reload, and never send a request off the page's origin.
import { afterEach, describe, expect, inject, test } from 'vitest'
import { sampleSessions } from '../demo/sample-conversation'
import { foreignRequests, launchDemo, type DemoSession } from './launch-demo'

const baseUrl = inject('baseUrl')
const request = 'Which vaccine booster does Biscuit need?'
// The sample's first sitting only: the WebGPU path embeds on SwiftShader, far slower than WASM (BENCHMARKS.md).
const history = sampleSessions[0]

describe.each([
  { path: 'WASM', webgpu: false, device: 'auto', backend: 'wasm' },
  { path: 'WebGPU (SwiftShader)', webgpu: true, device: 'webgpu', backend: 'webgpu' },
] as const)('on the $path path', ({ webgpu, device, backend }) => {
  let session: DemoSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  test('adds, indexes and builds a context; the history survives a reload; no request leaves the origin', async () => {
    session = await launchDemo({ baseUrl, webgpu })
    const { page, requests } = session

    const hasAdapter = await page.evaluate(async () =>
      navigator.gpu ? (await navigator.gpu.requestAdapter()) !== null : false,
    )
    expect(hasAdapter).toBe(webgpu)

    const first = await page.evaluate(
      async ({ messages, request, device }) => {
        const memory = await window.sift.createMemory({ name: 'e2e', device })
        const ids = await memory.add(messages)
        await memory.indexed()
        const stats = await memory.stats()
        const context = await memory.buildContext(request, { budget: 400 })
        return { ids, stats, context }
      },
      { messages: history, request, device },
    )
    expect(first.ids).toHaveLength(history.length)
    expect(first.stats).toMatchObject({ messages: history.length, pending: 0, backend })
    expect(first.stats.sentences).toBeGreaterThanOrEqual(history.length)
    expect(first.context.stats.backend).toBe(backend)
    expect(first.context.stats.used).toBeLessThanOrEqual(400)
    expect(first.context.stats.used).toBe(first.context.text.length)
    expect(first.context.items.length).toBeGreaterThan(0)
    expect(first.context.text).toContain('rabies booster')

    // hybrid's stand-ins in the browser: the word-neighbour table is fetched from the page's origin, and a request worded
    // unlike its answer ("enrol in ceramics" for "signed up for a pottery class") finds it lexically too.
    const answerRanks = await page.evaluate(async (device) => {
      const memory = await window.sift.createMemory({ name: 'e2e-stand-ins', device })
      await memory.add(
        [
          'I finally signed up for a pottery class at the community studio.',
          'The weather has been awful all week.',
          'We watched a documentary about octopuses.',
        ].map((content) => ({ role: 'user', content })),
      )
      await memory.indexed()
      const context = await memory.buildContext('When did she enrol in ceramics lessons?', { budget: 2000 })
      await memory.close()
      return context.items.find((item) => item.text.includes('pottery'))?.ranks
    }, device)
    expect(answerRanks?.lexical, 'the answer is a lexical hit through a stand-in').toBeDefined()
    expect(
      requests.some((url) => url.includes('/models/word-neighbours/en-20k.bin')),
      'the word-neighbour table was fetched',
    ).toBe(true)

    expect(
      requests.some((url) => url.includes('/models/use-lite/')),
      'the model download was recorded',
    ).toBe(true)
    expect(
      requests.some((url) => url.includes('/ort/') && url.endsWith('.wasm')),
      'the ORT wasm download was recorded',
    ).toBe(true)
    expect(foreignRequests(requests, baseUrl)).toEqual([])

    await page.reload()
    await page.waitForFunction(() => typeof window.sift?.createMemory === 'function')
    const afterReload = await page.evaluate(
      async ({ request, device }) => {
        const memory = await window.sift.createMemory({ name: 'e2e', device })
        // The model loads again after the reload (contexts rank by words until it is there): the same memory, once ready.
        await memory.ready()
        const stats = await memory.stats()
        const context = await memory.buildContext(request, { budget: 400 })
        await memory.close()
        return { stats, context }
      },
      { request, device },
    )
    // The origin's storage usage is an estimate that moves with any write; the memory's own figures must not.
    expect({ ...afterReload.stats, storage: undefined }).toEqual({ ...first.stats, storage: undefined })
    expect(afterReload.context.text).toContain('rabies booster')
    expect(foreignRequests(requests, baseUrl)).toEqual([])
  })
})

describe('the embedding model in a worker of its own', () => {
  test('runs beside the engine worker, and a model that cannot load is MODEL_UNAVAILABLE across both workers while lexical ranking works', async () => {
    const session = await launchDemo({ baseUrl, webgpu: false })
    try {
      const result = await session.page.evaluate(async () => {
        // requireModelFiles: false opens it although the model's files are not served (createMemory would reject).
        const memory = await window.sift.createMemory({
          name: 'e2e-missing-model',
          model: 'no-such-model',
          device: 'wasm',
          strictRanking: true,
          requireModelFiles: false,
        })
        await memory.add({ role: 'user', content: 'The boiler was serviced in March.' })
        const dense = await memory.buildContext('boiler', { strategy: 'dense' }).then(
          (): { code?: string; name?: string; message?: string } => ({ code: 'resolved' }),
          (error: { code?: string; name?: string; message?: string }) => ({
            code: error.code,
            name: error.name,
            message: error.message,
          }),
        )
        const lexical = await memory.buildContext('boiler', { strategy: 'lexical' })
        ;(window as unknown as { openMemory: unknown }).openMemory = memory
        return { dense, lexicalText: lexical.text }
      })
      const workerUrls = session.page.workers().map((w) => w.url())
      await session.page.evaluate(() =>
        (window as unknown as { openMemory: { close(): Promise<void> } }).openMemory.close(),
      )
      expect(result.dense).toMatchObject({ code: 'MODEL_UNAVAILABLE', name: 'SiftError' })
      expect(result.dense.message).toContain('no-such-model')
      expect(result.lexicalText).toContain('boiler was serviced')
      expect(
        workerUrls.some((url) => /model-worker/.test(url)),
        `workers: ${workerUrls.join(', ')}`,
      ).toBe(true)
    } finally {
      await session.close()
    }
  })
})

describe("device: 'auto' with only a software WebGPU adapter", () => {
  test('picks WASM and says why', async () => {
    const session = await launchDemo({ baseUrl, webgpu: true })
    try {
      const stats = await session.page.evaluate(async () => {
        const memory = await window.sift.createMemory({ name: 'e2e-auto', device: 'auto' })
        await memory.add({ role: 'user', content: 'Which backend embeds this sentence?' })
        await memory.indexed()
        const stats = await memory.stats()
        await memory.close()
        return stats
      })
      expect(stats.backend).toBe('wasm')
      expect(stats.backendReason).toMatch(/software fallback \(google swiftshader/)
    } finally {
      await session.close()
    }
  })
})
