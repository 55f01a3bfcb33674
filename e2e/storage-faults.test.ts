// The origin's storage in real Chromium: stats() reports the usage, quota and persistence navigator.storage reports,
// and a full origin (a quota the test lowers with CDP) refuses an add whole and delays the backlog without losing it.
import { afterEach, describe, expect, inject, test } from 'vitest'
import type { CDPSession } from 'playwright-core'
import { launchDemo, type DemoSession } from './launch-demo'

const baseUrl = inject('baseUrl')

describe('storage faults', () => {
  let session: DemoSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  test('stats() reports the origin storage usage, quota and whether it is persistent, and what the usage holds', async () => {
    session = await launchDemo({ baseUrl, webgpu: false })
    const { stats, persisted } = await session.page.evaluate(async () => {
      const memory = await window.sift.createMemory({ name: 'e2e-storage-stats', device: 'wasm' })
      await memory.add({ role: 'user', content: 'The garden shed needs a new roof.' })
      await memory.indexed()
      const stats = await memory.stats()
      await memory.close()
      return { stats, persisted: await navigator.storage.persisted() }
    })
    const { storage } = stats
    expect(storage).toEqual({
      usage: expect.any(Number),
      quota: expect.any(Number),
      persisted,
      indexedDB: expect.any(Number),
      caches: expect.any(Number),
    })
    expect(storage!.quota).toBeGreaterThan(storage!.usage!)
    expect(storage!.indexedDB).toBeGreaterThan(0)
    // transformers.js's Cache Storage copy of the model's files (the int8 weights alone are 7.3 MB): most of the usage
    // of a memory holding one sentence.
    expect(storage!.caches).toBeGreaterThan(7_000_000)
    expect(storage!.indexedDB! + storage!.caches!).toBeLessThanOrEqual(storage!.usage!)
    console.log(
      `[storage] usage ${storage!.usage} bytes: IndexedDB ${storage!.indexedDB}, Cache Storage ${storage!.caches}`,
    )
  })

  test('persist: true asks the browser for persistent storage (once, from the page); without it the memory does not ask', async () => {
    session = await launchDemo({ baseUrl, webgpu: false })
    const result = await session.page.evaluate(async () => {
      // Headless Chromium's contexts are off the record and never grant persistence, so what is checked is that the
      // memory asks: the real persist() still runs, and stats() reports the browser's answer.
      const realPersist = navigator.storage.persist.bind(navigator.storage)
      let asked = 0
      navigator.storage.persist = () => {
        asked++
        return realPersist()
      }
      const plain = await window.sift.createMemory({ name: 'e2e-persist', device: 'wasm' })
      const askedWithout = asked
      await plain.close()
      const persistent = await window.sift.createMemory({ name: 'e2e-persist', device: 'wasm', persist: true })
      const reported = (await persistent.stats()).storage?.persisted
      await persistent.close()
      return {
        askedWithout,
        askedWith: asked - askedWithout,
        reported,
        browserSays: await navigator.storage.persisted(),
      }
    })
    expect(result.askedWithout).toBe(0)
    expect(result.askedWith).toBe(1)
    expect(result.reported).toBe(result.browserSays)
  })

  test('a persist() that never answers (headless Firefox, an unanswered prompt) costs createMemory a bounded wait, and no other call any', async () => {
    session = await launchDemo({ baseUrl, webgpu: false })
    const result = await session.page.evaluate(async () => {
      navigator.storage.persist = () => new Promise<boolean>(() => {})
      const started = performance.now()
      const memory = await Promise.race([
        window.sift.createMemory({ name: 'e2e-persist-silent', device: 'wasm', persist: true }),
        new Promise<undefined>((resolve) => setTimeout(resolve, 30_000)),
      ])
      const openedIn = performance.now() - started
      if (!memory) return { openedIn, persisted: 'createMemory had not resolved after 30 s' }
      await memory.add({ role: 'user', content: 'The prompt was never answered.' })
      const { storage } = await memory.stats()
      await memory.close()
      return { openedIn, persisted: storage?.persisted }
    })
    // The open itself takes a few seconds here; the wait for persist() is at most 3 s more.
    expect(typeof result.persisted).toBe('boolean')
    expect(result.openedIn).toBeLessThan(30_000)
  })

  // Chromium checks a write against the quota it last read for the origin while that reading is under 30 s old and
  // covers the write, so the lowered quota is set before the origin's database is first opened: the first write
  // then reads it.
  test('a full origin: add rejects with QUOTA_EXCEEDED and stores nothing of the batch; earlier history stays whole', async () => {
    session = await launchDemo({ baseUrl, webgpu: false })
    const cdp = await session.context.newCDPSession(session.page)
    await setQuota(cdp, baseUrl, (await usage(session)) + 200_000)
    const result = await session.page.evaluate(async () => {
      const memory = await window.sift.createMemory({ name: 'e2e-quota-add', device: 'wasm' })
      await memory.add([
        { role: 'user', content: 'My sister Ottilie keeps bees on the allotment behind the station.' },
        { role: 'assistant', content: 'Beekeeping next to a railway line sounds lively.' },
      ])
      await memory.indexed()
      const before = await memory.stats()
      // Four long messages in one batch (each under the 100,000-character limit) need more than the space left. Their
      // words are random: Chromium compresses IndexedDB values, and repetitive text would fit in far less.
      let seed = 7
      const letter = () => {
        seed = (seed * 1103515245 + 12345) % 2147483648
        return String.fromCharCode(97 + (seed % 26))
      }
      const word = () => Array.from({ length: 7 }, letter).join('')
      const long = (n: number) =>
        Array.from({ length: 1800 }, (_, i) => `Line ${i} of pasted report ${n} lists ${word()} ${word()}.`).join(' ')
      let error: { code?: string; message: string } | undefined
      try {
        await memory.add([1, 2, 3, 4].map((n) => ({ role: 'user', content: long(n) })))
      } catch (caught) {
        error = { code: (caught as { code?: string }).code, message: (caught as Error).message }
      }
      const after = await memory.stats()
      const context = await memory.buildContext('Who keeps bees?', { strategy: 'lexical', budget: 2000 })
      const listed = await memory.buildContext('', { strategy: 'full' })
      await memory.close()
      return {
        error,
        before: before.messages,
        after: after.messages,
        context: context.text,
        fullChars: listed.stats.historyChars,
      }
    })
    expect(result.error?.code).toBe('QUOTA_EXCEEDED')
    expect(result.error?.message).toMatch(/storage is full/)
    expect(result.after).toBe(result.before)
    expect(result.before).toBe(2)
    expect(result.context).toContain('Ottilie keeps bees')
    expect(result.fullChars).toBeLessThan(200)
  })

  test('a full origin while the backlog is stored: the refused vector write is reported, then retried once there is room', async () => {
    session = await launchDemo({ baseUrl, webgpu: false })
    const cdp = await session.context.newCDPSession(session.page)
    // Room for the database and the message's text, not for the text's first chunk of vectors (about a kilobyte a sentence).
    await setQuota(cdp, baseUrl, (await usage(session)) + 200_000)
    const failed = await session.page.evaluate(async () => {
      const failures: { task: string; code: string }[] = []
      const memory = await window.sift.createMemory({
        name: 'e2e-quota-vectors',
        device: 'wasm',
        onProgress: (progress) =>
          progress.failure && failures.push({ task: progress.failure.task, code: progress.failure.code }),
      })
      ;(window as unknown as { quotaMemory: typeof memory }).quotaMemory = memory
      const content = Array.from(
        { length: 300 },
        (_, i) =>
          `Shelf ${i} of the pantry holds jar ${i * 3}, labelled in faded ink by a grandmother who wrote every date out in full.`,
      ).join(' ')
      await memory.add({ role: 'user', content })
      const indexed = await memory.indexed().then(
        () => 'resolved',
        (error: { code?: string }) => error.code,
      )
      const stats = await memory.stats()
      return { failures, indexed, lastFailure: stats.lastFailure, pending: stats.pending, messages: stats.messages }
    })
    expect(failed.messages).toBe(1)
    expect(failed.indexed).toBe('QUOTA_EXCEEDED')
    expect(failed.lastFailure).toMatchObject({ task: 'store-vectors', code: 'QUOTA_EXCEEDED' })
    expect(failed.failures).toContainEqual({ task: 'store-vectors', code: 'QUOTA_EXCEEDED' })
    expect(failed.pending).toBeGreaterThan(0)

    await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(baseUrl).origin })
    const retried = await session.page.evaluate(async () => {
      const memory = (window as unknown as { quotaMemory: import('../src/types').Memory }).quotaMemory
      await memory.indexed()
      const stats = await memory.stats()
      const context = await memory.buildContext('Which shelf holds jar 300?', { strategy: 'dense', budget: 1000 })
      await memory.close()
      return { pending: stats.pending, ranking: context.stats.ranking, items: context.items.length }
    })
    expect(retried.pending).toBe(0)
    expect(retried.ranking).toBe('dense')
    expect(retried.items).toBeGreaterThan(0)
  })
})

async function usage(session: DemoSession): Promise<number> {
  return session.page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0)
}

async function setQuota(cdp: CDPSession, baseUrl: string, quotaSize: number): Promise<void> {
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(baseUrl).origin, quotaSize })
}
