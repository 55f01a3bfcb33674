// The demo's context lines: a real context's text cut into the message lines its items render, and back.
import { IDBFactory } from 'fake-indexeddb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contextSegments } from '../../demo/context-lines'
import { sampleConversation } from '../../demo/sample-conversation'
import { SUPERSEDED_MARK } from '../../src/core/render-context'
import { createMemory, type BuildContextOptions, type Context, type ContextItem, type Memory } from '../../src/node'

let memory: Memory
beforeAll(async () => {
  memory = await createMemory({ name: 'demo-context-lines', indexedDB: new IDBFactory() })
  await memory.add([
    ...sampleConversation,
    {
      role: 'user',
      content: 'A line\nthat breaks, <b>markup</b> and all. Then a second sentence about the balcony.',
      conversationId: 'other',
    },
  ])
  await memory.indexed()
})
afterAll(() => memory.close())

/** Every message line is one link segment whose text holds its items' sentences in order after the role label. */
function expectLines(context: Context): void {
  const segments = contextSegments(context.text, context.items)
  expect(segments.map((segment) => segment.text).join('')).toBe(context.text)
  const lines = segments.filter((segment) => segment.items)
  expect(lines.flatMap((line) => line.items)).toEqual(context.items)
  for (const line of lines) {
    const items = line.items!
    expect(new Set(items.map((item) => item.seq)).size).toBe(1)
    expect(line.text.startsWith(`${items[0].role}`)).toBe(true)
    let from = 0
    for (const item of items) {
      const at = line.text.indexOf(item.text, from)
      expect(at).toBeGreaterThan(from - 1)
      from = at + item.text.length
      if (item.supersededBy !== undefined) {
        expect(line.text.startsWith(SUPERSEDED_MARK, from)).toBe(true)
        from += SUPERSEDED_MARK.length
      }
    }
    expect(line.text.length).toBe(from)
  }
  for (const between of segments.filter((segment) => !segment.items)) expect(between.text).toMatch(/^\n(\[…\]\n)?$/)
}

describe('contextSegments', () => {
  const cases: [string, BuildContextOptions][] = [
    ['Where is our new flat, and how do I get to the hospital from there?', { budget: 2000 }],
    ['balcony markup', { budget: 600, strategy: 'lexical' }],
    ['anything', { budget: 3000, strategy: 'head' }],
    ['Biscuit', { budget: 4000, recentTurns: 3, followUpdates: true }],
    ['everything', { budget: 1_000_000, strategy: 'full' }],
  ]
  it.each(cases)('splits the context for %j %j into its message lines', async (request, options) => {
    const context = await memory.buildContext(request, options)
    expect(context.items.length).toBeGreaterThan(0)
    expectLines(context)
  })

  it("keeps a superseded sentence's mark in its line when the sentence ends the line", () => {
    const item = (seq: number, text: string): ContextItem => ({
      messageId: `m${seq}`,
      conversationId: 'c',
      seq,
      role: 'user',
      text,
      score: 1,
      start: 0,
      end: text.length,
      timestamp: 0,
      reason: 'relevant',
    })
    const stale = { ...item(1, 'I drive a Polo.'), supersededBy: 'm2' }
    const newer = item(2, 'Sold the Polo.')
    const text = `user: I drive a Polo.${SUPERSEDED_MARK}\n[…]\nuser: Sold the Polo.`
    expect(contextSegments(text, [stale, newer])).toEqual([
      { text: `user: I drive a Polo.${SUPERSEDED_MARK}`, items: [stale] },
      { text: '\n[…]\n' },
      { text: 'user: Sold the Polo.', items: [newer] },
    ])
  })

  it('gives an empty context no segment, and a text it cannot match back as one plain segment', () => {
    expect(contextSegments('', [])).toEqual([])
    expect(contextSegments('user: hello', [])).toEqual([{ text: 'user: hello' }])
  })
})
