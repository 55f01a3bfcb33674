// What Sift promises about the page, in every engine (Chromium, Firefox ESR, WebKit as Safari ships it and with
// WebKitGTK's defaults) under the demo's strict Content-Security-Policy: no request carries history anywhere (the
// origin's own log shows only reads of its static files, none with a body; the policy refuses every other host and
// the page records any refusal: e2e/origin-log.ts), and stored text is shown as text. Chromium's driver also reports
// every request the browser makes and its workers' console, so there the same promises are checked from the browser's
// side too (other hosts included, the workers' policy violations included).
import { describe, expect, inject, test } from 'vitest'
import { demoOutDir } from '../scripts/demo-build'
import { CONTENT_SECURITY_POLICY } from '../scripts/static-server'
import type { MessageInput } from '../src/types'
import { describeEachEngine, enginesToRun } from './browsers/each-engine'
import type { PageSession } from './browsers/session'
import { foreignRequests, launchDemo } from './launch-demo'
import {
  errorsSince,
  loggedServer,
  loggedSiteForFile,
  offendingRequests,
  requestedPaths,
  tabForBlock,
} from './origin-log'

const site = loggedSiteForFile()

/** Words that appear only in the history below, so a request that carried any of it would show them. */
const distinctive = ['Quillfeather', 'marzipan', 'Vantablack', 'zeppelin', 'Okonkwo', 'saxifrage']

const history: MessageInput[] = [
  { id: 'p1', role: 'user', content: 'My neighbour Okonkwo flies a zeppelin on Sundays.' },
  { id: 'p2', role: 'assistant', content: 'A zeppelin is a rare hobby. Does Okonkwo take passengers?' },
  { id: 'p3', role: 'user', content: 'Only his cat Quillfeather, who hates marzipan.' },
  { id: 'p4', role: 'user', content: 'I painted the shed Vantablack and planted saxifrage by the door.' },
]

/** Every call that touches the history, in the page (sent as source text: it sees only its argument). */
async function everyCall({ history, name }: { history: MessageInput[]; name: string }) {
  const memory = await window.sift.createMemory({ name, device: 'wasm' })
  await memory.add(history)
  await memory.indexed()
  const contexts = []
  for (const strategy of ['hybrid', 'dense', 'lexical'] as const) {
    contexts.push((await memory.buildContext('Who flies a zeppelin?', { strategy, budget: 400 })).text)
  }
  const found = await memory.findForgettable('Forget that I painted the shed Vantablack')
  const removed = await memory.forget({ ids: [found[0].messageId] })
  const listed = await memory.messages()
  const exported = await memory.export()
  const sealed = await memory.export({ passphrase: 'correct horse battery staple' })
  const copy = await window.sift.createMemory({ name: `${name}-copy`, device: 'wasm' })
  const imported = await copy.import(sealed, { passphrase: 'correct horse battery staple' })
  await copy.indexed()
  const copied = (await copy.buildContext('Who flies a zeppelin?', { budget: 400 })).text
  const cleared = await copy.clear()
  await copy.close()
  const stats = await memory.stats()
  await memory.close()
  return {
    contexts,
    found: found[0].messageId,
    removed,
    listed: listed.messages.length,
    exported: 'messages' in exported ? exported.messages.length : -1,
    sealed: 'messages' in sealed ? 'readable' : 'sealed',
    imported,
    copied,
    cleared,
    messages: stats.messages,
  }
}

/** The calls did what they say: the flow above is the whole API, not a run that failed early and sent nothing. */
function expectEveryCallWorked(outcome: Awaited<ReturnType<typeof everyCall>>): void {
  expect(outcome.contexts.every((text) => text.includes('zeppelin'))).toBe(true)
  expect(outcome).toMatchObject({
    found: 'p4',
    removed: 1,
    listed: 3,
    exported: 3,
    sealed: 'sealed',
    imported: { messages: 3 },
    cleared: 3,
    messages: 3,
  })
  expect(outcome.copied).toContain('zeppelin')
}

