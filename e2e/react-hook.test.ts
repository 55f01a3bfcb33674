// sift-memory/react in Chromium: a page built with Vite from the sources, React rendering two components that use
// one memory (under StrictMode, which mounts, unmounts and mounts again), the real engine and model worker. What the
// hook shows: the memory once open, the model ready, indexing progress, the conversation's stored messages as chat
// messages, and the messages another tab adds.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { build } from 'vite'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { launchChromium } from '../scripts/launch-chromium'
import { startStaticServer, type StaticServer } from '../scripts/static-server'
import type { MemoryState } from '../src/react'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
let workDir: string
let server: StaticServer

/** What each component rendered last, and the memory it was given. */
interface HookSnapshot {
  open: boolean
  modelReady: boolean
  progress: MemoryState['progress']
  messages: { role: string; text: string; conversationId: string }[] | undefined
  error: string | undefined
}

declare global {
  interface Window {
    hookSnapshots: Record<string, HookSnapshot>
    hookMemory: NonNullable<MemoryState['memory']>
  }
}

const PAGE = `import { createElement, StrictMode, useEffect } from 'react'
import { createRoot } from 'react-dom/client'
import { useMemory } from '${join(root, 'src/react.ts')}'

window.hookSnapshots = {}
function Probe({ label, conversationId }) {
  const state = useMemory({ name: 'react-hook', device: 'wasm', conversationId })
  useEffect(() => {
    if (state.memory) window.hookMemory = state.memory
    window.hookSnapshots[label] = {
      open: state.memory !== undefined,
      modelReady: state.modelReady,
      progress: state.progress,
      messages: state.messages?.map((m) => ({ role: m.role, text: m.parts[0].text, conversationId: m.metadata.conversationId })),
      error: state.error?.code,
    }
  })
  return createElement('p', { id: label }, String(state.messages?.length ?? 'reading'))
}
createRoot(document.getElementById('root')).render(
  createElement(StrictMode, null, createElement(Probe, { label: 'pets', conversationId: 'pets' }), createElement(Probe, { label: 'all' })),
)
`

beforeAll(async () => {
  await mkdir(join(root, '.cache'), { recursive: true })
  workDir = await mkdtemp(join(root, '.cache', 'react-hook-'))
  await writeFile(
    join(workDir, 'index.html'),
    '<!doctype html><div id="root"></div><script type="module" src="./main.js"></script>\n',
  )
  await writeFile(join(workDir, 'main.js'), PAGE)
  // The repository's own config (its resolve conditions and worker format), rooted at the page.
  await build({
    root: workDir,
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'warn',
    publicDir: join(root, 'public'),
    build: { outDir: join(workDir, 'app'), emptyOutDir: true },
  })
  // The icon the browser asks for, so that no request fails.
  await writeFile(join(workDir, 'app', 'favicon.ico'), '')
  server = await startStaticServer({ root: join(workDir, 'app'), port: 0 })
}, 300_000)

afterAll(async () => {
  await server?.close()
  if (workDir) await rm(workDir, { recursive: true, force: true })
})

const snapshot = (page: Page, label: string) => page.evaluate((label) => window.hookSnapshots[label], label)

/** Waits until the component `label` shows `count` messages, and returns what it shows. */
async function shown(page: Page, label: string, count: number): Promise<HookSnapshot> {
  await page.waitForFunction(
    ([label, count]) => window.hookSnapshots[label]?.messages?.length === count,
    [label, count] as const,
    { timeout: 60_000 },
  )
  return snapshot(page, label)
}

test('useMemory: the memory, the model ready, progress, the stored messages as chat messages, across tabs', async () => {
  const browser = await launchChromium({ webgpu: false })
  const problems: string[] = []
  try {
    const context = await browser.newContext()
    const open = async () => {
      const page = await context.newPage()
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
      page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`))
      await page.goto(`${server.url}/`)
      await page.waitForFunction(() => window.hookSnapshots?.all?.open === true, undefined, { timeout: 60_000 })
      return page
    }
    const first = await open()
    expect(await shown(first, 'all', 0)).toMatchObject({ open: true, messages: [], error: undefined })
    await first.waitForFunction(() => window.hookSnapshots.all.modelReady, undefined, { timeout: 120_000 })

    await first.evaluate(() =>
      window.hookMemory.add([
        { role: 'user', content: 'We named the greyhound Biscuit.', conversationId: 'pets' },
        { role: 'assistant', content: 'Biscuit is a fine name.', conversationId: 'pets' },
        { role: 'user', content: 'The boiler needs a service.', conversationId: 'house' },
      ]),
    )
    // Both components read again after the write: each its own conversation, oldest first, as chat messages.
    expect((await shown(first, 'pets', 2)).messages).toEqual([
      { role: 'user', text: 'We named the greyhound Biscuit.', conversationId: 'pets' },
      { role: 'assistant', text: 'Biscuit is a fine name.', conversationId: 'pets' },
    ])
    expect((await shown(first, 'all', 3)).messages?.map((m) => m.text)).toEqual([
      'We named the greyhound Biscuit.',
      'Biscuit is a fine name.',
      'The boiler needs a service.',
    ])
    await first.evaluate(() => window.hookMemory.indexed())
    await first.waitForFunction(() => window.hookSnapshots.all.progress?.pending === 0, undefined, { timeout: 60_000 })
    expect((await snapshot(first, 'all')).progress?.done).toBeGreaterThan(0)

    // Another tab shows what is stored, and a write in it reaches this one.
    const second = await open()
    expect((await shown(second, 'pets', 2)).messages?.map((m) => m.text)).toEqual([
      'We named the greyhound Biscuit.',
      'Biscuit is a fine name.',
    ])
    await second.evaluate(() =>
      window.hookMemory.add({ role: 'user', content: 'Biscuit sleeps on the sofa.', conversationId: 'pets' }),
    )
    expect((await shown(first, 'pets', 3)).messages?.at(-1)?.text).toBe('Biscuit sleeps on the sofa.')
    await first.evaluate(async () => {
      const { messages } = await window.hookMemory.messages({ conversationId: 'house' })
      await window.hookMemory.forget({ ids: messages.map((m) => m.id) })
    })
    expect((await shown(second, 'all', 3)).messages?.map((m) => m.text)).not.toContain('The boiler needs a service.')
    expect(problems).toEqual([])
  } finally {
    await browser.close()
  }
})
