// A first visit does not wait for the model: while its weights are still downloading (held here by a Playwright
// route, as a slow connection would hold them), hybrid contexts are ranked by their words at once and say so,
// `memory.ready()` and `stats().modelState` tell when the model is there, and `strictRanking` keeps the wait. The
// model-file check at open leaves no request that the browser lists as failed.
import { afterEach, describe, expect, inject, test } from 'vitest'
import type { Context, Memory, MemoryStats } from '../src/types'
import { launchDemo, type DemoSession } from './launch-demo'

const baseUrl = inject('baseUrl')

declare global {
  interface Window {
    readiness: {
      memory: Memory
      strict?: Memory
      ready: Promise<string>
      strictContext?: Promise<string>
    }
  }
}

const HISTORY = [
  { role: 'user', content: 'My sister Ines lives in Porto and works as a nurse.' },
  { role: 'assistant', content: 'Porto is a lovely city.' },
  { role: 'user', content: 'I am allergic to peanuts, so I check every label.' },
]

let session: DemoSession | undefined
afterEach(async () => {
  await session?.close()
  session = undefined
})

/** Whether `promise` (an expression over `window.readiness`) has settled in the page, without waiting for it. */
function settled(expression: 'ready' | 'strictContext'): Promise<boolean> {
  return session!.page.evaluate(
    (key) =>
      Promise.race([window.readiness[key]!.then(() => true), new Promise<boolean>((r) => setTimeout(r, 0, false))]),
    expression,
  )
}

describe('the model still loading', () => {
  test('contexts come at once, ranked by words; ready() and modelState say when the model is there; strictRanking waits', async () => {
    session = await launchDemo({ baseUrl, webgpu: false })
    const failed: string[] = []
    session.context.on('requestfailed', (request) =>
      failed.push(`${request.method()} ${request.url()} ${request.failure()?.errorText}`),
    )
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let heldRequests = 0
    await session.context.route('**/models/use-lite/onnx/model_quantized.onnx', async (route) => {
      if (route.request().method() === 'GET') {
        heldRequests++
        await held
      }
      await route.continue()
    })

    const loading = await session.page.evaluate(async (history) => {
      const memory = await window.sift.createMemory({ name: 'e2e-readiness' })
      window.readiness = { memory, ready: memory.ready().then(() => 'ready') }
      let started = performance.now()
      const empty = await memory.buildContext('Hello!')
      const emptyMs = performance.now() - started
      await memory.add(history)
      started = performance.now()
      const context = await memory.buildContext('What am I allergic to?', { budget: 400 })
      const contextMs = performance.now() - started
      const stats = await memory.stats()
      const strict = await window.sift.createMemory({ name: 'e2e-readiness-strict', strictRanking: true })
      await strict.add(history)
      window.readiness.strict = strict
      window.readiness.strictContext = strict.buildContext('What am I allergic to?').then((c) => c.stats.ranking)
      return { empty, emptyMs, context, contextMs, stats }
    }, HISTORY)
    // An empty history has nothing to rank: its context is hybrid, at once.
    expect(loading.empty.stats).toMatchObject({ strategy: 'hybrid', ranking: 'hybrid', historySentences: 0 })
    expect(loading.empty.stats).not.toHaveProperty('degraded')
    expect(loading.context.text).toContain('allergic to peanuts')
    expect(loading.context.stats).toMatchObject({
      strategy: 'hybrid',
      ranking: 'lexical',
      degraded: expect.stringContaining('still loading'),
    })
    expect(loading.stats.modelState).toBe('loading')
    console.log(
      `[readiness] model held: empty-history context ${loading.emptyMs.toFixed(0)} ms, a context of 3 turns ${loading.contextMs.toFixed(0)} ms`,
    )
    // Neither ready() nor the strict memory's context settles while the weights are held.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(heldRequests).toBe(2)
    expect(await settled('ready')).toBe(false)
    expect(await settled('strictContext')).toBe(false)

    release()
    const after = await session.page.evaluate(async () => {
      const { memory, strict, ready, strictContext } = window.readiness
      const outcome = { ready: await ready, strictRanking: await strictContext! }
      const stats: MemoryStats = await memory.stats()
      const context: Context = await memory.buildContext('What am I allergic to?', { budget: 400 })
      await memory.close()
      await strict!.close()
      return { ...outcome, modelState: stats.modelState, context }
    })
    expect(after).toMatchObject({ ready: 'ready', strictRanking: 'hybrid', modelState: 'ready' })
    expect(after.context.stats.ranking).toBe('hybrid')
    expect(after.context.stats).not.toHaveProperty('degraded')
    expect(after.context.text).toContain('allergic to peanuts')
    // The model-file check's HEAD requests and the held downloads all finished.
    expect(failed).toEqual([])
  })
})