async function openDemo(page: PageSession, url: string): Promise<void> {
  await page.goto(url)
  await page.waitForFunction(() => typeof window.sift?.createMemory === 'function', undefined, { timeout: 60_000 })
}

/** Waits for the demo to have opened its memory; on a timeout, says what the page showed instead. */
async function demoReady(page: PageSession): Promise<void> {
  try {
    await page.waitForFunction(() => document.body.dataset.ready === 'true', undefined, { timeout: 120_000 })
  } catch (error) {
    const shown = await page.evaluate(() =>
      ['status', 'load-status', 'progress-text'].map((id) => `${id}: ${document.getElementById(id)?.textContent}`),
    )
    throw new Error(`the demo did not open: ${shown.join(' | ')}; errors: ${(await page.errors()).join(' | ')}`, {
      cause: error,
    })
  }
}

describeEachEngine('nothing leaves the page', (run) => {
  const tab = tabForBlock(run)
  test('ingesting, searching, forgetting, listing, exporting, importing and clearing: the origin received only reads of its own files, none with a body or a word of the history; no policy violation, no console error', async () => {
    const mark = site.mark()
    const page = tab()
    const earlier = (await page.errors()).length
    await openDemo(page, `${site.url}/?open=0`)
    expectEveryCallWorked(await page.evaluate(everyCall, { history, name: `e2e-privacy-${Date.now()}` }))
    const received = await site.since(mark)
    const paths = requestedPaths(received)
    // The log is the origin's: the model and ONNX Runtime's files the memory loaded are in it.
    expect(
      paths.some((path) => path.startsWith('/ort/')),
      paths.join(' '),
    ).toBe(true)
    expect(
      paths.some((path) => path.startsWith('/models/')),
      paths.join(' '),
    ).toBe(true)
    expect(offendingRequests(received, distinctive)).toEqual([])
    expect(await errorsSince(page, earlier)).toEqual([])
  })

  test('the checks above can fail: a request with a body, or for a file the site lacks, shows in the origin’s log; one to another host is refused by the policy and recorded by the page', async () => {
    const other = await loggedServer(demoOutDir)
    const mark = site.mark()
    const page = tab()
    const earlier = (await page.errors()).length
    try {
      await openDemo(page, `${site.url}/?open=0`)
      const foreignUrl = `http://127.0.0.1:${other.server.port}/collect?zeppelin`
      const outcome = await page.evaluate(
        async ({ foreignUrl }) => {
          const sent = async (url: string, init?: RequestInit) =>
            fetch(url, init).then(
              (response) => `${response.status}`,
              (error: Error) => `refused: ${error.name}`,
            )
          const posted = await sent('/favicon.svg', { method: 'POST', body: 'Okonkwo flies a zeppelin' })
          const missing = await sent('/no-such-file')
          const foreign = await sent(foreignUrl, { method: 'POST', body: 'Okonkwo flies a zeppelin' })
          // The violation event is queued as a task: let it reach the hook.
          await new Promise((resolve) => setTimeout(resolve, 200))
          return { posted, missing, foreign }
        },
        { foreignUrl },
      )
      expect(outcome).toEqual({ posted: '200', missing: '404', foreign: expect.stringMatching(/^refused/) })
      expect(offendingRequests(await site.since(mark), distinctive)).toEqual([
        'POST /favicon.svg (200): not a read',
        'POST /favicon.svg (200): a body of 24 bytes',
        'GET /no-such-file (404): no such file',
      ])
      expect(other.log).toEqual([])
      const errors = await errorsSince(page, earlier)
      expect(errors.join('\n')).toMatch(
        new RegExp(`CSP violation: connect-src http://127\\.0\\.0\\.1:${other.server.port}`),
      )
    } finally {
      await other.server.close()
    }
  })
})

