// Encryption at rest in every engine (e2e/browsers/each-engine.ts), through the engine's worker: a non-extractable
// CryptoKey kept by the page (in an IndexedDB database of its own, as an app would keep it) is cloned to the worker,
// nothing of the history can be read from the memory's database, a reload opens it with the key, and opening it
// without the key fails with WRONG_KEY.
import { afterEach, expect, inject, test } from 'vitest'
import type { MessageInput } from '../src/types'
import { describeEachEngine } from './browsers/each-engine'
import type { PageSession } from './browsers/session'
import { scanDatabase } from './raw-scan'

const baseUrl = inject('baseUrl')

const words = ['Zylophant', 'cardamom', 'Hexworth', 'quokka']
// Over 500 sentences, so that the engine saves its lexical snapshot and the scan reads it too.
const history: MessageInput[] = [
  { role: 'user', content: 'My therapist Dr Hexworth says the Zylophant medication makes me crave cardamom.' },
  { role: 'assistant', content: 'Noted: Zylophant, cardamom cravings, and a pet quokka named after Hexworth.' },
  ...Array.from({ length: 260 }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: `Everyday note ${i} is about the commute. The bus leaves at ${7 + (i % 3)} o'clock.`,
  })),
]
const requests = ['What medication makes me crave cardamom?', 'Tell me about my pet quokka', 'When does the bus leave?']

declare global {
  interface Window {
    encrypted: import('../src/types').Memory
  }
}

/** Opens `window.encrypted` on `name` with the page's key (made and kept in the `app-keys` database on first use). */
function openWithStoredKey(page: PageSession, name: string): Promise<void> {
  return page.evaluate(async (name) => {
    const keys = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('app-keys')
      request.onupgradeneeded = () => request.result.createObjectStore('keys')
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    })
    const stored = await new Promise<CryptoKey | undefined>((resolve) => {
      const get = keys.transaction('keys').objectStore('keys').get(name)
      get.onsuccess = () => resolve(get.result)
    })
    const key =
      stored ?? (await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']))
    if (!stored) {
      await new Promise<void>((resolve, reject) => {
        const transaction = keys.transaction('keys', 'readwrite')
        transaction.objectStore('keys').put(key, name)
        transaction.oncomplete = () => resolve()
        transaction.onabort = () => reject(transaction.error)
      })
    }
    keys.close()
    window.encrypted = await window.sift.createMemory({ name, device: 'wasm', key })
  }, name)
}

/** Every request's context in each ranking, once the model is there (until then `hybrid` and `dense` rank by words). */
function contexts(page: PageSession): Promise<string[]> {
  return page.evaluate(async (requests) => {
    await window.encrypted.ready()
    const texts: string[] = []
    for (const request of requests)
      for (const strategy of ['hybrid', 'dense', 'lexical'] as const)
        texts.push((await window.encrypted.buildContext(request, { strategy, budget: 600 })).text)
    return texts
  }, requests)
}

async function reloaded(page: PageSession): Promise<void> {
  await page.reload()
  await page.waitForFunction(() => typeof window.sift?.createMemory === 'function')
}

/** Lets the engine write its saved copies (the lexical snapshot after a quiet second). */
const quietSecond = () => new Promise((resolve) => setTimeout(resolve, 1500))

