// export() and import() on the Node engine (real model, fake-indexeddb): a round trip keeps every message as it was,
// an encrypted export needs its passphrase, and every kind of bad data is refused with where it is, storing nothing.
import fc from 'fast-check'
import { IDBFactory } from 'fake-indexeddb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createMemory,
  SiftError,
  type EncryptedSiftExport,
  type IndexProgress,
  type Memory,
  type MessageInput,
  type SiftExport,
} from '../../src/node'
import { putRaw } from '../raw-database'

const DAY = 86_400_000
const T0 = 1_700_000_000_000

function history(): MessageInput[] {
  return [
    {
      role: 'user',
      content: 'My sister Alma moved to Lisbon last spring. She teaches violin there.',
      conversationId: 'family',
      id: 'f1',
      timestamp: T0,
    },
    {
      role: 'assistant',
      content: 'Lisbon is lovely in spring!',
      conversationId: 'family',
      id: 'f2',
      timestamp: T0 + 1000,
    },
    {
      role: 'user',
      content: 'The boiler in the basement knocks every morning. A plumber comes on Thursday.',
      conversationId: 'house',
      timestamp: T0 + DAY,
    },
    // Dated before the messages added earlier: contexts put it first, an import must too.
    {
      role: 'user',
      content: 'We bought the house with the noisy boiler in March.',
      conversationId: 'house',
      id: 'h0',
      timestamp: T0 - 30 * DAY,
    },
    { role: 'system', content: '', conversationId: 'house', id: 'empty', timestamp: T0 + 2 * DAY },
    { role: 'user', content: 'Same second, added later.', conversationId: 'family', id: 'f3', timestamp: T0 + 1000 },
  ]
}

const REQUEST = 'When is the plumber coming for the boiler, and where does Alma teach violin?'

/** What must not change when an import is refused: the counts, every stored message, and a lexical context. */
async function snapshot(memory: Memory) {
  const { messages, sentences } = await memory.stats()
  const stored = ((await memory.export()) as SiftExport).messages
  const context = await memory.buildContext(REQUEST, { strategy: 'lexical', budget: 400 })
  return { messages, sentences, stored, context: { text: context.text, items: context.items } }
}

async function rejection(promise: Promise<unknown>): Promise<SiftError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SiftError)
  return error as SiftError
}

function plainFile(messages: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { format: 'sift-memory', version: 1, exportedAt: new Date(T0).toISOString(), messages, ...extra }
}

const message = (id: string, content = `Message ${id} about gardening.`) => ({
  id,
  conversationId: 'c',
  role: 'user',
  content,
  timestamp: T0,
})

