// The summary slot (`Memory.setSummary`): the app's own summary of a conversation up to a message, held in a section of
// its own inside the budget, never the only copy of what it covers, and gone with what a forget removes.
import { IDBFactory } from 'fake-indexeddb'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import { dumpRaw, getAllRaw } from '../raw-database'
import { nodeMemories } from './node-memories'

const day = (n: number) => Date.UTC(2024, 2, 1 + n)
const trip = [
  { id: 'a1', conversationId: 'trip', role: 'user', content: 'We land in Lisbon on the ninth.', timestamp: day(0) },
  {
    id: 'a2',
    conversationId: 'trip',
    role: 'user',
    content: 'My passport number ends in 4471, keep it handy for the hotel forms.',
    timestamp: day(1),
  },
  { id: 'a3', conversationId: 'trip', role: 'user', content: 'The hotel is the Alfama Patio.', timestamp: day(2) },
  ...Array.from({ length: 40 }, (_, i) => ({
    id: `t${i}`,
    conversationId: 'trip',
    role: i % 2 ? 'assistant' : 'user',
    content: `On day ${i} we walked along the river and looked at the trams number ${i}.`,
    timestamp: day(3 + i),
  })),
  {
    id: 'w1',
    conversationId: 'work',
    role: 'user',
    content: 'The quarterly report is due on Friday.',
    timestamp: day(0),
  },
  { id: 'w2', conversationId: 'work', role: 'user', content: 'Marta reviews the slides.', timestamp: day(1) },
]
// The app's summary of a1–a3: it leaves out the passport number, which the originals still hold.
const SUMMARY = 'The user flies to Lisbon on the ninth and stays at the Alfama Patio hotel.'

const open = nodeMemories()

const raw = (indexedDB: IDBFactory, name: string) => dumpRaw(indexedDB as unknown as globalThis.IDBFactory, name)

