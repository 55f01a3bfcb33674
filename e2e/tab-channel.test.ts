// What crosses between the pages that share one memory (src/tab-election.ts), seen from the pages themselves: a page
// of the origin that only listens on the tab channel, a page that joins just as the page running the engine closes,
// and a page that joins with other options and then takes the engine over.
import type { Page } from 'playwright-core'
import { afterEach, expect, inject, test } from 'vitest'
import { SCHEMA_VERSION } from '../src/protocol'
import type { Context, MemoryStats } from '../src/types'
import { launchDemo, type DemoSession } from './launch-demo'
import { scanDatabase } from './raw-scan'
import { indexedWithRetry, openPage } from './tab-pages'

const baseUrl = inject('baseUrl')

declare global {
  interface Window {
    heard: unknown[]
    joined: Promise<string>
  }
}

let session: DemoSession | undefined
afterEach(async () => {
  await session?.close()
  session = undefined
})

async function demoPage(session: DemoSession): Promise<Page> {
  const page = await session.context.newPage()
  await page.goto(`${baseUrl}/?open=0`)
  await page.waitForFunction(() => typeof window.sift?.createMemory === 'function')
  return page
}

/** `window.tabMemory[method](...args)` in `page`, retried while another page's engine ending fails it with WORKER_FAILED. */
function retrying<T>(page: Page, method: 'stats' | 'add' | 'buildContext' | 'ready', ...args: unknown[]): Promise<T> {
  return page.evaluate(
    async ({ method, args }) => {
      for (;;) {
        try {
          return await (window.tabMemory[method] as (...args: unknown[]) => Promise<never>)(...args)
        } catch (error) {
          if ((error as { code?: string }).code !== 'WORKER_FAILED') throw error
          await new Promise((resolve) => setTimeout(resolve, 200))
        }
      }
    },
    { method, args },
  )
}

test('the page running the engine closes just after a page asked to join: the joining createMemory settles, and that page takes the engine over', async () => {
  session = await launchDemo({ baseUrl, webgpu: false })
  const name = 'e2e-tabs-join-race'
  const leader = await openPage(session.context, name)
  await leader.evaluate(() => window.tabMemory.add({ id: 'kept', role: 'user', content: 'The ferry leaves at noon.' }))
  // The worst moment, made certain: the leader answers the joining page's question "who runs the engine?", and
  // closes before it answers anything else.
  const closing = leader.waitForEvent('close')
  await leader.exposeFunction('closeThisPage', () => void leader.close({ runBeforeUnload: false }))
  await leader.evaluate(() => {
    const post = BroadcastChannel.prototype.postMessage
    BroadcastChannel.prototype.postMessage = function (message: { type?: string }) {
      if (message?.type === 'result') return
      post.call(this, message)
      if (message?.type === 'leader') void (window as unknown as { closeThisPage(): void }).closeThisPage()
    }
  })

  const joiner = await demoPage(session)
  await joiner.evaluate((name) => {
    window.joined = window.sift.createMemory({ name, device: 'wasm' }).then(
      (memory) => {
        window.tabMemory = memory
        return 'opened'
      },
      (error: { code?: string }) => `rejects ${error.code}`,
    )
  }, name)
  await closing
  const outcome = await joiner.evaluate(() =>
    Promise.race([
      window.joined,
      new Promise((resolve) => setTimeout(() => resolve('still pending after 30 s'), 30_000)),
    ]),
  )
  expect(outcome).toBe('opened')
  expect(await retrying<MemoryStats>(joiner, 'stats')).toMatchObject({ messages: 1 })
  await retrying(joiner, 'add', { role: 'user', content: 'And returns at six.' })
  expect(await retrying<MemoryStats>(joiner, 'stats')).toMatchObject({ messages: 2 })
})

/** Keeps, in `window.heard`, every message `page` receives on the tab channel of memory `name`, as any page could. */
function listenOn(page: Page, name: string): Promise<void> {
  return page.evaluate(
    ({ name, schema }) => {
      window.heard ??= []
      new BroadcastChannel(`sift-memory tabs ${name} schema ${schema}`).onmessage = (event) =>
        window.heard.push(event.data)
    },
    { name, schema: SCHEMA_VERSION },
  )
}

/** Every string in what the listening page heard, typed arrays read as UTF-8 and Latin-1, and how many CryptoKeys came. */
function whatWasHeard(page: Page): Promise<{ text: string; keys: number; messages: number }> {
  return page.evaluate(() => {
    const parts: string[] = []
    let keys = 0
    const visit = (value: unknown): void => {
      if (typeof value === 'string') parts.push(value)
      else if (value instanceof CryptoKey) keys++
      else if (ArrayBuffer.isView(value)) {
        const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
        parts.push(new TextDecoder('utf-8').decode(bytes), new TextDecoder('latin1').decode(bytes))
      } else if (typeof value === 'object' && value !== null)
        for (const [key, item] of Object.entries(value)) {
          parts.push(key)
          visit(item)
        }
    }
    visit(window.heard)
    return { text: parts.join('\n'), keys, messages: window.heard.length }
  })
}