describe('export and import', () => {
  let source: Memory
  let file: SiftExport
  const opened: Memory[] = []
  const open = async (options: Parameters<typeof createMemory>[0] = {}) => {
    const memory = await createMemory(options)
    opened.push(memory)
    return memory
  }

  beforeAll(async () => {
    source = await open()
    await source.add(history())
    file = (await source.export()) as SiftExport
  })

  afterAll(async () => {
    for (const memory of opened) await memory.close()
  })

  it('exports every message in the order of add, with ids, conversations and timestamps, and no vectors', async () => {
    expect(file).toMatchObject({ format: 'sift-memory', version: 1 })
    expect(Date.parse(file.exportedAt)).not.toBeNaN()
    const given = history()
    expect(file.messages).toHaveLength(given.length)
    file.messages.forEach((m, i) => {
      expect(Object.keys(m).sort()).toEqual(['content', 'conversationId', 'id', 'role', 'timestamp'])
      expect(m).toMatchObject({
        role: given[i].role,
        content: given[i].content,
        conversationId: given[i].conversationId,
        timestamp: given[i].timestamp,
      })
      if (given[i].id) expect(m.id).toBe(given[i].id)
    })
  })

  it('round-trips through JSON into a fresh memory: same messages, ids, timestamps, conversations and lexical context', async () => {
    const target = await open()
    const result = await target.import(JSON.parse(JSON.stringify(file)))
    const stats = await source.stats()
    expect(result).toEqual({ messages: stats.messages, sentences: stats.sentences })
    expect(((await target.export()) as SiftExport).messages).toEqual(file.messages)
    for (const conversationId of [undefined, 'house']) {
      const options = { strategy: 'lexical', budget: 300, conversationId } as const
      const [before, after] = [await source.buildContext(REQUEST, options), await target.buildContext(REQUEST, options)]
      expect(after.text).toBe(before.text)
      expect(after.items).toEqual(before.items)
    }
    const full = await target.buildContext('', { strategy: 'full', conversationId: 'house' })
    expect(full.items.map((item) => item.messageId).slice(0, 1)).toEqual(['h0'])
  })

  it('takes the export as JSON text too', async () => {
    const target = await open()
    expect((await target.import(JSON.stringify(file))).messages).toBe(file.messages.length)
    expect(((await target.export()) as SiftExport).messages).toEqual(file.messages)
  })

  it('exports one conversation when asked', async () => {
    const house = (await source.export({ conversationId: 'house' })) as SiftExport
    expect(house.messages.map((m) => m.id)).toEqual(
      file.messages.filter((m) => m.conversationId === 'house').map((m) => m.id),
    )
    expect(house.messages.length).toBe(3)
    expect(((await source.export({ conversationId: 'nobody' })) as SiftExport).messages).toEqual([])
  })

  it('refuses bad export options with INVALID_INPUT', async () => {
    expect((await rejection(source.export({ conversationId: '' }))).code).toBe('INVALID_INPUT')
    expect((await rejection(source.export({ passphrase: 42 as unknown as string }))).message).toContain(
      'options.passphrase',
    )
  })

  it('encrypts with a passphrase, imports with it, and refuses a wrong passphrase or altered data with WRONG_KEY', async () => {
    const sealed = (await source.export({ passphrase: 'correct horse battery staple' })) as EncryptedSiftExport
    expect(Object.keys(sealed).sort()).toEqual(['encrypted', 'format', 'version'])
    expect(sealed.encrypted).toMatchObject({ kdf: 'PBKDF2-SHA-256', iterations: 600_000 })
    const json = JSON.stringify(sealed)
    // Words of six letters and more: a short one (an id like 'f1') turns up in random base64 by chance.
    for (const word of ['Lisbon', 'boiler', 'plumber', 'family']) expect(json).not.toContain(word)
    // A fresh salt and nonce each time: two exports of the same history differ.
    const again = (await source.export({ passphrase: 'correct horse battery staple' })) as EncryptedSiftExport
    expect(again.encrypted.salt).not.toBe(sealed.encrypted.salt)
    expect(again.encrypted.iv).not.toBe(sealed.encrypted.iv)

    const target = await open()
    await target.add({ role: 'user', content: 'Already here before the import.', id: 'before' })
    const before = await snapshot(target)
    const wrong = await rejection(target.import(sealed, { passphrase: 'Correct horse battery staple' }))
    expect(wrong.code).toBe('WRONG_KEY')
    const data = sealed.encrypted.data
    const flipped = `${data[0] === 'A' ? 'B' : 'A'}${data.slice(1)}`
    expect(
      (
        await rejection(
          target.import(
            { ...sealed, encrypted: { ...sealed.encrypted, data: flipped } },
            { passphrase: 'correct horse battery staple' },
          ),
        )
      ).code,
    ).toBe('WRONG_KEY')
    expect(await snapshot(target)).toEqual(before)

    expect(await target.import(JSON.stringify(sealed), { passphrase: 'correct horse battery staple' })).toMatchObject({
      messages: file.messages.length,
    })
    expect(((await target.export()) as SiftExport).messages).toEqual([...before.stored, ...file.messages])
  })

  it('exports a memory encrypted at rest in clear text, which a plain memory imports as it was', async () => {
    const atRest = await open({ passphrase: 'at-rest passphrase' })
    await atRest.add(history())
    const exported = (await atRest.export()) as SiftExport
    expect(exported.messages).toEqual(
      file.messages.map((m, i) => (history()[i].id ? m : { ...m, id: exported.messages[i].id })),
    )
    const target = await open()
    await target.import(exported)
    expect(((await target.export()) as SiftExport).messages).toEqual(exported.messages)
  })

  it('accepts a plain [{ role, content, timestamp? }] array, in its order, with generated ids and the default conversation', async () => {
    const target = await open()
    const result = await target.import([
      { role: 'user', content: 'I keep bees on the roof.' },
      { role: 'assistant', content: 'How many hives do you have?', timestamp: '2024-05-01T10:00:00Z' },
      { role: 'user', content: 'Three hives.', id: 'bees-3', conversationId: 'hobbies', timestamp: T0 },
    ])
    expect(result).toEqual({ messages: 3, sentences: 3 })
    const { messages } = (await target.export()) as SiftExport
    expect(messages.map((m) => m.content)).toEqual([
      'I keep bees on the roof.',
      'How many hives do you have?',
      'Three hives.',
    ])
    expect(messages.map((m) => m.conversationId)).toEqual(['default', 'default', 'hobbies'])
    expect(messages[0].id).toMatch(/^[0-9a-f-]{36}$/)
    expect(messages[1].timestamp).toBe(Date.parse('2024-05-01T10:00:00Z'))
    expect(messages[2]).toMatchObject({ id: 'bees-3', timestamp: T0 })
  })

  describe('refuses bad data, saying where, and stores nothing', () => {
    let target: Memory
    beforeAll(async () => {
      target = await open({ maxMessageChars: 200 })
      await target.add([
        {
          role: 'user',
          content: 'The boiler needs a plumber on Thursday.',
          id: 'taken',
          conversationId: 'house',
          timestamp: T0,
        },
        {
          role: 'assistant',
          content: 'Alma teaches violin in Lisbon.',
          id: 'other',
          conversationId: 'family',
          timestamp: T0 + 1,
        },
      ])
    })

    const cases: [string, () => unknown, string, { passphrase?: string }?][] = [
      ['a number', () => 42, 'data must be a Sift export'],
      ['null', () => null, 'data must be a Sift export'],
      ['text that is not JSON', () => '{"format": "sift-memory",', 'data is a string but not valid JSON'],
      ['another format', () => ({ ...plainFile([]), format: 'chat-export' }), "data.format must be 'sift-memory'"],
      [
        'a newer version',
        () => plainFile([], { version: 2 }),
        'data.version is 2: the export was written by a newer Sift',
      ],
      [
        'a version that is not a positive integer',
        () => plainFile([], { version: '1' }),
        'data.version must be a positive integer',
      ],
      [
        'messages that are not an array',
        () => plainFile([], { messages: { 0: message('m0') } }),
        'data.messages must be an array',
      ],
      [
        'a message that is not an object',
        () => plainFile([message('m0'), 'hello']),
        'data.messages[1] must be an object',
      ],
      [
        'a missing content',
        () => plainFile([message('m0'), { ...message('m1'), content: undefined }]),
        'data.messages[1].content is missing',
      ],
      [
        'a missing timestamp in an export',
        () => plainFile([{ ...message('m0'), timestamp: undefined }]),
        'data.messages[0].timestamp is missing',
      ],
      [
        'a missing content in an array',
        () => [{ role: 'user', content: 'ok' }, { role: 'user' }],
        'data[1].content must be a string',
      ],
      [
        'a content of the wrong type',
        () => plainFile([{ ...message('m0'), content: ['hi'] }]),
        'data.messages[0].content must be a string',
      ],
      [
        'a role of the wrong type',
        () => plainFile([message('m0'), message('m1'), { ...message('m2'), role: 7 }]),
        'data.messages[2].role must be a non-empty string',
      ],
      [
        'a conversation id of the wrong type',
        () => plainFile([{ ...message('m0'), conversationId: 3 }]),
        'data.messages[0].conversationId must be a non-empty string',
      ],
      [
        'an id with a line break',
        () => [{ role: 'user', content: 'x', id: 'a\nb' }],
        'data[0].id must not contain control characters',
      ],
      [
        'a bad timestamp',
        () => plainFile([message('m0'), { ...message('m1'), timestamp: 'next Tuesday' }]),
        'data.messages[1].timestamp must be epoch milliseconds',
      ],
      [
        'a timestamp a Date cannot hold',
        () => [{ role: 'user', content: 'x', timestamp: 1e20 }],
        'data[0].timestamp must be epoch milliseconds',
      ],
      [
        'an id twice in the file',
        () => plainFile([message('m0'), message('m1'), message('m0')]),
        'data.messages[2].id "m0" repeats the id of data.messages[0]',
      ],
      [
        'an id already stored',
        () => plainFile([message('m0'), message('taken')]),
        'data.messages[1].id "taken" is already stored',
      ],
      [
        'an id already stored, in an array',
        () => [{ role: 'user', content: 'x', id: 'other' }],
        'data[0].id "other" is already stored',
      ],
      [
        'a content over maxMessageChars',
        () => plainFile([message('m0'), message('m1', 'x'.repeat(201))]),
        'data.messages[1].content has 201 characters, more than the limit of 200',
      ],
      [
        'an encrypted export without its passphrase',
        () => plainFile([], { messages: undefined, encrypted: sealedFields() }),
        'data is an encrypted Sift export: pass the passphrase',
      ],
      [
        'an encrypted export with an unknown kdf',
        () => plainFile([], { messages: undefined, encrypted: { ...sealedFields(), kdf: 'scrypt' } }),
        "data.encrypted.kdf must be 'PBKDF2-SHA-256'",
        { passphrase: 'p' },
      ],
      [
        'an encrypted export asking for too many iterations',
        () => plainFile([], { messages: undefined, encrypted: { ...sealedFields(), iterations: 1e12 } }),
        'data.encrypted.iterations must be an integer from 1 to',
        { passphrase: 'p' },
      ],
      [
        'an encrypted export whose data is not base64',
        () => plainFile([], { messages: undefined, encrypted: { ...sealedFields(), data: 'not base64!' } }),
        'data.encrypted.data must be a non-empty base64 string',
        { passphrase: 'p' },
      ],
    ]

    it.each(cases)('%s', async (_, data, where, options) => {
      const before = await snapshot(target)
      const error = await rejection(target.import(data(), options))
      expect(error.code).toBe('INVALID_IMPORT')
      expect(error.message).toContain(where)
      expect(error.message).toContain('Nothing was stored')
      expect(await snapshot(target)).toEqual(before)
    })

    it('refuses a bad passphrase option with INVALID_INPUT', async () => {
      expect((await rejection(target.import(plainFile([message('m0')]), { passphrase: '' }))).code).toBe(
        'INVALID_INPUT',
      )
    })
  })

  it('answers any data with a result or INVALID_IMPORT, never another error, and export/import after close with CLOSED', async () => {
    const target = await open()
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.anything(),
          fc.array(fc.record({ role: fc.string(), content: fc.anything() }, { requiredKeys: [] })),
        ),
        async (data) => {
          const error = await target.import(data).then(
            () => undefined,
            (e: unknown) => e,
          )
          if (error !== undefined) expect((error as SiftError).code).toBe('INVALID_IMPORT')
        },
      ),
      { numRuns: 200 },
    )
    await target.close()
    expect((await rejection(target.export())).code).toBe('CLOSED')
    expect((await rejection(target.import([]))).code).toBe('CLOSED')
  })

  it('stores all or nothing: a write that fails on the third message leaves none of them stored', async () => {
    const indexedDB = new IDBFactory()
    const target = await open({ name: 'atomic', indexedDB })
    await target.add([message('a'), message('b')])
    const before = await snapshot(target)
    // Not a record Sift would write: it holds the seq (unique) the import's third message gets, so that put fails.
    await putRaw(indexedDB, 'atomic', 'messages', [{ id: 'squatter', seq: 5 }])
    const error = await rejection(target.import(plainFile(['m0', 'm1', 'm2', 'm3'].map((id) => message(id)))))
    expect(error.code).toBe('STORAGE_FAILED')
    expect(await snapshot(target)).toEqual(before)
    const reopened = await open({ name: 'atomic', indexedDB })
    expect(((await reopened.export()) as SiftExport).messages.map((m) => m.id)).toEqual(['a', 'b'])
  })

  it('reports progress while the imported sentences are embedded', async () => {
    const events: IndexProgress[] = []
    const target = await open({ onProgress: (progress) => events.push(progress) })
    await target.indexed()
    const messages = Array.from({ length: 200 }, (_, i) => ({
      ...message(
        `p${i}`,
        `Sentence ${i} names the ${['red', 'blue', 'green'][i % 3]} kite. The wind took kite number ${i} away. We found it by tree ${i}.`,
      ),
      timestamp: T0 + i,
    }))
    const { sentences } = await target.import(plainFile(messages))
    expect(sentences).toBe(600)
    await target.indexed()
    expect(events.length).toBeGreaterThanOrEqual(3)
    for (let i = 1; i < events.length; i++) expect(events[i].done).toBeGreaterThan(events[i - 1].done)
    expect(events.at(-1)).toMatchObject({ done: 600, total: 600, pending: 0 })
    expect((await target.stats()).pending).toBe(0)
  })
})

/** The fields of an encrypted export, well formed (a real one's shape), for tests that break one of them. */
function sealedFields() {
  return {
    kdf: 'PBKDF2-SHA-256',
    iterations: 600_000,
    salt: 'AAAAAAAAAAAAAAAAAAAAAA==',
    iv: 'AAAAAAAAAAAAAAAA',
    data: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  }
}
