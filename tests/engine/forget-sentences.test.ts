// forget({ sentences }): the record edit, the checks on the offsets, and an encrypted memory read raw.
import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { createMemory, SiftError } from '../../src/node'
import { sentencesOf, toMessageRecord } from '../../worker/store/message-record'
import { isMessageRecord } from '../../worker/store/record-check'
import { withoutSentences } from '../../worker/store/sentence-removal'
import { dumpRaw } from '../raw-database'

const CONTENT = 'First I went home.  Then my uncle Bartholomew called!\nIn the end we ate soup. '
const record = toMessageRecord(
  { id: 'm', seq: 3, role: 'user', content: CONTENT, conversationId: 'c', timestamp: 1 },
  10,
)
const spanOf = (text: string) => ({ start: CONTENT.indexOf(text), end: CONTENT.indexOf(text) + text.length })

describe('withoutSentences', () => {
  it.each([
    ['Then my uncle Bartholomew called!', 'First I went home.  In the end we ate soup. ', [11]],
    ['First I went home.', 'Then my uncle Bartholomew called!\nIn the end we ate soup. ', [10]],
    ['In the end we ate soup.', 'First I went home.  Then my uncle Bartholomew called! ', [12]],
  ])('cuts %j with the space that parted it, and keeps the other sentences and their sids', (text, content, sids) => {
    const removal = withoutSentences(record, [spanOf(text)])
    expect(removal.sids).toEqual(sids)
    const edited = removal.record!
    expect(edited.content).toBe(content)
    expect(isMessageRecord(edited)).toBe(true)
    expect(edited.spans).toHaveLength(record.spans.length)
    const left = sentencesOf(edited)
    expect(left.map((s) => s.text)).toEqual(sentencesOf(record).flatMap((s) => (s.text === text ? [] : [s.text])))
    expect(left.map((s) => s.sid)).toEqual([10, 11, 12].filter((sid) => !sids.includes(sid)))
    expect(left.map((s) => s.index)).toEqual([0, 1])
    for (const s of left) expect(edited.content.slice(s.start, s.end)).toBe(s.text)
  })

  it('removes two at once, a sentence already removed is no sentence, and a message left with none goes whole', () => {
    const edited = withoutSentences(record, [spanOf('First I went home.'), spanOf('In the end we ate soup.')]).record!
    expect(edited.content).toBe('Then my uncle Bartholomew called! ')
    const [left] = sentencesOf(edited)
    expect(() => withoutSentences(edited, [spanOf('First I went home.')])).toThrow(/is not a sentence of the message/)
    expect(withoutSentences(edited, [{ start: left.start, end: left.end }])).toEqual({
      record: undefined,
      sids: [11],
    })
  })

  it('refuses offsets that are not a sentence as stored', () => {
    for (const span of [
      { start: 0, end: 5 },
      { start: 0, end: CONTENT.length },
    ])
      expect(() => withoutSentences(record, [span])).toThrow(SiftError)
  })
})

describe('forget({ sentences })', () => {
  it('refuses malformed or stale offsets with INVALID_INPUT and removes nothing; skips a message no longer stored', async () => {
    const memory = await createMemory({ name: 'forget-sentences-bad', indexedDB: new IDBFactory() })
    await memory.add({ role: 'user', content: CONTENT, id: 'm' })
    const good = { messageId: 'm', ...spanOf('First I went home.') }
    for (const sentences of [
      'x',
      [null],
      [{ messageId: '', start: 0, end: 1 }],
      [{ messageId: 'm', start: 4, end: 4 }],
      [{ messageId: 'm', start: -1, end: 4 }],
      [{ messageId: 'm', start: 0.5, end: 4 }],
      [good, { messageId: 'm', start: 0, end: 5 }],
    ])
      await expect(memory.forget({ sentences } as never), JSON.stringify(sentences)).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      })
    expect((await memory.messages()).messages[0].content).toBe(CONTENT)
    expect(await memory.forget({ sentences: [] })).toBe(0)
    expect(await memory.forget({ sentences: [{ ...good, messageId: 'gone' }] })).toBe(0)
    expect(await memory.forget({ sentences: [good, good] })).toBe(1)
    // The offsets listed before that forget are stale now.
    await expect(
      memory.forget({ sentences: [{ messageId: 'm', ...spanOf('In the end we ate soup.') }] }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    expect((await memory.stats()).sentences).toBe(2)
    await memory.close()
  })

  it('in an encrypted memory: the sentence is gone from the sealed records and from every context, the rest kept', async () => {
    const indexedDB = new IDBFactory()
    const options = { name: 'forget-sentences-sealed', indexedDB, passphrase: 'correct horse battery staple' }
    const memory = await createMemory(options)
    await memory.add({ role: 'user', content: CONTENT, id: 'm' })
    await memory.add({ role: 'assistant', content: 'Soup is a fine dinner.', id: 'a' })
    await memory.indexed()
    const [match] = await memory.findForgettable('Please forget that my uncle Bartholomew called.', { limit: 1 })
    const sentence = match.sentences.find((s) => s.text.includes('Bartholomew'))!
    expect(await memory.forget({ sentences: [{ messageId: match.messageId, ...sentence }] })).toBe(1)
    await memory.indexed()
    await memory.close()
    const raw = await dumpRaw(indexedDB, options.name)
    expect(raw.includes(Buffer.from('Bartholomew', 'latin1'))).toBe(false)
    const reopened = await createMemory(options)
    expect((await reopened.messages()).messages.map((m) => m.content)).toEqual([
      'First I went home.  In the end we ate soup. ',
      'Soup is a fine dinner.',
    ])
    for (const strategy of ['lexical', 'dense', 'hybrid', 'full'] as const) {
      const ctx = await reopened.buildContext('Who called when I went home? Bartholomew uncle', { strategy })
      expect(ctx.text, strategy).not.toContain('Bartholomew')
      expect(ctx.text, strategy).toContain('First I went home.')
    }
    expect((await reopened.stats()).sentences).toBe(3)
    await reopened.close()
  })
})
