// clear() in every engine (e2e/browsers/each-engine.ts), called from the tab that does not run the engine: the
// database is deleted and opened again empty in the engine's worker (the model with it), both tabs see the empty
// memory and what is added after it.
import { expect, test } from 'vitest'
import type { MessageInput } from '../src/types'
import { describeEachEngine } from './browsers/each-engine'
import { scanDatabase } from './raw-scan'
import { indexedWithRetry, tabsClosedAfterEach } from './tab-pages'

const history: MessageInput[] = Array.from({ length: 20 }, (_, i) => ({
  id: `old-${i}`,
  conversationId: i % 2 ? 'evenings' : 'mornings',
  role: i % 2 ? 'assistant' : 'user',
  content: `Old note ${i}: the Quillmere ferry leaves at ${6 + (i % 4)} o'clock from pier ${i}.`,
}))
const needles = ['Quillmere', 'old-7', 'mornings', 'evenings']

describeEachEngine('clear', (run) => {
  const tab = tabsClosedAfterEach(run)

  test(`clear from a following tab deletes everything, and both tabs go on with an empty memory`, async () => {
    const name = `e2e-clear-${run.engine.name}`
    const [leader, follower] = [await tab(name), await tab(name)]
    await leader.evaluate((messages) => window.tabMemory.add(messages), history)
    await indexedWithRetry(leader)
    const before = await scanDatabase(leader, name, needles)
    for (const needle of needles)
      expect(
        before.found.some((where) => where.endsWith(`: ${needle}`)),
        needle,
      ).toBe(true)

    expect(await follower.evaluate(() => window.tabMemory.clear())).toBe(history.length)

    const after = await scanDatabase(leader, name, needles)
    expect(after.found).toEqual([])
    expect(after.rowCount).toBe(0)
    for (const page of [leader, follower]) {
      const seen = await page.evaluate(async () => ({
        stats: await window.tabMemory.stats(),
        page: await window.tabMemory.messages(),
        context: (await window.tabMemory.buildContext('When does the ferry leave?', { strategy: 'full' })).items.length,
      }))
      expect(seen).toMatchObject({ stats: { messages: 0, sentences: 0 }, page: { messages: [] }, context: 0 })
    }

    // The memory works on: what one tab adds, the other lists, ranks and can be asked to forget.
    await follower.evaluate(() =>
      window.tabMemory.add({ id: 'new-1', role: 'user', content: 'I moved my piano lessons to Thursdays.' }),
    )
    await indexedWithRetry(leader)
    const later = await leader.evaluate(async () => ({
      listed: (await window.tabMemory.messages()).messages.map((m) => [m.id, m.seq]),
      context: (await window.tabMemory.buildContext('When are my piano lessons?', { strategy: 'hybrid', budget: 400 }))
        .text,
      found: {
        ids: (await window.tabMemory.findForgettable('Please forget that I moved my piano lessons')).map(
          (m) => m.messageId,
        ),
        request: (await window.tabMemory.findForgetRequest('Please forget that I moved my piano lessons'))?.sentences,
      },
    }))
    expect(later).toEqual({
      listed: [['new-1', 1]],
      context: expect.stringContaining('piano lessons to Thursdays'),
      found: { ids: ['new-1'], request: [{ text: 'Please forget that I moved my piano lessons', start: 0, end: 43 }] },
    })
    // Read by the engine's tab for the tab that follows it, too.
    expect(await follower.evaluate(() => window.tabMemory.findForgetRequest('Forget the piano, please.'))).toEqual({
      sentences: [{ text: 'Forget the piano, please.', start: 0, end: 25 }],
      topic: expect.stringContaining('piano'),
    })
    expect(await leader.evaluate(() => window.tabMemory.forget({ ids: ['new-1'] }))).toBe(1)
  })

  test(`calls made right after clear(), without awaiting it, find the memory empty, in the leading and the following tab`, async () => {
    const name = `e2e-clear-barrier-${run.engine.name}`
    const tabs = { leader: await tab(name), follower: await tab(name) }
    for (const [role, page] of Object.entries(tabs)) {
      await tabs.leader.evaluate(async (messages) => {
        await window.tabMemory.add(messages)
        await window.tabMemory.pin('old-0')
        await window.tabMemory.setSummary('mornings', 'The ferry leaves early.', { through: 'old-2' })
      }, history)
      const seen = await page.evaluate(async () => {
        const memory = window.tabMemory
        const outcome = <T>(call: Promise<T>, read: (value: T) => unknown = (value) => value) =>
          call.then(
            (value) => ({ value: read(value) }),
            (error: { code?: string }) => ({ code: error.code }),
          )
        const cleared = memory.clear()
        const calls = {
          lexical: outcome(memory.buildContext('When does the ferry leave?', { strategy: 'lexical' }), (c) => c.text),
          tail: outcome(memory.buildContext('When does the ferry leave?', { strategy: 'tail' }), (c) => c.text),
          // `?? null`: classic WebDriver (WebKit) returns a page's undefined as null.
          export: outcome(memory.export(), (e) => ('messages' in e ? [e.messages.length, e.pins ?? null] : e)),
          messages: outcome(memory.messages(), (p) => p.messages),
          stats: outcome(memory.stats(), (s) => s.messages),
          pins: outcome(memory.pins()),
          summary: outcome(memory.summary('mornings'), (summary) => summary ?? null),
          unpin: outcome(memory.unpin('old-0')),
          setSummary: outcome(memory.setSummary('mornings', 'Still early.', { through: 'old-2' })),
          clearSummary: outcome(memory.clearSummary('mornings')),
        }
        const answers = Object.fromEntries(
          await Promise.all(Object.entries(calls).map(async ([method, call]) => [method, await call])),
        )
        return { cleared: await cleared, answers }
      })
      expect(seen, role).toEqual({
        cleared: history.length,
        answers: {
          lexical: { value: '' },
          tail: { value: '' },
          export: { value: [0, null] },
          messages: { value: [] },
          stats: { value: 0 },
          pins: { value: [] },
          summary: { value: null },
          unpin: { code: 'INVALID_INPUT' },
          setSummary: { code: 'INVALID_INPUT' },
          clearSummary: { value: false },
        },
      })
    }
  })
})
