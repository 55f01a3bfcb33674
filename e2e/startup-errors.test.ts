// Errors that name the real cause, in Chromium through the demo page's test hook: a worker whose module cannot load
// reports the module's own error, and an app served without ONNX Runtime's files or without the model's folder is
// told so by createMemory, naming the option and the URL, before any of the model is downloaded. The faults are
// made with Playwright routes answering as a real server would (a 404, a dev server's HTML fallback, a module whose
// import is broken); Sift itself runs as built.
import type { BrowserContext, Route } from 'playwright-core'
import { afterEach, describe, expect, inject, test } from 'vitest'
import type { MemoryOptions } from '../src/types'
import { launchDemo, type DemoSession } from './launch-demo'

const baseUrl = inject('baseUrl')

/** What the page sees of a settled call: the rejection's code, name and message, or `resolved`. */
type Outcome = { code?: string; name?: string; message?: string } | 'resolved'

let session: DemoSession | undefined
afterEach(async () => {
  await session?.close()
  session = undefined
})

/** How `createMemory(options)` settles in the page; a memory that opens is closed again. */
function createMemoryOutcome(options: MemoryOptions): Promise<Outcome> {
  return session!.page.evaluate(async (options) => {
    try {
      const memory = await window.sift.createMemory(options)
      await memory.close()
      return 'resolved' as const
    } catch (error) {
      const { code, name, message } = error as { code?: string; name?: string; message?: string }
      return { code, name, message }
    }
  }, options)
}

/**
 * Serves `path`'s module with an import a browser refuses at link time, as a dev server does when a dependency it did
 * not pre-bundle has no default export (Dexie under `vite dev`, issue 12): `does not provide an export named 'default'`.
 */
async function breakModule(context: BrowserContext, path: RegExp): Promise<void> {
  await context.route('**/assets/sift-unbundled-dependency.js', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: 'export const Dependency = 1\n' }),
  )
  await context.route(path, (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: "import Dependency from './sift-unbundled-dependency.js'\nexport default Dependency\n",
    }),
  )
}

