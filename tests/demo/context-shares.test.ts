// The demo's share rows: what each part of a real context (pinned section, recent turns, excerpts, the rest) took.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shareRows } from '../../demo/context-shares'
import { formatShare } from '../../demo/dom'
import { createMemory, type Context, type Memory } from '../../src/node'

const trip = [
  // Before the trip, so the pinned messages are not among its recent turns.
  {
    id: 'p1',
    role: 'user',
    content: 'I am allergic to peanuts, always check the menus.',
    timestamp: Date.UTC(2024, 3, 1),
  },
  { id: 'p2', role: 'assistant', content: 'Noted: no peanuts anywhere on the trip.', timestamp: Date.UTC(2024, 3, 2) },
  ...Array.from({ length: 30 }, (_, i) => ({
    id: `t${i}`,
    role: i % 2 ? 'assistant' : 'user',
    content: `Day ${i} of the trip: we walked along the harbour and looked at boats number ${i}.`,
    timestamp: Date.UTC(2024, 4, 1 + i),
  })),
]

let memory: Memory
beforeAll(async () => {
  memory = await createMemory({
    name: 'demo-context-shares',
    indexedDB: new IDBFactory(),
    IDBKeyRange: IDBKeyRange as unknown as typeof globalThis.IDBKeyRange,
  })
  await memory.add(trip)
})
afterAll(() => memory.close())

/** The rows as a map, and the characters each part row names. */
function read(context: Context): { rows: Map<string, string>; chars: Map<string, number> } {
  const rows = new Map(shareRows(context))
  const chars = new Map<string, number>()
  for (const [name, value] of rows) {
    const match = /^([\d,]+) characters \(/.exec(value)
    if (match) chars.set(name, Number(match[1].replaceAll(',', '')))
  }
  return { rows, chars }
}

const sum = (values: Iterable<number>) => [...values].reduce((total, value) => total + value, 0)

describe('shareRows', () => {
  it('shows no pinned or tokens row without pins and in characters, and parts that add up to the text', async () => {
    const context = await memory.buildContext('boats in the harbour', { budget: 600, strategy: 'lexical' })
    const { rows, chars } = read(context)
    expect([...rows.keys()]).toEqual(['excerpts', 'labels and gaps'])
    expect(sum(chars.values())).toBe(context.stats.used)
    const excerpts = context.items.filter((item) => item.reason !== 'recent')
    expect(chars.get('excerpts')).toBe(sum(excerpts.map((item) => item.text.length)))
    expect(rows.get('excerpts')).toContain(
      `${excerpts.length} sentences from ${new Set(excerpts.map((item) => item.messageId)).size} messages`,
    )
  })

  it('gives the pinned section the characters the library measured, then the recent turns and the excerpts', async () => {
    await memory.pin('p1')
    try {
      const context = await memory.buildContext('boats in the harbour', {
        budget: 900,
        strategy: 'lexical',
        recentTurns: 2,
      })
      expect(context.text.startsWith('Pinned:\n')).toBe(true)
      const { rows, chars } = read(context)
      expect([...rows.keys()]).toEqual(['pinned', 'recent turns', 'excerpts', 'labels and gaps'])
      // The section runs from its header to the header of the rest, both included.
      const rest = 'From the conversation:\n'
      expect(chars.get('pinned')).toBe(context.text.indexOf(rest) + rest.length)
      expect(rows.get('pinned')).toMatch(/ · 1 message$/)
      expect(rows.get('recent turns')).toMatch(/ · 2 turns$/)
      expect(sum(chars.values())).toBe(context.stats.used)
      expect(rows.get('pinned')).toContain(`(${formatShare(chars.get('pinned')!, context.stats.used)})`)
    } finally {
      await memory.unpin('p1')
    }
  })

  it('says how many pins did not fit, and still shows the section when none did', async () => {
    await memory.pin('p1')
    await memory.pin('p2')
    try {
      const some = await memory.buildContext('boats', { budget: 140 })
      expect(some.stats.pinned?.left).toEqual(['p2'])
      expect(read(some).rows.get('pinned')).toMatch(/ · 1 message · 1 pinned did not fit$/)
      const none = await memory.buildContext('boats', { budget: 20 })
      expect(none.stats.pinned?.left).toEqual(['p1', 'p2'])
      expect(read(none).rows.get('pinned')).toBe('0 characters (—) · 0 messages · 2 pinned did not fit')
    } finally {
      await memory.unpin('p1')
      await memory.unpin('p2')
    }
  })

  it('gives the summary its section after the pins, and says when it is over its share', async () => {
    await memory.pin('p1')
    await memory.setSummary('default', 'We walked the harbour every day and counted boats.', { through: 't29' })
    try {
      const context = await memory.buildContext('boats in the harbour', { budget: 900, strategy: 'lexical' })
      const { rows, chars } = read(context)
      expect([...rows.keys()]).toEqual(['pinned', 'summary', 'excerpts', 'labels and gaps'])
      expect(chars.get('summary')).toBe(context.stats.summary!.chars)
      expect(rows.get('summary')).toMatch(/ · 1 summary$/)
      expect(sum(chars.values())).toBe(context.stats.used)
      const small = await memory.buildContext('boats', { budget: 200, strategy: 'lexical' })
      expect(read(small).rows.get('summary')).toBe('0 characters (0.0 %) · 0 summaries · 1 over its share, left out')
    } finally {
      await memory.unpin('p1')
      await memory.clearSummary('default')
    }
  })

  it('shows the tokens used of a token budget, as the tokenizer counts the text', async () => {
    const context = await memory.buildContext('boats in the harbour', {
      budget: { tokens: 300, tokenizer: 'o200k_base' },
      strategy: 'lexical',
    })
    const tokens = countTokens(context.text)
    expect(tokens).toBeLessThanOrEqual(300)
    const { rows, chars } = read(context)
    expect(rows.get('tokens')).toBe(`${tokens} of 300 (o200k_base)`)
    expect(sum(chars.values())).toBe(context.stats.used)
  })

  it('has no rows for an empty context', async () => {
    const context = await memory.buildContext('anything', { conversationId: 'nothing-here' })
    expect(shareRows(context)).toEqual([])
  })
})
