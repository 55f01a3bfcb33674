import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { IDBFactory } from 'fake-indexeddb'
import { afterAll, describe, expect, it } from 'vitest'
import { createMemory, type MessageInput } from '../../src/node'
import { dumpRaw } from '../raw-database'

const root = mkdtempSync(join(tmpdir(), 'sift-clear-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const history: MessageInput[] = [
  'My sister Alma moved to Lisbon last spring.',
  'The boiler in the basement makes a knocking noise every morning.',
  'I am training for a half marathon in October.',
  'Our cat Pixel refuses to eat the new salmon food.',
].flatMap((content, i) => [
  { role: 'user', content, id: `u${i}`, conversationId: i % 2 ? 'odd' : 'even' },
  { role: 'assistant', content: `Noted (${i}).`, id: `a${i}`, conversationId: i % 2 ? 'odd' : 'even' },
])

describe('clear()', () => {
  it('deletes the database and the cache file, resolves with what it removed, and leaves the memory usable', async () => {
    const indexedDB = new IDBFactory()
    const embeddingCacheDir = mkdtempSync(join(root, 'cache-'))
    const options = { name: 'clear', indexedDB, embeddingCacheDir }
    const memory = await createMemory(options)
    await memory.add(history)
    await memory.indexed()
    expect(readdirSync(embeddingCacheDir)).toHaveLength(1)
    expect((await dumpRaw(indexedDB, 'clear')).includes('Lisbon')).toBe(true)

    expect(await memory.clear()).toBe(history.length)
    expect(readdirSync(embeddingCacheDir)).toEqual([])
    expect((await dumpRaw(indexedDB, 'clear')).includes('Lisbon')).toBe(false)
    expect(await memory.stats()).toMatchObject({ messages: 0, sentences: 0, pending: 0, denseIndex: { kind: 'exact' } })
    expect(await memory.messages()).toEqual({ messages: [] })
    expect((await memory.buildContext('Lisbon', { strategy: 'full' })).items).toEqual([])
    expect(await memory.findForgettable('forget that my sister moved to Lisbon')).toEqual([])
    // Ids are free again, and the history starts over.
    await memory.add({ role: 'user', content: 'The lighthouse keeper waved at the ferry.', id: 'u0' })
    await memory.indexed()
    expect((await memory.messages()).messages.map((m) => [m.id, m.seq])).toEqual([['u0', 1]])
    expect((await memory.buildContext('lighthouse ferry', { strategy: 'dense' })).text).toContain('lighthouse keeper')
    expect(readdirSync(embeddingCacheDir)).toHaveLength(1)
    await memory.close()

    const reopened = await createMemory(options)
    expect((await reopened.buildContext('', { strategy: 'full' })).items.map((i) => i.messageId)).toEqual(['u0'])
    await reopened.close()
  })

  it('a context or a forgettable match asked for as clear() starts is not reported as a model failure', async () => {
    const memory = await createMemory({ name: 'clear-racing', indexedDB: new IDBFactory() })
    const strict = await createMemory({ name: 'clear-racing-strict', indexedDB: new IDBFactory(), strictRanking: true })
    for (const each of [memory, strict]) {
      await each.add(history)
      await each.indexed()
    }
    for (let round = 0; round < 3; round++) {
      const [context] = await Promise.all([memory.buildContext(`Where does Alma live? ${round}`), memory.clear()])
      expect(context.stats.ranking).toBe('hybrid')
      expect(context.stats.degraded).toBeUndefined()
      const [strictContext, matches] = await Promise.all([
        strict.buildContext(`Where does Alma live? ${round}`),
        strict.findForgettable(`forget that Alma moved ${round}`),
        strict.clear(),
      ])
      expect(strictContext.stats.ranking).toBe('hybrid')
      expect(Array.isArray(matches)).toBe(true)
    }
    await memory.close()
    await strict.close()
  })

  it('shares one clear among concurrent calls; a call queued behind it runs on the empty memory', async () => {
    const memory = await createMemory({ name: 'clear-concurrent', indexedDB: new IDBFactory() })
    await memory.add(history)
    const [first, second, added] = await Promise.all([
      memory.clear(),
      memory.clear(),
      memory.add({ role: 'user', content: 'After the clear.', id: 'after' }),
    ])
    expect([first, second]).toEqual([history.length, history.length])
    expect(added).toEqual(['after'])
    expect((await memory.messages()).messages.map((m) => m.id)).toEqual(['after'])
    expect(await memory.clear()).toBe(1)
    await memory.close()
    await expect(memory.clear()).rejects.toMatchObject({ code: 'CLOSED' })
  })
})