describeEachEngine('encryption at rest', (run) => {
  // One browser per engine for the file: each test opens its own memory names, and closes the tabs it opened.
  let opened: PageSession[] = []
  /** A new tab on the demo, its memory not opened (`open=0`). */
  const demoTab = async () => {
    const page = await run.browser().newPage()
    opened.push(page)
    await page.goto(`${baseUrl}/?open=0`)
    await page.waitForFunction(() => typeof window.sift?.createMemory === 'function')
    return page
  }
  afterEach(async () => {
    for (const page of opened) await page.close().catch(() => undefined)
    opened = []
  })

  test('a memory encrypted with a non-extractable CryptoKey: no word in IndexedDB, the same contexts after a reload, WRONG_KEY without the key', async () => {
    const page = await demoTab()
    const name = `e2e-encrypted-${run.engine.name}`
    await openWithStoredKey(page, name)
    await page.evaluate((history) => window.encrypted.add(history), history)
    await page.evaluate(() => window.encrypted.indexed())
    const before = await contexts(page)
    expect(before.join('\n')).toContain('Zylophant')
    // Let the engine write its saved copies (the lexical snapshot after a quiet second).
    await quietSecond()
    await page.evaluate(() => window.encrypted.close())

    const scan = await scanDatabase(page, name, words)
    expect(scan.found).toEqual([])
    expect(scan.stores).toContain('lexicalSnapshots')
    // The scan decodes no vector row: none is stored in a form it can read.
    expect(scan.rowCount).toBe(0)

    await reloaded(page)
    await openWithStoredKey(page, name)
    expect(await contexts(page)).toEqual(before)
    await page.evaluate(() => window.encrypted.close())

    const refused = await page.evaluate(async (name) => {
      try {
        await window.sift.createMemory({ name, device: 'wasm' })
        return 'opened'
      } catch (error) {
        return `${(error as { code?: string }).code}: ${(error as Error).message}`
      }
    }, name)
    expect(refused).toMatch(new RegExp(`^WRONG_KEY: The memory "${name}" is encrypted`))

    // A new passphrase: the memory goes on in this page, and after a reload only the passphrase opens it.
    await openWithStoredKey(page, name)
    await page.evaluate(() => window.encrypted.changeKey({ passphrase: 'a passphrase for the e2e test' }))
    expect(await contexts(page)).toEqual(before)
    await page.evaluate(() => window.encrypted.close())
    await reloaded(page)
    const withOldKey = await openWithStoredKey(page, name).then(
      () => 'opened',
      (error: Error) => error.message,
    )
    expect(withOldKey).toContain(`does not open the memory "${name}", which is encrypted with a passphrase`)
    await page.evaluate(async (name) => {
      window.encrypted = await window.sift.createMemory({
        name,
        device: 'wasm',
        passphrase: 'a passphrase for the e2e test',
      })
    }, name)
    expect(await contexts(page)).toEqual(before)
    expect((await scanDatabase(page, name, words)).found).toEqual([])
  })

  test('a tab joining the engine another tab opened must bring the same passphrase: a wrong one or none gets WRONG_KEY', async () => {
    const name = `e2e-encrypted-tabs-${run.engine.name}`
    const openIn = async (passphrase: string | undefined) => {
      const page = await demoTab()
      const outcome = await page.evaluate(
        async ({ name, passphrase }) => {
          try {
            window.encrypted = await window.sift.createMemory({
              name,
              device: 'wasm',
              ...(passphrase && { passphrase }),
            })
            return 'opened'
          } catch (error) {
            return (error as { code?: string }).code
          }
        },
        { name, passphrase },
      )
      return { page, outcome }
    }
    const leader = await openIn('orchard lantern 42')
    expect(leader.outcome).toBe('opened')
    await leader.page.evaluate(() =>
      window.encrypted.add({ role: 'user', content: 'The spare key is under the blue flowerpot.' }),
    )

    expect((await openIn('wrong guess')).outcome).toBe('WRONG_KEY')
    expect((await openIn(undefined)).outcome).toBe('WRONG_KEY')
    const joined = await openIn('orchard lantern 42')
    expect(joined.outcome).toBe('opened')
    const context = await joined.page.evaluate(() =>
      window.encrypted.buildContext('Where is the spare key?', { strategy: 'lexical' }),
    )
    expect(context.text).toContain('blue flowerpot')

    // A plain memory open in one tab cannot be given a key by another.
    const plainName = `e2e-plain-tabs-${run.engine.name}`
    const plain = await demoTab()
    const codes = await plain.evaluate(async (plainName) => {
      window.encrypted = await window.sift.createMemory({ name: plainName, device: 'wasm' })
      const other = await window.sift.createMemory({ name: plainName, device: 'wasm', passphrase: 'late key' }).then(
        () => 'opened',
        (error: { code?: string }) => error.code,
      )
      return other
    }, plainName)
    expect(codes).toBe('WRONG_KEY')
  })

  test('a deleted key check is refused with STORAGE_FAILED, and a changed seq is skipped while the backlog drains', async () => {
    const page = await demoTab()
    const outcome = await page.evaluate(
      async ({ keyCheck, seq }) => {
        const history = ['My sister is allergic to peanuts.', 'The boiler knocks.', 'The plumber comes on Thursday.']
        const raw = (name: string, store: string, change: (objects: IDBObjectStore) => void) =>
          new Promise<void>((resolve, reject) => {
            const request = indexedDB.open(name)
            request.onsuccess = () => {
              const transaction = request.result.transaction(store, 'readwrite')
              change(transaction.objectStore(store))
              transaction.oncomplete = () => {
                request.result.close()
                resolve()
              }
              transaction.onabort = () => reject(transaction.error)
            }
          })
        const codeOf = (promise: Promise<unknown>) =>
          promise.then(
            () => 'opened',
            (error: { code?: string }) => error.code,
          )
        const results: Record<string, unknown> = {}
        for (const [name, passphrase] of [
          [keyCheck, 'a passphrase for the e2e test'],
          [seq, undefined],
        ] as const) {
          const memory = await window.sift.createMemory({ name, device: 'wasm', passphrase })
          await memory.add(history.map((content, i) => ({ id: `m${i + 1}`, role: 'user', content })))
          await memory.indexed()
          await memory.close()
        }
        await raw(keyCheck, 'meta', (meta) => meta.delete('encryption'))
        results.keyCheck = await codeOf(
          window.sift.createMemory({
            name: keyCheck,
            device: 'wasm',
            passphrase: 'a passphrase for the e2e test',
          }),
        )
        await raw(seq, 'messages', (messages) => {
          const get = messages.get('m1')
          get.onsuccess = () => messages.put({ ...get.result, seq: 99 })
        })
        const memory = await window.sift.createMemory({ name: seq, device: 'wasm' })
        results.skipped = (await memory.stats()).repairedAtOpen?.skippedMessages
        // Generous: a reopened worker loads the model again, slowly on a busy machine; the hang this catches never ends.
        results.indexed = await Promise.race([
          memory.indexed().then(() => 'resolved'),
          new Promise((resolve) => setTimeout(() => resolve('pending after 150 s'), 150_000)),
        ])
        await memory.close()
        return results
      },
      { keyCheck: `e2e-key-check-${run.engine.name}`, seq: `e2e-seq-${run.engine.name}` },
    )
    expect(outcome).toEqual({ keyCheck: 'STORAGE_FAILED', skipped: ['m1'], indexed: 'resolved' })
  })
})