describe('summaries', () => {
  it('sets, reads and clears a summary, and refuses bad input with INVALID_INPUT, changing nothing', async () => {
    const { memory } = await open('summary-api')
    await memory.add(trip)
    expect(await memory.summary('trip')).toBeUndefined()
    await memory.setSummary('trip', SUMMARY, { through: 'a3' })
    expect(await memory.summary('trip')).toMatchObject({
      state: 'current',
      conversationId: 'trip',
      text: SUMMARY,
      through: 'a3',
      setAt: expect.any(Number),
    })
    const bad: [unknown, unknown, unknown, RegExp][] = [
      ['trip', '', { through: 'a3' }, /non-empty/],
      ['trip', '   ', { through: 'a3' }, /non-empty/],
      ['trip', SUMMARY, { through: 'nope' }, /no message with id "nope"/],
      ['trip', SUMMARY, { through: 'w1' }, /in the conversation "trip"/],
      ['trip', SUMMARY, {}, /options.through/],
      ['trip', SUMMARY, undefined, /options.through/],
      [7, SUMMARY, { through: 'a3' }, /conversationId must be a string/],
      ['trip', 'x'.repeat(200_001), { through: 'a3' }, /maxMessageChars/],
    ]
    for (const [conversationId, text, options, message] of bad)
      await expect(memory.setSummary(conversationId as never, text as never, options as never)).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message,
      })
    expect(await memory.summary('trip')).toMatchObject({ state: 'current', text: SUMMARY })
    expect(await memory.clearSummary('trip')).toBe(true)
    expect(await memory.clearSummary('trip')).toBe(false)
    expect(await memory.summary('trip')).toBeUndefined()
  })

  it('holds the summary in its own section after the pins, inside the budget, and still retrieves what it left out', async () => {
    const { memory } = await open('summary-context')
    await memory.add(trip)
    await memory.setSummary('trip', SUMMARY, { through: 'a3' })
    for (const strategy of ['lexical', 'tail'] as const) {
      const ctx = await memory.buildContext('what does my passport number end in?', {
        budget: 700,
        conversationId: 'trip',
        strategy,
      })
      expect(ctx.text.startsWith(`Summary of the conversation up to 3 March 2024:\n${SUMMARY}`)).toBe(true)
      expect(ctx.text.length).toBeLessThanOrEqual(700)
      expect(ctx.stats.summary).toEqual({
        conversations: ['trip'],
        chars: ctx.text.indexOf('From the conversation:') + 'From the conversation:\n'.length,
        left: [],
        dropped: [],
      })
    }
    // Never the only copy: the detail the summary dropped comes back from the turn it covers.
    const ranked = await memory.buildContext('what does my passport number end in?', {
      budget: 700,
      conversationId: 'trip',
      strategy: 'lexical',
    })
    expect(ranked.text).toContain('ends in 4471')
    // After the pinned section, before the conversation, and the parts add up to the whole.
    await memory.pin('a1')
    const both = await memory.buildContext('trams', { budget: 900, conversationId: 'trip', strategy: 'lexical' })
    expect(both.text.startsWith('Pinned:\n')).toBe(true)
    expect(both.text.indexOf('Summary of the conversation')).toBeGreaterThan(both.text.indexOf('Lisbon on the ninth'))
    expect(both.text.indexOf('From the conversation:')).toBeGreaterThan(both.text.indexOf(SUMMARY))
    const restChars = both.text.length - both.text.indexOf('From the conversation:') - 'From the conversation:\n'.length
    expect(both.stats.pinned!.chars + both.stats.summary!.chars + restChars).toBe(both.text.length)
    // Another conversation's context holds none of it.
    const work = await memory.buildContext('report', { conversationId: 'work' })
    expect(work.text).not.toContain(SUMMARY)
    expect(work.stats.summary).toBeUndefined()
  })

  it('gives the stable sections and the excerpts apart (ctx.sections), each as the text holds it, the heading in neither', async () => {
    const { memory } = await open('summary-sections')
    await memory.add(trip)
    await memory.setSummary('trip', SUMMARY, { through: 'a3' })
    await memory.pin('a2')
    const heading = 'Notes:'
    const budgets = [900, { tokens: 250, tokenizer: 'o200k_base' as const }]
    for (const strategy of ['lexical', 'tail'] as const)
      for (const budget of budgets) {
        const ctx = await memory.buildContext('trams on the river', {
          budget,
          conversationId: 'trip',
          strategy,
          heading,
        })
        const { stable, excerpts } = ctx.sections
        expect(stable).toBe(
          `Pinned:\nuser (2 March 2024): My passport number ends in 4471, keep it handy for the hotel forms.\n\n` +
            `Summary of the conversation up to 3 March 2024:\n${SUMMARY}`,
        )
        expect(excerpts).toMatch(/^(user|assistant) \(\d+ \w+ 2024\): /)
        expect(excerpts).toContain('we walked along the river')
        expect(ctx.text).toBe(`${heading}\n${stable}\n\nFrom the conversation:\n${excerpts}`)
      }
    // Without pins or a summary (or with `full`, which holds neither) there is nothing stable: the excerpts are the
    // whole text but for its heading.
    const plain = await memory.buildContext('report', { conversationId: 'work', strategy: 'lexical', heading })
    const full = await memory.buildContext('trams', { conversationId: 'trip', strategy: 'full', heading })
    for (const ctx of [plain, full])
      expect(ctx.sections).toEqual({ stable: '', excerpts: ctx.text.slice(heading.length + 1) })
    expect(plain.sections.excerpts).toContain('quarterly report')
    // Only stable sections (no word of the request is in the history): the text holds no conversation header.
    const tight = await memory.buildContext('zebras', { budget: 900, conversationId: 'trip', strategy: 'lexical' })
    expect(tight.sections.excerpts).toBe('')
    expect(tight.text).toBe(tight.sections.stable)
    const empty = await memory.buildContext('anything', { conversationId: 'none', heading })
    expect(empty).toMatchObject({ text: '', sections: { stable: '', excerpts: '' } })
  })

  it('keeps the summaries within maxShare, names one that does not fit, and leaves them out with summary: false', async () => {
    const { memory } = await open('summary-share')
    await memory.add(trip)
    await memory.setSummary('trip', SUMMARY, { through: 'a3' })
    await memory.setSummary('work', 'The report is due on Friday; Marta reviews the slides.', { through: 'w2' })
    const unscoped = await memory.buildContext('trams', { budget: 2000, strategy: 'lexical' })
    expect(unscoped.stats.summary?.conversations.sort()).toEqual(['trip', 'work'])
    expect(unscoped.stats.summary!.chars).toBeLessThanOrEqual(0.25 * 2000 + 'From the conversation:\n\n\n'.length)
    const small = await memory.buildContext('trams', { budget: 300, conversationId: 'trip', strategy: 'lexical' })
    // 25% of 300 characters cannot hold the summary's 120: it is named, not cut.
    expect(small.text).not.toContain('Alfama Patio hotel.')
    expect(small.stats.summary).toEqual({ conversations: [], chars: 0, left: ['trip'], dropped: [] })
    const wide = await memory.buildContext('trams', {
      budget: 300,
      conversationId: 'trip',
      strategy: 'lexical',
      summary: { maxShare: 0.5 },
    })
    expect(wide.text).toContain(SUMMARY)
    expect(wide.text.length).toBeLessThanOrEqual(300)
    const off = await memory.buildContext('trams', { budget: 2000, conversationId: 'trip', summary: false })
    expect(off.text).not.toContain(SUMMARY)
    for (const summary of [true, { maxShare: 2 }, { maxShare: -0.1 }, { maxShare: '0.5' }, []])
      await expect(memory.buildContext('trams', { summary } as never)).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: /summary/,
      })
  })

  it('counts the summary in a token budget: never over it, in its share of the tokens', async () => {
    const { memory } = await open('summary-tokens')
    await memory.add(trip)
    await memory.setSummary('trip', SUMMARY, { through: 'a3' })
    const ctx = await memory.buildContext('trams on the river', {
      budget: { tokens: 200, tokenizer: 'o200k_base' },
      conversationId: 'trip',
    })
    expect(ctx.text).toContain(SUMMARY)
    expect(countTokens(ctx.text)).toBeLessThanOrEqual(200)
    expect(ctx.stats.tokens?.used).toBe(countTokens(ctx.text))
    expect(countTokens(ctx.text)).toBeGreaterThanOrEqual(0.85 * 200)
  })

  it('a forget of a message it covers deletes its text in the same write; one after it leaves it; reloads keep the state', async () => {
    const { memory, indexedDB } = await open('summary-forget')
    await memory.add(trip)
    await memory.setSummary('trip', `${SUMMARY} Passport ends in 4471.`, { through: 'a3' })
    await memory.setSummary('work', 'Report due Friday, Marta on slides.', { through: 'w1' })
    // w2 is after what the work summary covers.
    expect(await memory.forget({ id: 'w2' })).toBe(1)
    expect(await memory.summary('work')).toMatchObject({ state: 'current' })
    expect(await memory.forget({ id: 'a2' })).toBe(1)
    expect(await memory.summary('trip')).toEqual({
      state: 'dropped',
      conversationId: 'trip',
      droppedAt: expect.any(Number),
    })
    const dump = await raw(indexedDB, 'summary-forget')
    expect(dump.includes('4471')).toBe(false)
    expect(dump.includes('Alfama Patio hotel')).toBe(false)
    const ctx = await memory.buildContext('hotel', { conversationId: 'trip', strategy: 'lexical' })
    expect(ctx.text).not.toContain('Summary of the conversation')
    expect(ctx.stats.summary).toEqual({ conversations: [], chars: 0, left: [], dropped: ['trip'] })
    await memory.close()
    const again = (await open('summary-forget', indexedDB)).memory
    expect(await again.summary('trip')).toMatchObject({ state: 'dropped' })
    expect(await again.summary('work')).toMatchObject({ state: 'current', text: 'Report due Friday, Marta on slides.' })
    // Setting a new one fills the slot again; a forget of the whole conversation empties it.
    await again.setSummary('trip', SUMMARY, { through: 't3' })
    expect(await again.summary('trip')).toMatchObject({ state: 'current', through: 't3' })
    await again.forget({ conversationId: 'work' })
    expect(await again.summary('work')).toBeUndefined()
    const meta = await getAllRaw(indexedDB as unknown as globalThis.IDBFactory, 'summary-forget', 'meta')
    expect(meta.map((row) => (row as { key: string }).key).filter((key) => key.startsWith('summary:'))).toEqual([
      'summary:trip',
    ])
  })

  it('a forget of sentences of a covered message, or by date, drops the summary too', async () => {
    const { memory, indexedDB } = await open('summary-sentences')
    await memory.add(trip)
    await memory.setSummary('trip', `${SUMMARY} Passport ends in 4471.`, { through: 'a3' })
    const [match] = await memory.findForgettable('forget my passport number', { conversationId: 'trip' })
    expect(match.messageId).toBe('a2')
    await memory.forget({
      sentences: match.sentences.map(({ start, end }) => ({ messageId: match.messageId, start, end })),
    })
    expect(await memory.summary('trip')).toMatchObject({ state: 'dropped' })
    expect((await raw(indexedDB, 'summary-sentences')).includes('4471')).toBe(false)
    await memory.setSummary('work', 'Report due Friday.', { through: 'w1' })
    await memory.forget({ before: day(1) })
    expect(await memory.summary('work')).toMatchObject({ state: 'dropped' })
  })

  it('are sealed in an encrypted memory, open again with its key and after a key change, and still drop on forget', async () => {
    const passphrase = 'correct horse battery staple'
    const { memory, indexedDB } = await open('summary-sealed', new IDBFactory(), { passphrase })
    await memory.add(trip)
    await memory.setSummary('trip', SUMMARY, { through: 'a3' })
    await memory.close()
    expect((await raw(indexedDB, 'summary-sealed')).includes('Alfama Patio')).toBe(false)
    const meta = await getAllRaw(indexedDB as unknown as globalThis.IDBFactory, 'summary-sealed', 'meta')
    const row = meta.find((r) => (r as { key: string }).key === 'summary:trip') as Record<string, unknown>
    expect(row.sealed).toBeInstanceOf(Uint8Array)
    expect(row.text).toBeUndefined()
    const again = (await open('summary-sealed', indexedDB, { passphrase })).memory
    expect(await again.summary('trip')).toMatchObject({ state: 'current', text: SUMMARY })
    await again.changeKey({ passphrase: 'another long passphrase here' })
    await again.close()
    const third = (await open('summary-sealed', indexedDB, { passphrase: 'another long passphrase here' })).memory
    expect(await third.summary('trip')).toMatchObject({ state: 'current', text: SUMMARY })
    await third.forget({ id: 'a1' })
    expect(await third.summary('trip')).toMatchObject({ state: 'dropped' })
  })

  it('a sealed summary whose clear coverage was edited to escape a forget no longer opens, and is not sent', async () => {
    const passphrase = 'correct horse battery staple'
    const { memory, indexedDB } = await open('summary-edited', new IDBFactory(), { passphrase })
    await memory.add(trip)
    await memory.setSummary('trip', SUMMARY, { through: 'a3' })
    await memory.close()
    const { putRaw } = await import('../raw-database')
    const meta = await getAllRaw(indexedDB as unknown as globalThis.IDBFactory, 'summary-edited', 'meta')
    const row = meta.find((r) => (r as { key: string }).key === 'summary:trip') as Record<string, unknown>
    await putRaw(indexedDB as unknown as globalThis.IDBFactory, 'summary-edited', 'meta', [
      { ...row, throughTimestamp: day(-10) },
    ])
    const again = (await open('summary-edited', indexedDB, { passphrase })).memory
    expect(await again.summary('trip')).toBeUndefined()
    const ctx = await again.buildContext('hotel', { conversationId: 'trip' })
    expect(ctx.text).not.toContain(SUMMARY)
  })

  it('go with an export (plain, encrypted, one conversation) and are set again by its import', async () => {
    const { memory } = await open('summary-export')
    await memory.add(trip)
    await memory.setSummary('trip', SUMMARY, { through: 'a3' })
    await memory.setSummary('work', 'Report due Friday.', { through: 'w2' })
    const file = await memory.export()
    expect(file).toMatchObject({
      // Oldest first, by where each ends in time order.
      summaries: [
        { conversationId: 'work', text: 'Report due Friday.', through: 'w2', setAt: expect.any(Number) },
        { conversationId: 'trip', text: SUMMARY, through: 'a3', setAt: expect.any(Number) },
      ],
    })
    expect(await memory.export({ conversationId: 'work' })).toMatchObject({
      summaries: [{ conversationId: 'work', through: 'w2' }],
    })
    const sealed = await memory.export({ passphrase: 'export passphrase' })
    const target = (await open('summary-import')).memory
    await target.import(sealed, { passphrase: 'export passphrase' })
    expect(await target.summary('trip')).toMatchObject({ state: 'current', text: SUMMARY, through: 'a3' })
    expect(await target.summary('work')).toMatchObject({ state: 'current', through: 'w2' })
    const plain = file as { summaries: object[] }
    plain.summaries.reverse()
    for (const [summaries, where] of [
      [[{ ...plain.summaries[0], through: 'w1' }], 'data.summaries[0].through'],
      [[{ ...plain.summaries[0], text: '' }], 'data.summaries[0].text'],
      [[plain.summaries[0], plain.summaries[0]], 'data.summaries[1]'],
      ['nope', 'data.summaries'],
    ] as const) {
      const fresh = (await open(`summary-bad-${where}`)).memory
      await expect(fresh.import({ ...file, summaries })).rejects.toMatchObject({
        code: 'INVALID_IMPORT',
        message: expect.stringContaining(where),
      })
      expect((await fresh.stats()).messages).toBe(0)
    }
  })
})
