// Vectors are derived data: a vector record that no longer opens or no longer fits together (a damaged disk, a torn
// write) must never stand between the user and their messages. Open drops the stored vectors and re-embeds them,
// saying so in stats().repairedAtOpen; a damaged residual record is reported and left out, and forget still works.
import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { createMemory, type NodeMemoryOptions } from '../../src/node'
import { getAllRaw, putRaw } from '../raw-database'

const PASSPHRASE = 'correct horse battery staple'
const history = [
  { id: 'm1', role: 'user', content: 'My sister Alma is allergic to peanuts.' },
  { id: 'm2', role: 'user', content: 'The boiler knocks every morning.' },
]
type Row = Record<string, unknown>

/** A memory that stored and embedded `history`, closed. */
async function written(name: string, extra: Partial<NodeMemoryOptions>): Promise<IDBFactory> {
  const indexedDB = new IDBFactory()
  const memory = await createMemory({ name, indexedDB, ...extra })
  await memory.add(history)
  await memory.indexed()
  await memory.close()
  return indexedDB
}

const raw = (indexedDB: IDBFactory, name: string, table: string) =>
  getAllRaw(indexedDB as unknown as globalThis.IDBFactory, name, table) as Promise<Row[]>
const put = (indexedDB: IDBFactory, name: string, table: string, records: Row[]) =>
  putRaw(indexedDB as unknown as globalThis.IDBFactory, name, table, records)

/** The same bytes with one bit of the tag flipped: AES-GCM no longer opens them. */
function flipped(sealed: unknown): Uint8Array {
  const bytes = new Uint8Array(sealed as Uint8Array)
  bytes[bytes.length - 5] ^= 1
  return bytes
}

const damagedBlocks: [string, Partial<NodeMemoryOptions>, (block: Row) => Row][] = [
  ['encrypted, sealed bytes altered', { passphrase: PASSPHRASE }, (b) => ({ ...b, sealed: flipped(b.sealed) })],
  ['plain, codes truncated', {}, (b) => ({ ...b, codes: (b.codes as Int8Array).subarray(0, 10) })],
  ['plain, sids longer than codes', {}, (b) => ({ ...b, sids: Float64Array.from([...(b.sids as Float64Array), 77]) })],
  ['plain, dim changed', {}, (b) => ({ ...b, dim: 7 })],
  ['plain, sids not a typed array', {}, (b) => ({ ...b, sids: 'oops' })],
]

describe('damaged vector records', () => {
  for (const [label, extra, damage] of damagedBlocks) {
    it(`a damaged block (${label}): open drops the vectors, re-embeds and reports it; reading, export and forget work`, async () => {
      const name = 'block'
      const indexedDB = await written(name, extra)
      const [block] = await raw(indexedDB, name, 'vectorBlocks')
      await put(indexedDB, name, 'vectorBlocks', [damage(block)])

      const memory = await createMemory({ name, indexedDB, ...extra })
      expect((await memory.stats()).repairedAtOpen).toMatchObject({ droppedVectors: [`vector block ${block.blockId}`] })
      await memory.indexed()
      const dense = await memory.buildContext('Who is allergic to peanuts?', { strategy: 'dense', budget: 200 })
      expect(dense.stats.ranking).toBe('dense')
      expect(dense.text).toContain('allergic to peanuts')
      const exported = await memory.export()
      expect('messages' in exported && exported.messages.map((m) => m.id)).toEqual(['m1', 'm2'])
      expect(await memory.forget({ id: 'm1' })).toBe(1)
      await memory.close()
      const reopened = await createMemory({ name, indexedDB, ...extra })
      expect(await reopened.stats()).not.toHaveProperty('repairedAtOpen')
      await reopened.close()
    })
  }

  it('a damaged residual record is reported, its rows rank by their codes, and forget of its messages works', async () => {
    const name = 'residuals'
    const indexedDB = await written(name, { passphrase: PASSPHRASE })
    const [residuals] = await raw(indexedDB, name, 'vectorResiduals')
    await put(indexedDB, name, 'vectorResiduals', [{ ...residuals, sealed: flipped(residuals.sealed) }])

    const memory = await createMemory({ name, indexedDB, passphrase: PASSPHRASE })
    await memory.indexed()
    expect((await memory.stats()).lastFailure).toMatchObject({ task: 'load-residuals' })
    const dense = await memory.buildContext('Who is allergic to peanuts?', { strategy: 'dense', budget: 200 })
    expect(dense.text).toContain('allergic to peanuts')
    expect(await memory.forget({ id: 'm1' })).toBe(1)
    expect((await memory.messages()).messages.map((m) => m.id)).toEqual(['m2'])
    await memory.close()
  })
})
