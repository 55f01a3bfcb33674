// The real browser API (through the demo page's test hook): ingest, index, build a context, persist across a reload,
// and never send a request off the page's origin. The WASM path runs in every engine (e2e/browsers/each-engine.ts),
// checked against the origin's own request log (e2e/origin-log.ts); the WebGPU path and the blocks after it run in
// Chromium only: WebGPU exists here only behind Chromium's --enable-unsafe-webgpu (a SwiftShader adapter), and the
// model worker's check reads the page's workers, which only Chromium's driver lists.
import { afterEach, describe, expect, inject, test } from 'vitest'
import { sampleSessions } from '../demo/sample-conversation'
import { describeEachEngine, enginesToRun } from './browsers/each-engine'
import type { PageSession } from './browsers/session'
import { foreignRequests, launchDemo, type DemoSession } from './launch-demo'
import { errorsSince, loggedSiteForFile, offendingRequests, requestedPaths, tabForBlock } from './origin-log'

const baseUrl = inject('baseUrl')
const site = loggedSiteForFile()
const request = 'Which vaccine booster does Biscuit need?'
// The sample's first sitting only: the WebGPU path embeds on SwiftShader, far slower than WASM (BENCHMARKS.md).
const history = sampleSessions[0]
const chromium = enginesToRun().some((engine) => engine.name === 'chromium')

/** What the flow needs of a page: a `PageSession`, or Chromium's playwright page as the Chromium-only tests adapt it. */
type DemoPage = Pick<PageSession, 'evaluate' | 'reload' | 'waitForFunction'>

/**
 * Adds the history, indexes it, builds contexts (one through hybrid's word-neighbour stand-ins), reloads and opens
 * the same memory again, checking each step; `requested()` is what the page asked the origin for (URLs or paths).
 */
async function addIndexReload(
  page: DemoPage,
  { name, device, backend, webgpu }: { name: string; device: string; backend: string; webgpu: boolean },
  requested: () => Promise<string[]>,
): Promise<void> {
  await page.waitForFunction(() => typeof window.sift?.createMemory === 'function', undefined, { timeout: 60_000 })
  // No engine here offers a WebGPU adapter but Chromium with its flag, so `device: 'auto'` picks WASM elsewhere.
  const hasAdapter = await page.evaluate(async () =>
    navigator.gpu ? (await navigator.gpu.requestAdapter()) !== null : false,
  )
  expect(hasAdapter).toBe(webgpu)

  const first = await page.evaluate(
    async ({ messages, request, device, name }) => {
      const memory = await window.sift.createMemory({ name, device: device as 'auto' })
      const ids = await memory.add(messages)
      await memory.indexed()
      const stats = await memory.stats()
      const context = await memory.buildContext(request, { budget: 400 })
      return { ids, stats, context }
    },
    { messages: history, request, device, name },
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
  const answerRanks = await page.evaluate(
    async ({ device, name }) => {
      const memory = await window.sift.createMemory({ name: `${name}-stand-ins`, device: device as 'auto' })
      await memory.add(
        [
          'I finally signed up for a pottery class at the community studio.',
          'The weather has been awful all week.',
          'We watched a documentary about octopuses.',
        ].map((content) => ({ role: 'user' as const, content })),
      )
      await memory.indexed()
      const context = await memory.buildContext('When did she enrol in ceramics lessons?', { budget: 2000 })
      await memory.close()
      return context.items.find((item) => item.text.includes('pottery'))?.ranks ?? null
    },
    { device, name },
  )
  expect(answerRanks?.lexical, 'the answer is a lexical hit through a stand-in').toBeDefined()
  const urls = await requested()
  expect(
    urls.some((url) => url.includes('/models/word-neighbours/en-20k.bin')),
    'the word-neighbour table was fetched',
  ).toBe(true)
  expect(
    urls.some((url) => url.includes('/models/use-lite/')),
    'the model download was recorded',
  ).toBe(true)
  expect(
    urls.some((url) => url.includes('/ort/') && url.endsWith('.wasm')),
    'the ORT wasm download was recorded',
  ).toBe(true)

  await page.reload()
  await page.waitForFunction(() => typeof window.sift?.createMemory === 'function', undefined, { timeout: 60_000 })
  const afterReload = await page.evaluate(
    async ({ request, device, name }) => {
      const memory = await window.sift.createMemory({ name, device: device as 'auto' })
      // The model loads again after the reload (contexts rank by words until it is there): the same memory, once ready.
      await memory.ready()
      const stats = await memory.stats()
      const context = await memory.buildContext(request, { budget: 400 })
      await memory.close()
      return { stats, context }
    },
    { request, device, name },
  )
  // The origin's storage usage is an estimate that moves with any write; the memory's own figures must not.
  expect({ ...afterReload.stats, storage: undefined }).toEqual({ ...first.stats, storage: undefined })
  expect(afterReload.context.text).toContain('rabies booster')
}

describeEachEngine('on the WASM path', (run) => {
  const tab = tabForBlock(run)
  test('adds, indexes and builds a context; the history survives a reload; the origin received only reads of its own files, none with a body; no policy violation, no console error', async () => {
    const mark = site.mark()
    const page = tab()
    const earlier = (await page.errors()).length
    await page.goto(`${site.url}/?open=0`)
    const name = `e2e-${Date.now()}`
    await addIndexReload(page, { name, device: 'auto', backend: 'wasm', webgpu: false }, async () =>
      requestedPaths(await site.since(mark)),
    )
    expect(offendingRequests(await site.since(mark))).toEqual([])
    expect(await errorsSince(page, earlier)).toEqual([])
  })
})

// From Chromium's own request events too: requests to any host, which only its driver reports (the origin's log above
// sees its own); and the WebGPU path, which only Chromium offers here.
for (const { title, webgpu, device, backend } of [
  {
    title: "on the WASM path, from Chromium's request events (Chromium only: no other driver here reports them)",
    webgpu: false,
    device: 'auto',
    backend: 'wasm',
  },
  {
    title:
      "on the WebGPU (SwiftShader) path (Chromium only: WebGPU exists here only behind Chromium's --enable-unsafe-webgpu)",
    webgpu: true,
    device: 'webgpu',
    backend: 'webgpu',
  },
] as const) {
  describe.runIf(chromium)(title, () => {
    let session: DemoSession | undefined
    afterEach(async () => {
      await session?.close()
      session = undefined
    })

    test('adds, indexes and builds a context; the history survives a reload; no request leaves the origin', async () => {
      session = await launchDemo({ baseUrl, webgpu })
      const { page, requests } = session
      const demoPage: DemoPage = {
        evaluate: <R, A>(fn: (arg: A) => R | Promise<R>, arg?: A) =>
          page.evaluate(fn as (arg: unknown) => R | Promise<R>, arg as unknown),
        reload: async () => {
          await page.reload()
        },
        waitForFunction: async (fn, arg, options) => {
          await page.waitForFunction(fn as (arg: unknown) => unknown, arg, { timeout: options?.timeout })
        },
      }
      await addIndexReload(demoPage, { name: 'e2e', device, backend, webgpu }, async () => [...requests])
      expect(foreignRequests(requests, baseUrl)).toEqual([])
      expect(session.policyViolations).toEqual([])
    })
  })
}

describe.runIf(chromium)(
  'the embedding model in a worker of its own (Chromium only: its driver lists the workers)',
  () => {
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
  },
)

describe.runIf(chromium)(
  "device: 'auto' with only a software WebGPU adapter (Chromium only, behind its WebGPU flag)",
  () => {
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
  },
)