/** Answers every request under `pattern` as a static server without the files does. */
const notFound = (route: Route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' })

/** Answers as a dev server's single-page-app fallback does for a path it does not have: 200 and the app's page. */
const htmlFallback = (route: Route) =>
  route.fulfill({
    status: 200,
    contentType: 'text/html',
    body: '<!doctype html><html><body><div id="app"></div></body></html>',
  })

/** The model's weights, fetched by anything but a HEAD request: the download the checks must come before. */
function weightDownloads(): string[] {
  return session!.requestLog
    .filter(({ url, method }) => /\/models\/.*\.onnx$/.test(url) && method !== 'HEAD')
    .map(({ url }) => url)
}

describe('a worker whose module cannot load', () => {
  test("the engine's: createMemory rejects with WORKER_FAILED naming the module's own error, not a bare script error", async () => {
    session = await launchDemo({ baseUrl, webgpu: false })
    await breakModule(session.context, /\/assets\/exposed-engine-[^/]*\.js$/)
    const outcome = await createMemoryOutcome({ name: 'e2e-broken-engine', device: 'wasm' })
    expect(outcome).toMatchObject({ code: 'WORKER_FAILED', name: 'SiftError' })
    const { message } = outcome as { message: string }
    expect(message).toMatch(/SyntaxError: .*sift-unbundled-dependency\.js.* does not provide an export named 'default'/)
    expect(message).not.toContain('script error')
  })

  test("the model's: the memory opens and stores, and the embedding fails with MODEL_UNAVAILABLE naming the module's error", async () => {
    session = await launchDemo({ baseUrl, webgpu: false })
    await breakModule(session.context, /\/assets\/exposed-model-[^/]*\.js$/)
    const result = await session.page.evaluate(async () => {
      const memory = await window.sift.createMemory({ name: 'e2e-broken-model', device: 'wasm' })
      await memory.add({ role: 'user', content: 'The boiler was serviced in March.' })
      const indexed = await memory.indexed().then(
        (): Outcome => 'resolved',
        (error: { code?: string; message?: string }) => ({ code: error.code, message: error.message }),
      )
      const context = await memory.buildContext('boiler', { strategy: 'hybrid' })
      await memory.close()
      return { indexed, ranking: context.stats.ranking, text: context.text }
    })
    expect(result.indexed).toMatchObject({
      code: 'MODEL_UNAVAILABLE',
      message: expect.stringMatching(
        /worker failed to start \(SyntaxError: .*does not provide an export named 'default'/,
      ),
    })
    expect(result).toMatchObject({ ranking: 'lexical', text: expect.stringContaining('boiler was serviced') })
  })
})

describe("ONNX Runtime's files not served", () => {
  test('createMemory rejects with MODEL_UNAVAILABLE naming wasmPaths and the URL before the model download starts; requireModelFiles: false still stores', async () => {
    session = await launchDemo({ baseUrl, webgpu: false })
    await session.context.route('**/ort/**', notFound)
    const outcome = await createMemoryOutcome({ name: 'e2e-no-ort', device: 'wasm' })
    expect(outcome).toMatchObject({ code: 'MODEL_UNAVAILABLE', name: 'SiftError' })
    const { message } = outcome as { message: string }
    expect(message).toContain(`${baseUrl}/ort/ort-wasm-simd-threaded.wasm (HTTP 404)`)
    expect(message).toContain('`wasmPaths`')
    expect(message).toContain('requireModelFiles: false')
    expect(message).not.toContain('localModelPath')
    expect(message).not.toContain('convert-model')
    expect(weightDownloads()).toEqual([])

    // Opened anyway, the memory stores and ranks lexically, and the embedding reports the same cause, still without
    // downloading the model.
    const degraded = await session.page.evaluate(async () => {
      const memory = await window.sift.createMemory({ name: 'e2e-no-ort', device: 'wasm', requireModelFiles: false })
      await memory.add({ role: 'user', content: 'My sister is allergic to peanuts.' })
      const indexed = await memory.indexed().then(
        (): Outcome => 'resolved',
        (error: { code?: string; message?: string }) => ({ code: error.code, message: error.message }),
      )
      const context = await memory.buildContext('Who has a peanut allergy?', { strategy: 'hybrid' })
      const stats = await memory.stats()
      await memory.close()
      return {
        indexed,
        context: { text: context.text, ranking: context.stats.ranking },
        messages: stats.messages,
        lastFailure: stats.lastFailure,
      }
    })
    expect(degraded.indexed).toMatchObject({
      code: 'MODEL_UNAVAILABLE',
      message: expect.stringContaining(`${baseUrl}/ort/ort-wasm-simd-threaded.wasm (HTTP 404)`),
    })
    expect(degraded.context).toEqual({ text: expect.stringContaining('allergic to peanuts'), ranking: 'lexical' })
    expect(degraded.messages).toBe(1)
    expect(degraded.lastFailure).toMatchObject({
      code: 'MODEL_UNAVAILABLE',
      message: expect.stringContaining('`wasmPaths`'),
    })
    expect(weightDownloads()).toEqual([])
  })
})

describe("the model's folder not served", () => {
  test("a dev server's HTML fallback is named as such, with localModelPath and the URL tried", async () => {
    session = await launchDemo({ baseUrl, webgpu: false })
    await session.context.route('**/models/**', htmlFallback)
    const outcome = await createMemoryOutcome({ name: 'e2e-html-models', device: 'wasm' })
    expect(outcome).toMatchObject({ code: 'MODEL_UNAVAILABLE', name: 'SiftError' })
    const { message } = outcome as { message: string }
    expect(message).toContain(`${baseUrl}/models/use-lite/config.json (an HTML page instead of the file`)
    expect(message).toContain('`localModelPath`')
    expect(message).not.toContain('wasmPaths')
    expect(message).not.toContain("Unexpected token '<'")
    expect(weightDownloads()).toEqual([])
  })

  // A session of its own rather than swapping routes: a route removed while a terminated worker's request is still
  // routed can leave the next requests unanswered in Playwright.
  test('a folder that is not there is named with localModelPath and the URLs tried', async () => {
    session = await launchDemo({ baseUrl, webgpu: false })
    await session.context.route('**/models/**', notFound)
    const missing = await createMemoryOutcome({ name: 'e2e-no-models', device: 'wasm', model: 'use-lite' })
    expect(missing).toMatchObject({
      code: 'MODEL_UNAVAILABLE',
      message: expect.stringContaining(`${baseUrl}/models/use-lite/config.json (HTTP 404)`),
    })
    expect((missing as { message: string }).message).toMatch(/\/models\/use-lite\/onnx\/model\w*\.onnx \(HTTP 404\)/)
    expect(weightDownloads()).toEqual([])
  })
})
