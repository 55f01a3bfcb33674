import { IDBFactory } from 'fake-indexeddb'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import { dumpRaw, getAllRaw } from '../raw-database'
import { nodeMemories } from './node-memories'

const trip = [
  { id: 'p1', conversationId: 'trip', role: 'user', content: 'I am allergic to peanuts, always check the menus.' },
  { id: 'p2', conversationId: 'trip', role: 'assistant', content: 'Noted: no peanuts anywhere on the trip.' },
  ...Array.from({ length: 60 }, (_, i) => ({
    id: `t${i}`,
    conversationId: 'trip',
    role: i % 2 ? 'assistant' : 'user',
    content: `Day ${i} of the trip: we walked along the harbour and looked at boats number ${i}.`,
    timestamp: Date.UTC(2024, 4, 1 + i),
  })),
  { id: 'w1', conversationId: 'work', role: 'user', content: 'The quarterly report is due on Friday.' },
]

const open = nodeMemories()

describe('pins', () => {
  it('pins, lists and unpins, and refuses ids that are not stored or not pinned with INVALID_INPUT', async () => {
    const { memory } = await open('pins-api')
    await memory.add(trip)
    await memory.pin('p1')
    await memory.pin('w1')
    await memory.pin('p1')
    expect(await memory.pins()).toEqual([
      { messageId: 'p1', conversationId: 'trip' },
      { messageId: 'w1', conversationId: 'work' },
    ])
    expect(await memory.pins('work')).toEqual([{ messageId: 'w1', conversationId: 'work' }])
    await memory.unpin('w1')
    expect(await memory.pins()).toEqual([{ messageId: 'p1', conversationId: 'trip' }])
    await expect(memory.pin('nope')).rejects.toMatchObject({ code: 'INVALID_INPUT', message: /nope/ })
    await expect(memory.unpin('w1')).rejects.toMatchObject({ code: 'INVALID_INPUT', message: /not pinned/ })
    await expect(memory.pin(42 as never)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await expect(memory.pins(7 as never)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    expect(await memory.pins()).toEqual([{ messageId: 'p1', conversationId: 'trip' }])
  })

  it('puts a pinned message first, in its own section, in every context of its conversation, inside the budget', async () => {
    const { memory } = await open('pins-context')
    await memory.add(trip)
    const before = await memory.buildContext('boats in the harbour', { budget: 600, conversationId: 'trip' })
    expect(before.text).not.toContain('peanuts')
    expect(before.stats.pinned).toBeUndefined()
    await memory.pin('p1')
    for (const strategy of ['lexical', 'tail', 'head'] as const) {
      const ctx = await memory.buildContext('boats in the harbour', { budget: 600, conversationId: 'trip', strategy })
      expect(ctx.text.startsWith('Pinned:\nuser')).toBe(true)
      expect(ctx.text).toContain('allergic to peanuts')
      expect(ctx.text).toContain('\n\nFrom the conversation:\n')
      expect(ctx.text.length).toBeLessThanOrEqual(600)
      expect(ctx.stats.used).toBe(ctx.text.length)
      expect(ctx.items[0]).toMatchObject({ messageId: 'p1', reason: 'pinned' })
      expect(ctx.items.filter((item) => item.messageId === 'p1')).toHaveLength(1)
      expect(ctx.stats.pinned).toEqual({
        messages: ['p1'],
        chars: ctx.text.indexOf('From the conversation:') + 'From the conversation:\n'.length,
        left: [],
      })
    }
    const work = await memory.buildContext('report', { conversationId: 'work' })
    expect(work.text).not.toContain('peanuts')
    const tokens = await memory.buildContext('boats', {
      budget: { tokens: 120, tokenizer: 'o200k_base' },
      conversationId: 'trip',
    })
    expect(tokens.text.startsWith('Pinned:\n')).toBe(true)
    expect(countTokens(tokens.text)).toBeLessThanOrEqual(120)
    expect(countTokens(tokens.text)).toBeGreaterThanOrEqual(0.85 * 120)
  })

  it('names a pin that does not fit in stats.pinned.left instead of dropping it silently', async () => {
    const { memory } = await open('pins-left')
    await memory.add(trip)
    await memory.pin('p1')
    await memory.pin('p2')
    const ctx = await memory.buildContext('boats', { budget: 140, conversationId: 'trip' })
    expect(ctx.text.length).toBeLessThanOrEqual(140)
    expect(ctx.stats.pinned?.messages).toEqual(['p1'])
    expect(ctx.stats.pinned?.left).toEqual(['p2'])
  })

  it('survives a reload, and a forget of a pinned message unpins it (not left in the stored pins)', async () => {
    const { memory, indexedDB } = await open('pins-reload')
    await memory.add(trip)
    await memory.pin('p1')
    await memory.pin('p2')
    await memory.close()
    const again = (await open('pins-reload', indexedDB)).memory
    expect((await again.pins()).map((pin) => pin.messageId)).toEqual(['p1', 'p2'])
    expect(await again.forget({ id: 'p1' })).toBe(1)
    expect((await again.pins()).map((pin) => pin.messageId)).toEqual(['p2'])
    const meta = await getAllRaw(indexedDB as unknown as globalThis.IDBFactory, 'pins-reload', 'meta')
    expect(meta).toContainEqual({ key: 'pins', messageIds: ['p2'] })
    expect((await dumpRaw(indexedDB as unknown as globalThis.IDBFactory, 'pins-reload')).includes('p1')).toBe(false)
    const ctx = await again.buildContext('peanuts', { conversationId: 'trip' })
    expect(ctx.text).not.toContain('always check the menus')
  })

  it('are sealed in an encrypted memory and open again with its key', async () => {
    const passphrase = 'correct horse battery staple'
    const { memory, indexedDB } = await open('pins-sealed', new IDBFactory(), { passphrase })
    await memory.add(trip)
    await memory.pin('p2')
    await memory.close()
    const meta = await getAllRaw(indexedDB as unknown as globalThis.IDBFactory, 'pins-sealed', 'meta')
    const row = meta.find((r) => (r as { key: string }).key === 'pins') as { sealed?: Uint8Array }
    expect(row.sealed).toBeInstanceOf(Uint8Array)
    expect(Object.keys(row)).toEqual(['key', 'sealed'])
    const again = (await open('pins-sealed', indexedDB, { passphrase })).memory
    expect((await again.pins()).map((pin) => pin.messageId)).toEqual(['p2'])
    await again.changeKey({ passphrase: 'another long passphrase here' })
    await again.close()
    const third = (await open('pins-sealed', indexedDB, { passphrase: 'another long passphrase here' })).memory
    expect((await third.pins()).map((pin) => pin.messageId)).toEqual(['p2'])
  })

  it('go with an export (plain and encrypted) and are pinned again by its import', async () => {
    const { memory } = await open('pins-export')
    await memory.add(trip)
    await memory.pin('w1')
    await memory.pin('p1')
    const file = await memory.export()
    expect(file).toMatchObject({ pins: ['w1', 'p1'] })
    expect(await memory.export({ conversationId: 'trip' })).toMatchObject({ pins: ['p1'] })
    const sealed = await memory.export({ passphrase: 'export passphrase' })
    const target = (await open('pins-import')).memory
    await target.import(sealed, { passphrase: 'export passphrase' })
    expect((await target.pins()).map((pin) => pin.messageId)).toEqual(['w1', 'p1'])
    const bad = { ...file, id: undefined, pins: ['p1', 'missing'] }
    await expect((await open('pins-bad')).memory.import(bad)).rejects.toMatchObject({
      code: 'INVALID_IMPORT',
      message: expect.stringContaining('data.pins[1]'),
    })
  })
})