describeEachEngine('stored text is shown as text', (run) => {
  const tab = tabForBlock(run)
  test('markup in a message shows literally in the demo and runs nothing, when added and after a reload', async () => {
    const mark = site.mark()
    const page = tab()
    const earlier = (await page.errors()).length
    const url = `${site.url}/?device=wasm&name=e2e-xss-${Date.now()}`
    const ready = () => demoReady(page)
    await page.goto(url)
    await ready()
    // Each payload sets window.pwned before anything else it does, so a script that ran shows there whatever the
    // engine does with a dialog (the session interface has none; in WebKit an open alert fails the next command).
    const payloads = [
      '<img src=x onerror="window.pwned = 1; alert(1)">',
      '<script>window.pwned = 2</script>',
      '<a href="javascript:window.pwned=3">click</a>',
    ]
    for (const payload of payloads) {
      await page.fill('#content', payload)
      await page.click('#add')
      await page.waitForFunction(
        (payload) => document.getElementById('history')?.textContent?.includes(payload),
        payload,
      )
    }
    const shown = async () =>
      page.evaluate(() => ({
        text: document.getElementById('history')?.textContent ?? '',
        elements: document.querySelectorAll('#history img, #history script, #history a').length,
        pwned: (window as unknown as { pwned?: number }).pwned ?? null,
      }))
    const added = await shown()
    await page.reload()
    await ready()
    const reloaded = await shown()
    for (const view of [added, reloaded]) {
      for (const payload of payloads) expect(view.text).toContain(payload)
      expect(view.elements).toBe(0)
      expect(view.pwned).toBeNull()
    }
    // An <img src=x> made an element would have asked the origin for /x (a 404 here) and failed in the page.
    expect(offendingRequests(await site.since(mark))).toEqual([])
    expect(await errorsSince(page, earlier)).toEqual([])
  })
})

// Chromium's driver reports every request the browser makes (to any host) and its workers' console; WebKit's classic
// WebDriver has neither, so these checks from the browser's side run in Chromium only.
const baseUrl = inject('baseUrl')
const chromium = enginesToRun().some((engine) => engine.name === 'chromium')

describe.runIf(chromium)('nothing leaves the page, from Chromium’s own request events (Chromium only)', () => {
  test('the calls above send no request to any other host, none with a body, and no policy violation reaches the page’s or its workers’ console', async () => {
    const session = await launchDemo({ baseUrl, webgpu: false })
    try {
      expectEveryCallWorked(await session.page.evaluate(everyCall, { history, name: 'e2e-privacy' }))
      const { requestLog } = session
      expect(requestLog.some((request) => request.url.includes('/ort/'))).toBe(true)
      expect(requestLog.some((request) => request.url.includes('/models/'))).toBe(true)
      expect(foreignRequests(session.requests, baseUrl)).toEqual([])
      expect(requestLog.filter((request) => request.method !== 'GET' && request.method !== 'HEAD')).toEqual([])
      expect(requestLog.filter((request) => request.body !== undefined)).toEqual([])
      const carried = requestLog.filter((request) =>
        distinctive.some((word) => decodeURIComponent(request.url).toLowerCase().includes(word.toLowerCase())),
      )
      expect(carried).toEqual([])
      expect(session.policyViolations).toEqual([])
    } finally {
      await session.close()
    }
  })

  test('the demo is served with the strict Content-Security-Policy, and nothing on it is refused', async () => {
    const session = await launchDemo({ baseUrl, webgpu: false, query: 'device=wasm&name=e2e-csp' })
    try {
      const response = await session.page.goto(`${baseUrl}/?device=wasm&name=e2e-csp`)
      expect(response!.headers()['content-security-policy']).toBe(CONTENT_SECURITY_POLICY)
      await session.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 })
      await session.page.click('#load-sample')
      await session.page.waitForFunction(
        () => document.getElementById('progress-text')?.textContent?.startsWith('all indexed'),
        undefined,
        { timeout: 120_000 },
      )
      await session.page.fill('#request', 'What did we decide?')
      await session.page.click('#build')
      await session.page.waitForFunction(() => (document.getElementById('context')?.textContent ?? '').length > 0)
      expect(session.policyViolations).toEqual([])
      expect(foreignRequests(session.requests, baseUrl)).toEqual([])
    } finally {
      await session.close()
    }
  })
})
