// The origin's storage in real Chromium: stats() reports the usage, quota and persistence navigator.storage reports.
import { afterEach, describe, expect, inject, test } from 'vitest'
import { launchDemo, type DemoSession } from './launch-demo'

const baseUrl = inject('baseUrl')

describe('storage faults', () => {
  let session: DemoSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  test('stats() reports the origin storage usage, quota and whether it is persistent', async () => {
    session = await launchDemo({ baseUrl, webgpu: false })
    const { stats, persisted } = await session.page.evaluate(async () => {
      const memory = await window.sift.createMemory({ name: 'e2e-storage-stats', device: 'wasm' })
      await memory.add({ role: 'user', content: 'The garden shed needs a new roof.' })
      const stats = await memory.stats()
      await memory.close()
      return { stats, persisted: await navigator.storage.persisted() }
    })
    expect(stats.storage).toEqual({ usage: expect.any(Number), quota: expect.any(Number), persisted })
    expect(stats.storage!.quota).toBeGreaterThan(stats.storage!.usage)
    expect(stats.storage!.usage).toBeGreaterThan(0)
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
      return { askedWithout, askedWith: asked - askedWithout, reported, browserSays: await navigator.storage.persisted() }
    })
    expect(result.askedWithout).toBe(0)
    expect(result.askedWith).toBe(1)
    expect(result.reported).toBe(result.browserSays)
  })
})
