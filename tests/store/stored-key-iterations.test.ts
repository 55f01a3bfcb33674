// The PBKDF2 iteration count in an encrypted memory's key-check row is data on disk like any other: a count Sift never
// writes (a damaged row, or one written to hold up whoever opens it) is refused as damage at once, not honoured.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { createMemory } from '../../src/node'
import { PBKDF2_ITERATIONS } from '../../worker/crypto/passphrase-key'
import { getAllRaw, putRaw } from '../raw-database'

describe("the key check's PBKDF2 iteration count", () => {
  it('opens with the count Sift writes, and refuses any other with STORAGE_FAILED before deriving anything', async () => {
    const indexedDB = new IDBFactory()
    const options = { name: 'iterations', indexedDB, IDBKeyRange, passphrase: 'a passphrase' }
    const memory = await createMemory(options)
    await memory.add({ role: 'user', content: 'The lighthouse is closed on Mondays.' })
    await memory.close()
    const [row] = (await getAllRaw(indexedDB, 'iterations', 'meta')).filter(
      (record) => (record as { key?: string }).key === 'encryption',
    ) as { iterations: number }[]
    expect(row.iterations).toBe(PBKDF2_ITERATIONS)

    for (const iterations of [PBKDF2_ITERATIONS * 5, PBKDF2_ITERATIONS - 1, 1]) {
      await putRaw(indexedDB, 'iterations', 'meta', [{ ...row, iterations }])
      const started = performance.now()
      const error = await createMemory(options).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect({ iterations, error }).toMatchObject({ iterations, error: { code: 'STORAGE_FAILED' } })
      expect((error as Error).message).toContain('damaged')
      // Refused before any derivation: well under the time of the one derivation the right count costs.
      expect(performance.now() - started).toBeLessThan(5_000)
    }
    await putRaw(indexedDB, 'iterations', 'meta', [row])
    const reopened = await createMemory(options)
    expect((await reopened.stats()).messages).toBe(1)
    await reopened.close()
  })
})
