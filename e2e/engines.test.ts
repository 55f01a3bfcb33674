// The core flow in every engine this machine has: Chromium, Firefox ESR, WebKit as Safari ships it (the Storage API
// and SharedArrayBuffer on) and WebKit with WebKitGTK's defaults (neither). The demo opens with no console error
// (the in-page hook's record, served first in the page: e2e/browsers/page-hook.ts), the model loads on WASM, a
// message is added, a context comes back, a reload keeps the history; through the API, stats() says what the engine
// offers (storage, threads) and `persist: true` never holds createMemory up. An engine whose binaries are missing is
// skipped, its reason in the test's name (e2e/browsers/each-engine.ts).
import { beforeAll, expect, inject, test } from 'vitest'
import type { MemoryStats } from '../src/types'
import { describeEachEngine } from './browsers/each-engine'
import { launchFirefox } from './browsers/engines'
import { provokePath } from './browsers/page-hook'
import type { PageSession } from './browsers/session'

const baseUrl = inject('hookedBaseUrl')
const passport = 'I keep my passport in the blue drawer of the hallway cabinet.'

describeEachEngine('the demo and the API', (run) => {
  const engine = run.engine
  let page: PageSession
  const name = `e2e-engines-${engine.name}-${Date.now()}`

  beforeAll(async () => {
    page = await run.browser().newPage()
    console.log(`[engines] ${engine.name}: ${run.browser().version}`)
  })

  test('the demo: no console error, the model on WASM, a message added, a context, the history kept across a reload', async () => {
    const started = performance.now()
    await page.goto(`${baseUrl}/?name=${name}`)
    await waitFor(page, 'the demo open', 120_000, () => document.body.dataset.ready === 'true')
    const opened = performance.now()

    await page.fill('#content', passport)
    await page.click('#add')
    await waitFor(page, 'one message, all indexed', 180_000, () => {
      const progress = document.getElementById('progress-text')?.textContent ?? ''
      const status = document.getElementById('status')?.textContent ?? ''
      return progress.startsWith('all indexed') && status.startsWith('1 messages')
    })
    const indexed = performance.now()
    expect(await page.textContent('#status')).toContain('backend wasm')

    await page.fill('#request', 'Where did I put my passport?')
    await waitFor(page, 'a context with the message', 60_000, () => {
      const context = document.getElementById('context')?.textContent ?? ''
      return document.body.dataset.context === 'ready' && context.includes('blue drawer')
    })
    const contextShown = performance.now()

    await page.reload()
    await waitFor(page, 'the demo open after a reload', 120_000, () => document.body.dataset.ready === 'true')
    expect(await page.textContent('#history')).toContain('blue drawer')
    expect(await page.errors()).toEqual([])
    console.log(
      `[engines] ${engine.name} demo: opened ${ms(started, opened)}, message embedded ${ms(opened, indexed)}, ` +
        `context ${ms(indexed, contextShown)}, reload ${ms(contextShown)}; whole flow ${ms(started)}`,
    )
  })

  test('the API: stats() says what the engine offers (storage, threads); persist: true never holds createMemory up', async () => {
    await page.goto(`${baseUrl}/?open=0`)
    await page.waitForFunction(() => typeof window.sift?.createMemory === 'function', undefined, { timeout: 60_000 })
    const result = await page.evaluate(async (name) => {
      const started = performance.now()
      const memory = await window.sift.createMemory({ name, device: 'wasm', persist: true })
      const openMs = performance.now() - started
      await memory.add({ role: 'user', content: 'The garden shed needs a new roof before the winter.' })
      await memory.indexed()
      const context = await memory.buildContext('What needs fixing in the garden?')
      const stats = await memory.stats()
      await memory.close()
      return {
        openMs,
        context: context.text,
        stats,
        page: {
          storage: 'storage' in navigator,
          isolated: crossOriginIsolated,
          sharedArrayBuffer: typeof SharedArrayBuffer === 'function',
        },
      }
    }, `${name}-api`)
    const { storage, wasmThreads, backend, modelState } = result.stats as MemoryStats
    console.log(
      `[engines] ${engine.name} page offers ${JSON.stringify(result.page)}; stats ${JSON.stringify({ storage, wasmThreads })}`,
    )
    expect(result.context).toContain('garden shed')
    expect({ backend, modelState }).toEqual({ backend: 'wasm', modelState: 'ready' })
    expect(result.openMs).toBeLessThan(60_000)
    if (result.page.storage) {
      expect(storage).toMatchObject({ usage: expect.any(Number), quota: expect.any(Number) })
      expect(typeof storage?.persisted).toBe('boolean')
    } else {
      expect(storage).toEqual({ persisted: 'unknown' })
    }
    if (result.page.isolated && result.page.sharedArrayBuffer) {
      expect(wasmThreads?.reason).not.toMatch(/^one thread/)
    } else {
      expect(wasmThreads).toEqual({ count: 1, reason: expect.stringMatching(/^one thread/) })
    }
    // What each profile is for: WebKitGTK's defaults have neither the Storage API nor SharedArrayBuffer.
    if (engine.name === 'webkit-nostorage') {
      expect(result.page).toEqual({ storage: false, isolated: true, sharedArrayBuffer: false })
    } else {
      expect(result.page).toEqual({ storage: true, isolated: true, sharedArrayBuffer: true })
    }
    // Firefox's storage prompt is answered "allow" by the testing prefs the driver sets.
    if (engine.name === 'firefox') expect(storage?.persisted).toBe(true)
    expect(await page.errors()).toEqual([])
  })

  test.runIf(engine.name === 'firefox')(
    "Firefox's storage prompt left unanswered: persist() never settles, and createMemory({ persist: true }) still opens within a bounded wait",
    async () => {
      const unanswered = await launchFirefox({ storagePrompt: 'unanswered' })
      try {
        const tab = await unanswered.newPage()
        await tab.goto(`${baseUrl}/?open=0`)
        await tab.waitForFunction(() => typeof window.sift?.createMemory === 'function')
        const result = await tab.evaluate(async (name) => {
          const timer = (ms: number) =>
            new Promise<'no answer'>((resolve) => setTimeout(() => resolve('no answer'), ms))
          const answer = await Promise.race([navigator.storage.persist(), timer(5_000)])
          let started = performance.now()
          const plain = await window.sift.createMemory({ name, device: 'wasm' })
          await plain.close()
          const plainMs = performance.now() - started
          started = performance.now()
          const asking = await Promise.race([
            window.sift.createMemory({ name, device: 'wasm', persist: true }),
            timer(30_000),
          ])
          const askingMs = performance.now() - started
          if (asking === 'no answer') return { answer, plainMs, askingMs, persisted: 'createMemory hung' }
          const { storage } = await asking.stats()
          await asking.close()
          return { answer, plainMs, askingMs, persisted: storage?.persisted }
        }, `${name}-unanswered`)
        console.log(`[engines] firefox, prompt unanswered: ${JSON.stringify(result)}`)
        expect(result.answer).toBe('no answer')
        expect(result.persisted).toBe(false)
        // The open of a memory whose model files are cached, plus at most the 3 s wait (with room for a busy machine).
        expect(result.askingMs).toBeLessThan(result.plainMs + 10_000)
        expect(await tab.errors()).toEqual([])
      } finally {
        await unanswered.close()
      }
    },
  )

  test('a database deleted behind the memory (as an eviction does, localStorage left) is reported by the next open in stats().storage.evicted', async () => {
    await page.goto(`${baseUrl}/?open=0`)
    await page.waitForFunction(() => typeof window.sift?.createMemory === 'function')
    const seen = await page.evaluate(async (name) => {
      const open = async () => {
        const memory = await window.sift.createMemory({ name, device: 'wasm' })
        const { storage, messages } = await memory.stats()
        return { memory, evicted: storage?.evicted ?? 'absent', messages }
      }
      const first = await open()
      await first.memory.add({ role: 'user', content: 'The spare key is under the third flowerpot.' })
      await first.memory.close()
      const second = await open()
      await second.memory.close()
      await new Promise<void>((resolve, reject) => {
        const request = indexedDB.deleteDatabase(name)
        request.onsuccess = () => resolve()
        request.onerror = () => reject(request.error)
        request.onblocked = () => reject(new Error('deleteDatabase blocked: a connection is still open'))
      })
      const third = await open()
      await third.memory.close()
      const fourth = await open()
      await fourth.memory.close()
      return [first, second, third, fourth].map(({ evicted, messages }) => ({ evicted, messages }))
    }, `${name}-evicted`)
    expect(seen).toEqual([
      { evicted: 'absent', messages: 0 },
      { evicted: false, messages: 1 },
      { evicted: true, messages: 0 },
      { evicted: false, messages: 0 },
    ])
    expect(await page.errors()).toEqual([])
  })

  test('the error record the demo is checked against sees a console error, an uncaught error and a rejection (in a new tab)', async () => {
    const tab = await run.browser().newPage()
    await tab.goto(`${baseUrl}/?open=0`)
    // Raised by a script of the page (provokePath), as the page's own errors are.
    await tab.evaluate(async (src) => {
      const script = document.createElement('script')
      script.src = src
      await new Promise((resolve) => {
        script.onload = resolve
        document.head.append(script)
      })
      await new Promise((resolve) => setTimeout(resolve, 100))
    }, provokePath)
    const errors = await tab.errors()
    expect(errors).toContain('a console error')
    expect(errors.join('\n')).toMatch(/uncaught.*an uncaught error/)
    expect(errors.join('\n')).toMatch(/unhandled rejection.*a rejection/)
    // Kept across a reload.
    await tab.reload()
    expect(await tab.errors()).toContain('a console error')
    await tab.close()
    expect(await page.errors()).toEqual([])
  })
})

/** Waits for `fn` to be true in the page; on a timeout, says what the page's status lines showed instead. */
async function waitFor(page: PageSession, what: string, timeout: number, fn: () => boolean): Promise<void> {
  try {
    await page.waitForFunction(fn, undefined, { timeout })
  } catch (error) {
    const shown = await page.evaluate(() => [
      `document ${document.readyState}`,
      ...['progress-text', 'status', 'load-status'].map((id) => `${id}: ${document.getElementById(id)?.textContent}`),
    ])
    const errors = await page.errors()
    throw new Error(
      `waiting for ${what}; the page shows ${shown.join(' | ')}; errors: ${errors.join(' | ') || 'none'}`,
      {
        cause: error,
      },
    )
  }
}

function ms(from: number, to = performance.now()): string {
  return `${((to - from) / 1000).toFixed(1)} s`
}
