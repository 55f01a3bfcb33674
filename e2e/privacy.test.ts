// What Sift promises about the page, checked in real Chromium under the demo's strict Content-Security-Policy:
// no request carries history anywhere (every request is a same-origin static file, none has a body), the policy
// holds for the page and its workers, and stored text is shown as text.
import { afterEach, describe, expect, inject, test } from 'vitest'
import { CONTENT_SECURITY_POLICY } from '../scripts/static-server'
import type { MessageInput } from '../src/types'
import { foreignRequests, launchDemo, type DemoSession } from './launch-demo'

const baseUrl = inject('baseUrl')

/** Words that appear only in the history below, so a request that carried any of it would show them. */
const distinctive = ['Quillfeather', 'marzipan', 'Vantablack', 'zeppelin', 'Okonkwo', 'saxifrage']

const history: MessageInput[] = [
  { id: 'p1', role: 'user', content: 'My neighbour Okonkwo flies a zeppelin on Sundays.' },
  { id: 'p2', role: 'assistant', content: 'A zeppelin is a rare hobby. Does Okonkwo take passengers?' },
  { id: 'p3', role: 'user', content: 'Only his cat Quillfeather, who hates marzipan.' },
  { id: 'p4', role: 'user', content: 'I painted the shed Vantablack and planted saxifrage by the door.' },
]

let session: DemoSession | undefined
afterEach(async () => {
  await session?.close()
  session = undefined
})

describe('nothing leaves the page', () => {
  test('ingesting, searching, forgetting, listing, exporting, importing and clearing send no history anywhere: same-origin static files only, no request bodies', async () => {
    session = await launchDemo({ baseUrl, webgpu: false })
    const outcome = await session.page.evaluate(async (history) => {
      const memory = await window.sift.createMemory({ name: 'e2e-privacy', device: 'wasm' })
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
      const copy = await window.sift.createMemory({ name: 'e2e-privacy-copy', device: 'wasm' })
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
        imported,
        copied,
        cleared,
        messages: stats.messages,
      }
    }, history)
    expect(outcome.contexts.every((text) => text.includes('zeppelin'))).toBe(true)
    expect(outcome).toMatchObject({
      found: 'p4',
      removed: 1,
      listed: 3,
      exported: 3,
      imported: { messages: 3 },
      cleared: 3,
      messages: 3,
    })
    expect(outcome.copied).toContain('zeppelin')

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
  })

  test('the demo is served with the strict Content-Security-Policy, and nothing on it is refused', async () => {
    session = await launchDemo({ baseUrl, webgpu: false, query: 'device=wasm&name=e2e-csp' })
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
  })
})

describe('stored text is shown as text', () => {
  test('markup in a message shows literally in the demo and runs nothing, when added and after a reload', async () => {
    session = await launchDemo({ baseUrl, webgpu: false, query: 'device=wasm&name=e2e-xss' })
    const { page } = session
    const url = `${baseUrl}/?device=wasm&name=e2e-xss`
    const dialogs: string[] = []
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    await page.goto(url)
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 })
    const payloads = [
      '<img src=x onerror="window.pwned = 1; alert(1)">',
      '<script>window.pwned = 2</script>',
      '<a href="javascript:window.pwned=3">click</a>',
    ]
    for (const payload of payloads) {
      await page.fill('#content', payload)
      await page.click('#add')
      await page.waitForFunction(
        (payload) => document.getElementById('history')!.textContent!.includes(payload),
        payload,
      )
    }
    const shown = async () =>
      page.evaluate(() => ({
        text: document.getElementById('history')!.textContent!,
        elements: document.querySelectorAll('#history img, #history script, #history a').length,
        pwned: (window as unknown as { pwned?: number }).pwned,
      }))
    const added = await shown()
    await page.reload()
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 })
    const reloaded = await shown()
    for (const view of [added, reloaded]) {
      for (const payload of payloads) expect(view.text).toContain(payload)
      expect(view.elements).toBe(0)
      expect(view.pwned).toBeUndefined()
    }
    expect(dialogs).toEqual([])
  })
})
