// The demo page as a person uses it: load the sample conversation, wait for indexing, build a context.
import { afterEach, expect, inject, test } from 'vitest'
import { foreignRequests, launchDemo, type DemoSession } from './launch-demo'

const baseUrl = inject('baseUrl')
let session: DemoSession | undefined
afterEach(async () => {
  await session?.close()
  session = undefined
})

test('the demo page indexes the sample conversation and shows a context with its stats', async () => {
  session = await launchDemo({ baseUrl, webgpu: false, query: 'name=e2e-demo-page&device=wasm' })
  const { page, requests } = session
  await page.waitForSelector('body[data-ready="true"]')

  await page.fill('#content', 'I keep my passport in the blue drawer of the hallway cabinet.')
  await page.click('#add')
  await page.click('#load-sample')
  await page.waitForFunction(() => /17 messages, \d+ sentences, 0 waiting/.test(document.querySelector('#status')?.textContent ?? ''))
  expect(await page.textContent('#progress-text')).toMatch(/^all indexed/)
  expect(await page.textContent('#status')).toContain('Backend: wasm')

  await page.fill('#request', 'Where is my passport?')
  await page.fill('#budget', '300')
  await page.click('#build')
  await page.waitForFunction(() => (document.querySelector('#context-stats')?.childElementCount ?? 0) > 0)
  expect(await page.textContent('#context')).toContain('blue drawer')
  const stats = await page.textContent('#context-stats')
  expect(stats).toMatch(/fill\s*\d+(\.\d)? %/)
  expect(stats).toMatch(/used \/ budget\s*\d+ \/ 300 characters/)
  expect(stats).toMatch(/stopped by(budget|exhausted|cliff)/)
  expect(foreignRequests(requests, baseUrl)).toEqual([])
})
