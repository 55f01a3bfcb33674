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
    expect(await memory.messages()).toEqual({ messages: [], revision: 0 })
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

/** A call's outcome as plain data: its value (as `read` gives it), or its error's code. */
function outcome<T>(call: Promise<T>, read: (value: T) => unknown = (value) => value): Promise<unknown> {
  return call.then(
    (value) => ({ value: read(value) }),
    (error: { code?: string }) => ({ code: error.code }),
  )
}

async function settled(calls: Record<string, Promise<unknown>>): Promise<Record<string, unknown>> {
  return Object.fromEntries(await Promise.all(Object.entries(calls).map(async ([name, call]) => [name, await call])))
}

describe('clear() is a barrier: calls made after it, without awaiting it, find the memory empty', () => {
  for (const passphrase of [undefined, 'a passphrase long enough for this memory']) {
    const kind = passphrase ? 'encrypted' : 'plain'

    it(`${kind}: every read and every write that finds nothing to change`, async () => {
      const memory = await createMemory({ name: `clear-barrier-${kind}`, indexedDB: new IDBFactory(), passphrase })
      await memory.add(history)
      await memory.pin('u0')
      await memory.setSummary('even', 'Alma moved to Lisbon.', { through: 'a0' })
      const cleared = memory.clear()
      const seen = settled({
        lexical: outcome(memory.buildContext('Where does Alma live?', { strategy: 'lexical' }), (c) => c.text),
        hybrid: outcome(memory.buildContext('Where does Alma live?', { strategy: 'hybrid' }), (c) => c.text),
        tail: outcome(memory.buildContext('Where does Alma live?', { strategy: 'tail' }), (c) => c.text),
        export: outcome(memory.export(), (e) => ('messages' in e ? [e.messages.length, e.pins] : e)),
        messages: outcome(memory.messages(), (p) => p.messages),
        stats: outcome(memory.stats(), (s) => [s.messages, s.sentences]),
        pins: outcome(memory.pins()),
        summary: outcome(memory.summary('even')),
        findForgettable: outcome(memory.findForgettable('forget that my sister moved to Lisbon')),
        indexed: outcome(memory.indexed()),
        forget: outcome(memory.forget({ conversationId: 'even' })),
        unpin: outcome(memory.unpin('u0')),
        pin: outcome(memory.pin('u1')),
        setSummary: outcome(memory.setSummary('odd', 'The boiler knocks.', { through: 'a1' })),
        clearSummary: outcome(memory.clearSummary('even')),
      })
      expect(await cleared).toBe(history.length)
      expect(await seen).toEqual({
        lexical: { value: '' },
        hybrid: { value: '' },
        tail: { value: '' },
        export: { value: [0, undefined] },
        messages: { value: [] },
        stats: { value: [0, 0] },
        pins: { value: [] },
        summary: { value: undefined },
        findForgettable: { value: [] },
        indexed: { value: undefined },
        forget: { value: 0 },
        // What an empty memory answers: there is no message to pin or summarise, and no pin to remove.
        unpin: { code: 'INVALID_INPUT' },
        pin: { code: 'INVALID_INPUT' },
        setSummary: { code: 'INVALID_INPUT' },
        clearSummary: { value: false },
      })
      await memory.close()
    })

    it(`${kind}: the writes that store something, and a new key`, async () => {
      const memory = await createMemory({
        name: `clear-barrier-writes-${kind}`,
        indexedDB: new IDBFactory(),
        passphrase,
      })
      await memory.add(history)
      const cleared = memory.clear()
      const seen = settled({
        add: outcome(memory.add({ role: 'user', content: 'The lighthouse keeper waved.', id: 'u0' })),
        import: outcome(memory.import([{ role: 'user', content: 'The ferry was late.', id: 'u1' }])),
        changeKey: outcome(memory.changeKey({ passphrase: 'another passphrase long enough for it' })),
      })
      expect(await cleared).toBe(history.length)
      expect(await seen).toEqual({
        add: { value: ['u0'] },
        import: { value: { messages: 1, sentences: 1 } },
        changeKey: { value: undefined },
      })
      expect((await memory.messages()).messages.map((m) => m.id)).toEqual(['u0', 'u1'])
      await memory.close()
    })
  }

  it('a clear made after a call that followed another clear clears what that call stored', async () => {
    const memory = await createMemory({ name: 'clear-barrier-twice', indexedDB: new IDBFactory() })
    await memory.add(history)
    const [first, added, second] = await Promise.all([
      memory.clear(),
      memory.add({ role: 'user', content: 'Between the clears.', id: 'between' }),
      memory.clear(),
    ])
    expect([first, added, second]).toEqual([history.length, ['between'], 1])
    expect((await memory.messages()).messages).toEqual([])
    await memory.close()
  })

  it('a clear that fails releases the calls made after it: they are refused, not left waiting', async () => {
    const factory = new IDBFactory()
    let deleting = 'works'
    const indexedDB = new Proxy(factory, {
      get(target, key) {
        if (key === 'deleteDatabase' && deleting === 'fails')
          return () => {
            throw new DOMException('The disk went away.', 'UnknownError')
          }
        const value = Reflect.get(target, key)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    const memory = await createMemory({ name: 'clear-barrier-failing', indexedDB })
    await memory.add(history)
    deleting = 'fails'
    const cleared = outcome(memory.clear())
    const after = settled({
      buildContext: outcome(memory.buildContext('Alma', { strategy: 'lexical' })),
      pins: outcome(memory.pins()),
      add: outcome(memory.add({ role: 'user', content: 'After the failed clear.' })),
    })
    expect(await cleared).toEqual({ code: 'STORAGE_FAILED' })
    expect(await after).toEqual({ buildContext: { code: 'CLOSED' }, pins: { code: 'CLOSED' }, add: { code: 'CLOSED' } })
    await memory.close()
  })
})
