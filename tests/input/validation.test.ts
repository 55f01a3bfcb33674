import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemory, SiftError, type Memory } from '../../src/node'

/** The code a call rejects with; fails the test if it resolves or rejects with anything but a SiftError. */
async function codeOf(call: () => Promise<unknown>): Promise<string> {
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SiftError)
  return (error as SiftError).code
}

/** Any value that is not a string, including ones that look like numbers or dates. */
const notAString = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.object(),
  fc.array(fc.anything()),
  fc.date(),
  fc.constant(() => 'x'),
)
/** Strings with control characters and lone surrogates among ordinary ones. */
const rawText = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\u0000', '\u0007', '\n', '\t', '\u001b', '\u0085', '\ud800', '\udfff', '😀'),
    fc.constantFrom('a', 'B', ' ', '.', '?', 'é'),
  ),
  maxLength: 40,
})
const labelWithControl = fc
  .tuple(
    fc.string({ maxLength: 5 }),
    fc.constantFrom('\u0000', '\n', '\r', '\u001f', '\u007f', '\u009b', '\ud800', '\udc00', 'a\ud83d'),
    fc.string({ maxLength: 5 }),
  )
  .map(([a, bad, b]) => `x${a}${bad}${b}`)

describe('input validation through the Node engine', () => {
  let memory: Memory
  let small: Memory
  beforeAll(async () => {
    memory = await createMemory({ name: 'input-validation' })
    small = await createMemory({ name: 'input-validation-small', maxMessageChars: 1000, maxRequestChars: 500 })
  })
  afterAll(async () => {
    await memory?.close()
    await small?.close()
  })

  async function storedMessages(): Promise<number> {
    return (await memory.stats()).messages
  }

  it('refuses a non-string or missing role or content with INVALID_INPUT, storing nothing of the batch', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('role', 'content'), notAString, fc.nat(3), async (field, value, position) => {
        const before = await storedMessages()
        const batch = [0, 1, 2, 3].map((i) => ({ role: 'user', content: `valid ${i}` }) as Record<string, unknown>)
        if (value === undefined) delete batch[position][field]
        else batch[position][field] = value
        expect(await codeOf(() => memory.add(batch as never))).toBe('INVALID_INPUT')
        expect(await storedMessages()).toBe(before)
      }),
      { numRuns: 100 },
    )
  })

  it('refuses anything but a message object or an array of them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          notAString.filter((v) => !Array.isArray(v) || v.length > 0),
          fc.string(),
        ),
        async (value) => {
          const before = await storedMessages()
          expect(await codeOf(() => memory.add(value as never))).toBe('INVALID_INPUT')
          expect(await storedMessages()).toBe(before)
        },
      ),
      { numRuns: 100 },
    )
  })

  it('refuses control characters and lone surrogates in role, id and conversationId, storing nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('role', 'id', 'conversationId'), labelWithControl, async (field, label) => {
        const before = await storedMessages()
        const error = await memory
          .add([
            { role: 'user', content: 'fine' },
            { role: 'user', content: 'fine', [field]: label },
          ])
          .then(
            () => undefined,
            (e: unknown) => e,
          )
        expect(error).toMatchObject({
          code: 'INVALID_INPUT',
          message: expect.stringContaining(`message[1].${field} must not contain control characters`),
        })
        expect(await storedMessages()).toBe(before)
      }),
      { numRuns: 100 },
    )
  })

  it('stores content with control characters and lone surrogates faithfully (NEL as a line break), and embeds it', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(rawText, async (given) => {
        const conversationId = `raw${run++}`
        const [id] = await memory.add({ role: 'user', content: given, conversationId })
        // NEL is one of the line breaks stored as '\n' (tests/input/forged-lines.test.ts); every other character is kept.
        const content = given.replaceAll('\u0085', '\n')
        expect((await memory.messages({ conversationId })).messages[0].content).toBe(content)
        const ctx = await memory.buildContext('x', { conversationId, strategy: 'full' })
        for (const item of ctx.items) {
          expect(item.messageId).toBe(id)
          expect(content.slice(item.start, item.end)).toBe(item.text)
        }
        expect(
          ctx.items
            .map((item) => item.text)
            .join('')
            .replace(/\s/g, ''),
        ).toBe(content.replace(/\s/g, ''))
      }),
      { numRuns: 100 },
    )
    await memory.indexed()
    expect((await memory.stats()).pending).toBe(0)
    const dense = await memory.buildContext('a\ud800 é\u0000', { strategy: 'hybrid' })
    expect(dense.stats.pending).toBe(0)
  })

  it('refuses timestamps a Date cannot hold, in add and in forget', async () => {
    for (const timestamp of [
      8.64e15 + 1,
      -8.64e15 - 1,
      1e300,
      Infinity,
      NaN,
      '+275760-09-13T00:00:00.001Z',
      new Date(NaN),
    ]) {
      expect(await codeOf(() => memory.add({ role: 'user', content: 'when?', timestamp }))).toBe('INVALID_INPUT')
      expect(await codeOf(() => memory.forget({ before: timestamp }))).toBe('INVALID_INPUT')
    }
    const [id] = await memory.add({ role: 'user', content: 'at the edge of time', timestamp: 8.64e15 })
    expect(await memory.forget({ before: 8.64e15 })).toBeGreaterThan(0)
    expect(await memory.forget({ id })).toBe(1)
  })

  it('takes dates as epoch milliseconds, Dates and ISO 8601 strings only, in add, import and forget', async () => {
    for (const timestamp of ['March 7, 2020', '0', '7', '2020/03/07', 'Sat Mar 07 2020', ' 2020-03-07', '2020-02-30']) {
      const message = { role: 'user', content: 'when?', timestamp }
      expect(await codeOf(() => memory.add(message))).toBe('INVALID_INPUT')
      expect(await codeOf(() => memory.import([message]))).toBe('INVALID_IMPORT')
      expect(await codeOf(() => memory.forget({ after: timestamp }))).toBe('INVALID_INPUT')
    }
    const accepted: [string | number | Date, number][] = [
      ['2020-03-07', Date.UTC(2020, 2, 7)],
      ['2020-03-07T10:00:00Z', Date.UTC(2020, 2, 7, 10)],
      ['2020-03-07T10:00:00.125+02:00', Date.UTC(2020, 2, 7, 8, 0, 0, 125)],
      ['+002020-03-07T00:00:00Z', Date.UTC(2020, 2, 7)],
      [new Date(Date.UTC(2020, 2, 7)), Date.UTC(2020, 2, 7)],
      [0, 0],
    ]
    for (const [timestamp, ms] of accepted) {
      const [id] = await memory.add({ role: 'user', content: 'dated', timestamp, conversationId: 'dated' })
      const { messages } = await memory.messages({ conversationId: 'dated', newestFirst: true, limit: 1 })
      expect(messages[0]).toMatchObject({ id, timestamp: ms })
    }
    expect(await memory.forget({ conversationId: 'dated' })).toBe(accepted.length)
  })

  it('refuses budgets that are not positive integers (NaN, Infinity, strings, fractions) and unknown strategies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom(NaN, Infinity, -Infinity, 0, -1, 0.5, '2000', null),
          fc.double().filter((d) => !Number.isInteger(d) || d <= 0),
          fc.string(),
          fc.object(),
        ),
        async (budget) => {
          expect(await codeOf(() => memory.buildContext('hello', { budget: budget as never }))).toBe('INVALID_INPUT')
        },
      ),
      { numRuns: 100 },
    )
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string().filter((s) => !['hybrid', 'dense', 'lexical', 'head', 'tail', 'full'].includes(s)),
          notAString.filter((v) => v !== undefined),
        ),
        async (strategy) => {
          expect(await codeOf(() => memory.buildContext('hello', { strategy: strategy as never }))).toBe(
            'INVALID_INPUT',
          )
        },
      ),
      { numRuns: 100 },
    )
    for (const options of [null, 'budget', 42, [2000]])
      expect(await codeOf(() => memory.buildContext('hello', options as never))).toBe('INVALID_INPUT')
  })

  it('answers a conversation with nothing stored with an empty context that says so', async () => {
    for (const strategy of ['hybrid', 'lexical', 'tail', 'full'] as const) {
      const ctx = await memory.buildContext('hello', { conversationId: 'never-used', strategy, recentTurns: 3 })
      expect(ctx).toMatchObject({ text: '', items: [], stats: { historySentences: 0, historyChars: 0, used: 0 } })
    }
  })

  it('takes a message at maxMessageChars and refuses one character more, naming the limit and the option, storing nothing', async () => {
    const before = (await small.stats()).messages
    await small.add({ role: 'user', content: 'a'.repeat(1000) })
    const error = await small
      .add([
        { role: 'user', content: 'ok' },
        { role: 'user', content: 'a'.repeat(1001) },
      ])
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    expect(error).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(
        /message\[1\]\.content has 1001 characters, more than the limit of 1000 \(MemoryOptions\.maxMessageChars\)/,
      ),
    })
    expect((await small.stats()).messages).toBe(before + 1)
  })

  it('has a default limit of 100,000 characters per message, so a 5 MB message is refused at once', async () => {
    const before = await storedMessages()
    await memory.add({ role: 'user', content: 'word '.repeat(20_000), conversationId: 'big' })
    expect(await codeOf(() => memory.add({ role: 'user', content: 'x'.repeat(100_001) }))).toBe('INVALID_INPUT')
    // Refused by the length check, which comes before any splitting or storing (the message names the length).
    const huge = await memory.add({ role: 'user', content: 'x'.repeat(5 * 1024 * 1024) }).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(huge).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('has 5242880 characters, more than the limit of 100000'),
    })
    expect(await storedMessages()).toBe(before + 1)
  })

  it('takes a request at maxRequestChars (queries counted) and refuses one character more; 100,000 by default', async () => {
    await small.buildContext('q'.repeat(300), { queries: ['r'.repeat(200)], strategy: 'lexical' })
    const error = await small.buildContext('q'.repeat(300), { queries: ['r'.repeat(201)] }).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('501 characters, more than the limit of 500 (MemoryOptions.maxRequestChars)'),
    })
    const words = 'where did we go sailing last summer with the kids '
    const request = words.repeat(Math.ceil(100_000 / words.length)).slice(0, 100_000)
    const ctx = await memory.buildContext(request, { strategy: 'hybrid', budget: 2000 })
    expect(ctx.stats.used).toBeLessThanOrEqual(2000)
    expect(await codeOf(() => memory.buildContext(`${request}!`))).toBe('INVALID_INPUT')
  })

  it('refuses limits that are not positive integers or Infinity when the memory is created', async () => {
    for (const value of [0, -1, 1.5, NaN, '1000', null]) {
      expect(await codeOf(() => createMemory({ name: 'bad-limit', maxMessageChars: value as never }))).toBe(
        'INVALID_INPUT',
      )
      expect(await codeOf(() => createMemory({ name: 'bad-limit', maxRequestChars: value as never }))).toBe(
        'INVALID_INPUT',
      )
    }
  })

  it('refuses embedding options the embedder does not implement when the memory is created', async () => {
    for (const [embedding, named] of [
      [{ pooling: 'max' }, /embedding\.pooling must be one of 'none', 'mean', 'cls'/],
      [{ pooling: 'CLS' }, /embedding\.pooling/],
      [{ normalize: 'yes' }, /embedding\.normalize must be a boolean/],
      [{ queryPrefix: 5 }, /embedding\.queryPrefix must be a string/],
      [{ documentPrefix: null }, /embedding\.documentPrefix must be a string/],
      [{ dtype: 'int4' }, /embedding\.dtype must be one of/],
      ['mean', /embedding must be an object/],
    ] as const) {
      const error = await createMemory({ name: 'bad-embedding', embedding: embedding as never }).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(named) })
    }
  })

  it('rejects every call after close() with CLOSED, whatever its arguments', async () => {
    const closing = await createMemory({ name: 'input-validation-closed' })
    await closing.close()
    await fc.assert(
      fc.asyncProperty(fc.anything(), fc.anything(), async (a, b) => {
        expect(await codeOf(() => closing.add(a as never))).toBe('CLOSED')
        expect(await codeOf(() => closing.buildContext(a as never, b as never))).toBe('CLOSED')
        expect(await codeOf(() => closing.forget(a as never))).toBe('CLOSED')
        expect(await codeOf(() => closing.stats())).toBe('CLOSED')
        expect(await codeOf(() => closing.indexed())).toBe('CLOSED')
      }),
      { numRuns: 50 },
    )
  })
})
