// Arguments that cannot be read as plain data: arrays with holes, getters and Proxy traps that throw. Each is refused as the app's mistake (INVALID_INPUT, or INVALID_IMPORT for `import`'s data),
// never as a Sift bug (INTERNAL) or an error of another kind, and nothing is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemory, SiftError, type Memory } from '../../src/node'

/** An object whose `key` has a getter that throws, beside valid message fields. */
function throwingAt(key: string, base: Record<string, unknown> = { role: 'user', content: 'x' }): object {
  return Object.defineProperty({ ...base }, key, {
    get() {
      throw new Error(`the ${key} getter threw`)
    },
    enumerable: true,
  })
}

/** A Proxy of `base` whose every trap throws. */
function hostileProxy(base: object = { role: 'user', content: 'x' }): object {
  const trap = () => {
    throw new Error('a Proxy trap threw')
  }
  return new Proxy(base, { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap })
}

async function refusal(call: () => Promise<unknown>): Promise<SiftError> {
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SiftError)
  return error as SiftError
}

const holes = <T>(...items: (T | undefined)[]): T[] => {
  const array: T[] = []
  items.forEach((item, i) => {
    if (item !== undefined) array[i] = item
  })
  array.length = items.length
  return array
}

describe('arguments that cannot be read as plain data', () => {
  let memory: Memory
  beforeAll(async () => {
    memory = await createMemory({ name: 'unreadable-input' })
  })
  afterAll(() => memory?.close())

  const message = (content: string) => ({ role: 'user', content })
  const exported = (messages: unknown[]) => ({ format: 'sift-memory', version: 1, messages })

  it('refuses arrays with holes (sparse arrays) with INVALID_INPUT or INVALID_IMPORT, naming the hole', async () => {
    const cases: [() => Promise<unknown>, string, RegExp][] = [
      [() => memory.add(holes(message('a'), undefined, message('b'))), 'INVALID_INPUT', /message\[1\]/],
      [() => memory.import(holes(undefined, message('a'))), 'INVALID_IMPORT', /data\[0\]/],
      [
        () =>
          memory.import(
            exported(holes({ id: 'x', conversationId: 'c', role: 'user', content: 'a', timestamp: 1 }, undefined)),
          ),
        'INVALID_IMPORT',
        /data\.messages\[1\]/,
      ],
      [() => memory.buildContext('x', { queries: holes('a', undefined, 'b') }), 'INVALID_INPUT', /queries\[1\]/],
      [() => memory.forget({ ids: holes('a', undefined) }), 'INVALID_INPUT', /ids\[1\]/],
    ]
    for (const [call, code, where] of cases) {
      const error = await refusal(call)
      expect(error.code).toBe(code)
      expect(error.message).toMatch(where)
    }
    expect((await memory.stats()).messages).toBe(0)
  })

  it('refuses getters and Proxy traps that throw with INVALID_INPUT (INVALID_IMPORT for import data), the thrown error as cause', async () => {
    const cases: [string, () => Promise<unknown>, string][] = [
      ['add, a getter', () => memory.add(throwingAt('content') as never), 'INVALID_INPUT'],
      ['add, a Proxy', () => memory.add(hostileProxy() as never), 'INVALID_INPUT'],
      ['add, a Proxy array', () => memory.add(hostileProxy([message('a')]) as never), 'INVALID_INPUT'],
      ['buildContext', () => memory.buildContext('x', throwingAt('budget', {}) as never), 'INVALID_INPUT'],
      ['buildContext, a Proxy', () => memory.buildContext('x', hostileProxy({}) as never), 'INVALID_INPUT'],
      ['forget', () => memory.forget(throwingAt('id', {}) as never), 'INVALID_INPUT'],
      ['findForgettable', () => memory.findForgettable('x', throwingAt('limit', {}) as never), 'INVALID_INPUT'],
      ['messages', () => memory.messages(throwingAt('limit', {}) as never), 'INVALID_INPUT'],
      ['export', () => memory.export(throwingAt('conversationId', {}) as never), 'INVALID_INPUT'],
      ['changeKey', () => memory.changeKey(throwingAt('passphrase', {}) as never), 'INVALID_INPUT'],
      ['import options', () => memory.import([message('a')], throwingAt('passphrase', {}) as never), 'INVALID_INPUT'],
      ['import data', () => memory.import([throwingAt('content')]), 'INVALID_IMPORT'],
      ['import, a Proxy', () => memory.import(hostileProxy(exported([]))), 'INVALID_IMPORT'],
    ]
    for (const [what, call, code] of cases) {
      const error = await refusal(call)
      expect({ what, code: error.code }).toEqual({ what, code })
      expect((error.cause as Error)?.message).toMatch(/getter threw|Proxy trap threw/)
    }
    expect((await memory.stats()).messages).toBe(0)
  })

  it('refuses createMemory options that cannot be read with INVALID_INPUT, a SiftError, opening nothing', async () => {
    for (const options of [
      throwingAt('name', {}),
      hostileProxy({}),
      { name: 'unreadable-embedding', embedding: throwingAt('pooling', {}) },
      { name: 'unreadable-embedding', embedding: hostileProxy({}) },
    ]) {
      const error = await refusal(() => createMemory(options as never))
      expect(error.code).toBe('INVALID_INPUT')
      expect(error.message).toContain('createMemory')
    }
  })
})
