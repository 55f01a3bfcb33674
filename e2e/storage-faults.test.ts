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
})