test('a page of the origin that only listens on the tab channel hears no passphrase, key or word of the history', async () => {
  session = await launchDemo({ baseUrl, webgpu: false })
  const listener = await demoPage(session)
  const secrets = ['orchard lantern 42', 'my new secret passphrase', 'export phrase 77', 'plain to secret 5']
  const words = ['2468', 'bank PIN', 'Quillmoor']

  // An encrypted memory: a page joins with its passphrase, adds, asks, changes the key, exports with a passphrase.
  const encrypted = 'e2e-tabs-sealed'
  await listenOn(listener, encrypted)
  const leader = await demoPage(session)
  const open = (page: Page, name: string, passphrase?: string) =>
    page.evaluate(
      async ({ name, passphrase }) => {
        window.tabProgress = []
        window.tabMemory = await window.sift.createMemory({
          name,
          device: 'wasm',
          ...(passphrase && { passphrase }),
          onProgress: (progress) => window.tabProgress.push(progress),
        })
      },
      { name, passphrase },
    )
  await open(leader, encrypted, secrets[0])
  const follower = await demoPage(session)
  await open(follower, encrypted, secrets[0])
  const heardByFollower = await follower.evaluate(async (secrets) => {
    const memory = window.tabMemory
    await memory.add({ role: 'user', content: 'My bank PIN is 2468, the branch is in Quillmoor.' })
    const context = await memory.buildContext('bank PIN', { strategy: 'lexical' })
    await memory.indexed()
    await memory.changeKey({ passphrase: secrets[1] })
    const exported = await memory.export({ passphrase: secrets[2] })
    const extractable = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt'])
    await memory.changeKey({ key: extractable })
    const after = await memory.buildContext('Quillmoor branch', { strategy: 'lexical' })
    const progress = window.tabProgress.some((event) => event.done > 0)
    return { context: context.text, exported: 'encrypted' in exported, after: after.text, progress }
  }, secrets)
  // The follower still gets the leader's progress events, sealed on the way.
  expect(heardByFollower).toMatchObject({ exported: true, progress: true })
  expect(heardByFollower.context).toContain('2468')
  expect(heardByFollower.after).toContain('Quillmoor')

  // A plain memory: its contents are in its database in clear, but the passphrases given to it are not.
  const plain = 'e2e-tabs-plain'
  await listenOn(listener, plain)
  await open(leader, plain)
  const plainFollower = await demoPage(session)
  await open(plainFollower, plain)
  const plainOutcome = await plainFollower.evaluate(async (secrets) => {
    const memory = window.tabMemory
    await memory.add({ role: 'user', content: 'Nothing secret here.' })
    const exported = await memory.export({ passphrase: secrets[2] })
    await memory.changeKey({ passphrase: secrets[3] })
    // Encrypted from now on: what this page adds and asks crosses sealed, as in the encrypted memory above.
    await memory.add({ role: 'user', content: 'My bank PIN is 2468, the branch is in Quillmoor.' })
    const context = await memory.buildContext('Quillmoor', { strategy: 'lexical' })
    return { exported: 'encrypted' in exported, context: context.text }
  }, secrets)
  expect(plainOutcome.exported).toBe(true)
  expect(plainOutcome.context).toContain('2468')

  const heard = await whatWasHeard(listener)
  expect(heard.messages).toBeGreaterThan(10)
  expect(heard.keys).toBe(0)
  for (const needle of [...secrets, ...words]) expect(heard.text).not.toContain(needle)
})

test('a page that joins with a model the server does not have takes the engine over with the model it joined, and every stored vector stays', async () => {
  session = await launchDemo({ baseUrl, webgpu: false })
  const name = 'e2e-tabs-model'
  const first = await openPage(session.context, name)
  await first.evaluate(async () => {
    await window.tabMemory.add([
      { role: 'user', content: 'My sister Alma is allergic to peanuts.' },
      { role: 'user', content: 'The boiler knocks every morning.' },
    ])
    await window.tabMemory.indexed()
  })
  const other = await demoPage(session)
  const joined = await other.evaluate(async (name) => {
    window.tabMemory = await window.sift.createMemory({
      name,
      device: 'wasm',
      model: 'not-served/model',
      embedding: { pooling: 'mean' },
    })
    return window.tabMemory.stats()
  }, name)
  expect(joined.model).toBe('use-lite')
  const third = await openPage(session.context, name)
  await first.close({ runBeforeUnload: false })

  await indexedWithRetry(other)
  for (const page of [other, third]) {
    const stats = await retrying<MemoryStats>(page, 'stats')
    expect(stats).toMatchObject({ model: 'use-lite', pending: 0 })
    expect(stats.lastFailure).toBeUndefined()
    // The engine taken over loads its model when first asked: until then a context ranks by words.
    await retrying<void>(page, 'ready')
    const context = await retrying<Context>(page, 'buildContext', 'Who is allergic to peanuts?', { budget: 300 })
    expect(context.stats).toMatchObject({ ranking: 'hybrid' })
    expect(context.stats.degraded).toBeUndefined()
  }
  expect((await scanDatabase(third, name, [])).vectorSids).toHaveLength(2)
})
