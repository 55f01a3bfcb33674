// Faults of the workers, in Chromium through the demo page's test hook: the engine's worker or the model's worker
// ends mid-call (closed from inside, which sends the page no event, as a crash or the browser stopping it would),
// the page reloads mid-ingest and mid-forget, and an argument cannot be cloned to the worker.
import type { Page, Worker } from 'playwright-core'
import { afterEach, describe, expect, inject, test } from 'vitest'
import type { Memory, MessageInput } from '../src/types'
import { launchDemo, type DemoSession } from './launch-demo'

const baseUrl = inject('baseUrl')

/** Turns with distinct words, enough that embedding them keeps the backlog busy for a while on WASM. */
function turns(conversationId: string, count: number, from = 0): MessageInput[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${conversationId}-${from + i}`,
    conversationId,
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: `Note ${from + i} of ${conversationId}: the parcel number ${1000 + from + i} went to the ${['harbour', 'station', 'library', 'bakery'][i % 4]} office. Remember it for the delivery on day ${i % 28}.`,
  }))
}

/** Page globals the tests leave between `page.evaluate` calls. */
interface FaultPage {
  memory: Memory
  settled: Promise<{ code?: string; message?: string } | 'resolved'>
}

declare global {
  interface Window {
    faults: FaultPage
  }
}

/** The page's worker (or a worker's nested one) whose script URL matches, other than `not`, once it runs. */
async function workerLike(page: Page, pattern: RegExp, not?: Worker): Promise<Worker> {
  // Polled: Playwright lists nested workers in page.workers() without a page 'worker' event for them.
  const until = Date.now() + 30_000
  while (Date.now() < until) {
    const found = page.workers().find((worker) => pattern.test(worker.url()) && worker !== not)
    if (found) return found
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`No ${not ? 'new ' : ''}worker matching ${pattern} started within 30 s`)
}

/** Ends a worker from inside: nothing reaches the page, as with a crash. */
async function endFromInside(worker: Worker): Promise<void> {
  await worker.evaluate(() => (self as unknown as { close(): void }).close()).catch(() => undefined)
}

/** Message ids in the whole stored history, through the `full` strategy. */
function storedIds(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const context = await window.faults.memory.buildContext('everything', { strategy: 'full' })
    return [...new Set(context.items.map((item) => item.messageId))]
  })
}

let session: DemoSession | undefined
afterEach(async () => {
  await session?.close()
  session = undefined
})

describe("the engine's worker ends after open", () => {
  test('the call in flight rejects with WORKER_FAILED, the memory re-opens in a new worker, and later calls see the stored history', async () => {
    session = await launchDemo({ baseUrl, webgpu: false })
    const { page } = session
    const acknowledged = await page.evaluate(
      async (messages) => {
        const memory = await window.sift.createMemory({ name: 'e2e-engine-ends', device: 'wasm' })
        const ids = await memory.add(messages)
        window.faults = {
          memory,
          settled: memory.indexed().then(
            () => 'resolved' as const,
            (error: { code?: string; message?: string }) => ({ code: error.code, message: error.message }),
          ),
        }
        return ids
      },
      turns('engine', 60),
    )
    const first = await workerLike(page, /engine-worker/)
    await endFromInside(first)

    const inFlight = await page.evaluate(() => window.faults.settled)
    expect(inFlight).toMatchObject({
      code: 'WORKER_FAILED',
      message: expect.stringContaining('before indexed() finished'),
    })
    await workerLike(page, /engine-worker/, first)

    const after = await page.evaluate(
      async (more) => {
        const { memory } = window.faults
        const added = await memory.add(more)
        await memory.indexed()
        const stats = await memory.stats()
        const context = await memory.buildContext('Which office got the parcel?', { budget: 600 })
        return { added, stats, items: context.items.length }
      },
      turns('engine', 2, 60),
    )
    expect(after.added).toEqual(['engine-60', 'engine-61'])
    expect(after.stats).toMatchObject({ messages: 62, pending: 0, backend: 'wasm' })
    expect(after.items).toBeGreaterThan(0)
    expect(await storedIds(page)).toEqual(expect.arrayContaining([...acknowledged, ...after.added]))
    await page.evaluate(() => window.faults.memory.close())
  })
})

describe("the model's worker ends mid-session", () => {
  test('the embedding in flight fails as MODEL_UNAVAILABLE, and the next call starts a new model worker that embeds the rest', async () => {
    session = await launchDemo({ baseUrl, webgpu: false })
    const { page } = session
    await page.evaluate(
      async (messages) => {
        // Ended once it has embedded a chunk: the end of a worker that had not yet answered its start goes unnoticed.
        let embedding: () => void = () => undefined
        const firstBatch = new Promise<void>((resolve) => (embedding = resolve))
        const memory = await window.sift.createMemory({
          name: 'e2e-model-ends',
          device: 'wasm',
          onProgress: ({ done }) => done > 0 && embedding(),
        })
        await memory.add(messages)
        window.faults = {
          memory,
          settled: memory.indexed().then(
            () => 'resolved' as const,
            (error: { code?: string; message?: string }) => ({ code: error.code, message: error.message }),
          ),
        }
        await firstBatch
      },
      turns('model', 200),
    )
    const first = await workerLike(page, /model-worker/)
    await endFromInside(first)

    expect(await page.evaluate(() => window.faults.settled)).toMatchObject({
      code: 'MODEL_UNAVAILABLE',
      message: expect.stringContaining('worker stopped'),
    })
    await page.evaluate(() => window.faults.memory.indexed())
    await workerLike(page, /model-worker/, first)
    const after = await page.evaluate(async () => {
      const { memory } = window.faults
      const stats = await memory.stats()
      const context = await memory.buildContext('Which office got parcel 1042?', { strategy: 'dense', budget: 600 })
      await memory.close()
      return { stats, items: context.items.length }
    })
    expect(after.stats).toMatchObject({ messages: 200, pending: 0, backend: 'wasm' })
    expect(after.items).toBeGreaterThan(0)
  })
})

describe('a reload mid-ingest and mid-forget', () => {
  test('loses no acknowledged message, applies a forget whole or not at all, and the backlog resumes', async () => {
    session = await launchDemo({ baseUrl, webgpu: false })
    const { page } = session
    const batches = [0, 1, 2, 3].map((n) => turns(`late${n}`, 10))
    const acknowledged = await page.evaluate(
      async ({ kept, doomed, batches }) => {
        localStorage.clear()
        const memory = await window.sift.createMemory({ name: 'e2e-reload', device: 'wasm' })
        const ids = [...(await memory.add(kept)), ...(await memory.add(doomed))]
        // Not awaited: the page reloads while these run; each records its acknowledgement as it gets it.
        for (const batch of batches)
          void memory
            .add(batch)
            .then((added) => localStorage.setItem(`added ${batch[0].conversationId}`, JSON.stringify(added)))
        void memory
          .forget({ conversationId: 'doomed' })
          .then((removed) => localStorage.setItem('forgotten', String(removed)))
        return ids
      },
      { kept: turns('kept', 30), doomed: turns('doomed', 20), batches },
    )
    await page.reload()
    await page.waitForFunction(() => typeof window.sift?.createMemory === 'function')

    const reopened = await page.evaluate(async () => {
      const memory = await window.sift.createMemory({ name: 'e2e-reload', device: 'wasm' })
      window.faults = { memory, settled: Promise.resolve('resolved') }
      const acknowledgements = Object.fromEntries(
        Object.keys(localStorage).map((key) => [key, JSON.parse(localStorage.getItem(key)!) as unknown]),
      )
      return { before: await memory.stats(), acknowledgements }
    })
    const stored = new Set(await storedIds(page))
    const { acknowledgements } = reopened
    // The forget may have been applied without its answer reaching the page: its conversation is checked below.
    const mustBeStored = acknowledged.filter((id) => !id.startsWith('doomed'))
    for (const key of Object.keys(acknowledgements))
      if (key.startsWith('added ')) mustBeStored.push(...(acknowledgements[key] as string[]))
    expect(
      mustBeStored.filter((id) => !stored.has(id)),
      'acknowledged but lost',
    ).toEqual([])
    // Each add and the forget is one transaction: a batch is all there or not at all, and so is the forgotten conversation.
    for (const batch of [turns('doomed', 20), ...batches]) {
      const present = batch.filter((message) => stored.has(message.id!)).length
      expect([0, batch.length], `${batch[0].conversationId}: ${present} of ${batch.length} stored`).toContain(present)
    }
    if (acknowledgements.forgotten !== undefined)
      expect([...stored].filter((id) => id.startsWith('doomed'))).toEqual([])
    expect(reopened.before.messages).toBe(stored.size)

    const after = await page.evaluate(async () => {
      const { memory } = window.faults
      await memory.indexed()
      const stats = await memory.stats()
      await memory.close()
      return stats
    })
    expect(reopened.before.pending, 'the reload interrupted the embedding backlog').toBeGreaterThan(0)
    expect(after).toMatchObject({ messages: stored.size, pending: 0 })
  })
})

describe('an argument that cannot be cloned to the worker', () => {
  test('is INVALID_INPUT, not a DataCloneError, and nothing is stored', async () => {
    session = await launchDemo({ baseUrl, webgpu: false })
    const result = await session.page.evaluate(async () => {
      const memory = await window.sift.createMemory({ name: 'e2e-uncloneable', device: 'wasm' })
      const refusal = (error: { name?: string; code?: string; message?: string; cause?: { name?: string } }) => ({
        name: error.name,
        code: error.code,
        message: error.message,
        cause: error.cause?.name,
      })
      const inMessage = await memory
        .add({ role: 'user', content: 'hello', timestamp: (() => 0) as never })
        .then(() => undefined, refusal)
      const inOptions = await memory
        .buildContext('hello', { budget: (() => 100) as never })
        .then(() => undefined, refusal)
      const symbol = await memory
        .add([
          { role: 'user', content: 'fine' },
          { role: 'user', content: Symbol('no') as never },
        ])
        .then(() => undefined, refusal)
      const stats = await memory.stats()
      await memory.close()
      return { inMessage, inOptions, symbol, messages: stats.messages }
    })
    for (const refused of [result.inMessage, result.inOptions, result.symbol]) {
      expect(refused).toMatchObject({
        name: 'SiftError',
        code: 'INVALID_INPUT',
        message: expect.stringContaining('cannot be sent to the Sift worker'),
        cause: 'DataCloneError',
      })
    }
    expect(result.inMessage!.message).toContain('add()')
    expect(result.inOptions!.message).toContain('buildContext()')
    expect(result.messages).toBe(0)
  })

  test('nor are arguments that cannot be read (holes, throwing getters and Proxies, nesting past what postMessage takes), from the page running the engine or one following it', async () => {
    session = await launchDemo({ baseUrl, webgpu: false })
    const result = await session.page.evaluate(async () => {
      const name = 'e2e-unreadable'
      const throwing = (key: string, base: object = { role: 'user', content: 'x' }) =>
        Object.defineProperty({ ...base }, key, {
          get() {
            throw new Error(`the ${key} getter threw`)
          },
          enumerable: true,
        })
      let deep: unknown = 'bottom'
      for (let i = 0; i < 200_000; i++) deep = [deep]
      const sparse = [
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
      ]
      delete (sparse as unknown[])[0]
      const code = (call: () => Promise<unknown>) =>
        call().then(
          () => 'resolved',
          (error: { name?: string; code?: string }) => `${error.name} ${error.code}`,
        )
      const leader = await window.sift.createMemory({ name, device: 'wasm' })
      // A second memory of the same name in the same page follows the first over the tab channel.
      const follower = await window.sift.createMemory({ name, device: 'wasm' })
      const codes: Record<string, string> = {}
      for (const [who, memory] of [
        ['leader', leader],
        ['follower', follower],
      ] as const) {
        codes[`${who} add sparse`] = await code(() => memory.add(sparse))
        codes[`${who} add getter`] = await code(() => memory.add(throwing('content') as never))
        codes[`${who} add Proxy`] = await code(() => memory.add(new Proxy({ role: 'user', content: 'x' }, {})))
        codes[`${who} add deep`] = await code(() => memory.add({ role: 'user', content: 'x', deep } as never))
        codes[`${who} import getter`] = await code(() => memory.import([throwing('content')]))
        codes[`${who} import deep`] = await code(() => memory.import([deep]))
      }
      codes['createMemory getter'] = await code(() => window.sift.createMemory(throwing('name', {}) as never))
      const messages = (await leader.stats()).messages
      await follower.close()
      await leader.close()
      return { codes, messages }
    })
    for (const [call, code] of Object.entries(result.codes))
      expect({ call, code }).toEqual({
        call,
        code: `SiftError ${/import/.test(call) ? 'INVALID_IMPORT' : 'INVALID_INPUT'}`,
      })
    expect(result.messages).toBe(0)
  })
})

describe('the WebGPU device lost mid-session', () => {
  test('the model falls back to WASM and the engine continues, saying why', async () => {
    session = await launchDemo({ baseUrl, webgpu: true })
    const { page, browser } = session
    const before = await page.evaluate(
      async (messages) => {
        const memory = await window.sift.createMemory({ name: 'e2e-device-lost', device: 'webgpu' })
        window.faults = { memory, settled: Promise.resolve('resolved') }
        await memory.add(messages)
        await memory.indexed()
        return memory.stats()
      },
      turns('gpu', 2),
    )
    expect(before).toMatchObject({ backend: 'webgpu', pending: 0 })

    // A real loss: the GPU process (SwiftShader's WebGPU here) crashes, and every device it served is lost.
    const cdp = await browser.newBrowserCDPSession()
    await cdp.send('Browser.crashGpuProcess')
    const after = await page.evaluate(
      async (messages) => {
        const { memory } = window.faults
        await memory.add(messages)
        await memory.indexed()
        const stats = await memory.stats()
        const context = await memory.buildContext('Which office got parcel 1003?', { strategy: 'dense', budget: 600 })
        await memory.close()
        return { stats, items: context.items.length, backend: context.stats.backend }
      },
      turns('gpu', 2, 2),
    )
    expect(after.stats).toMatchObject({ messages: 4, pending: 0, backend: 'wasm' })
    expect(after.stats.backendReason).toMatch(/fell back to wasm after webgpu: device lost mid-session/)
    expect(after.backend).toBe('wasm')
    expect(after.items).toBeGreaterThan(0)
  })
})
