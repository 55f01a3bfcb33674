// Several tabs, one memory: tabs of one browser open the same name through the demo page's test hook, in every engine
// (e2e/browsers/each-engine.ts). One engine serves them all (src/tab-election.ts):
// every page sees one history, each sentence is embedded once, a forget is final everywhere, and when the page
// holding the engine closes mid-ingest another takes over, and a page's calls on another page's engine are each answered
// whatever order WebCrypto finishes their sealing in. WebKit's driver runs one command at a time, so there the
// "concurrent" adds of the first test reach the memory one after the other.
import { expect, inject, test } from 'vitest'
import type { MessageInput } from '../src/types'
import { describeEachEngine } from './browsers/each-engine'
import type { PageSession } from './browsers/session'
import { scanDatabase } from './raw-scan'
import { indexedWithRetry, tabsClosedAfterEach } from './tab-pages'

const baseUrl = inject('baseUrl')

function turns(conversationId: string, count: number): MessageInput[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${conversationId}-${i}`,
    conversationId,
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: `Note ${i} of ${conversationId}: the parcel number ${1000 + i} went to the ${['harbour', 'station', 'library', 'bakery'][i % 4]} office. Remember it for day ${i % 28}.`,
  }))
}

/** Message ids in the whole stored history, through the `full` strategy. */
function storedIds(page: PageSession): Promise<string[]> {
  return page.evaluate(async () => {
    const context = await window.tabMemory.buildContext('everything', { strategy: 'full' })
    return [...new Set(context.items.map((item) => item.messageId))]
  })
}

describeEachEngine('tabs', (run) => {
  const tab = tabsClosedAfterEach(run)

  test('two pages share one history: concurrent adds stored once and embedded once, an add seen at once, a forget final in both', async () => {
    const name = 'e2e-tabs-shared'
    const [a, b] = [await tab(name), await tab(name)]

    const add = (page: PageSession, messages: MessageInput[]) =>
      page.evaluate((messages) => window.tabMemory.add(messages), messages)
    const [fromA, fromB] = await Promise.all([add(a, turns('a', 30)), add(b, turns('b', 30))])
    expect([...fromA, ...fromB]).toHaveLength(60)
    await b.evaluate(() => window.tabMemory.indexed())
    const stats = await a.evaluate(() => window.tabMemory.stats())
    expect(stats).toMatchObject({ messages: 60, pending: 0 })
    const ids = [...(await storedIds(a))].sort()
    expect(ids).toEqual([...fromA, ...fromB].sort())
    expect(await storedIds(b)).toHaveLength(60)
    // Each page has its own onProgress, the page that does not hold the engine included.
    for (const page of [a, b])
      expect(await page.evaluate(() => window.tabProgress.some((progress) => progress.done > 0))).toBe(true)
    // The model ran once per sentence: one stored vector per sentence, none twice.
    const vectorSids = (await scanDatabase(a, name, [])).vectorSids
    expect(vectorSids).toHaveLength(stats.sentences)
    expect(new Set(vectorSids).size).toBe(stats.sentences)

    // An add resolved in A is in B's next context.
    await add(a, [{ id: 'zebra', conversationId: 'z', role: 'user', content: 'The zebra gate code is 77123.' }])
    const seen = await b.evaluate(() =>
      window.tabMemory.buildContext('zebra gate code', { strategy: 'lexical', budget: 300 }),
    )
    expect(seen.text).toContain('77123')

    // A forget in B leaves no trace in A's contexts nor anywhere in the database.
    await add(a, [
      { id: 'secret', conversationId: 'secret', role: 'user', content: 'My marmalade password is quinceflower.' },
    ])
    await a.evaluate(() => window.tabMemory.indexed())
    expect(await b.evaluate(() => window.tabMemory.forget({ conversationId: 'secret' }))).toBe(1)
    const after = await a.evaluate(async () => {
      const memory = window.tabMemory
      const texts: string[] = []
      for (const strategy of ['lexical', 'dense', 'hybrid', 'full'] as const)
        texts.push((await memory.buildContext('marmalade password quinceflower', { strategy, budget: 2000 })).text)
      await memory.indexed()
      return texts
    })
    for (const text of after) expect(text).not.toContain('quinceflower')
    expect((await scanDatabase(a, name, ['quinceflower'])).found).toEqual([])

    for (const page of [a, b]) await page.evaluate(() => window.tabMemory.close())
  })

  test('the page holding the engine closes mid-ingest: another page finishes the backlog, and a third page opened meanwhile sees it all', async () => {
    const name = 'e2e-tabs-leader'
    const first = await tab(name)
    const second = await tab(name)
    const added = await first.evaluate((messages) => window.tabMemory.add(messages), turns('ingest', 200))
    const before = await second.evaluate(() => window.tabMemory.stats())
    expect(before.pending).toBeGreaterThan(0)

    await first.close()
    const third = await tab(name)
    await indexedWithRetry(second)
    const stats = await second.evaluate(() => window.tabMemory.stats())
    expect(stats).toMatchObject({ messages: 200, pending: 0 })
    const more = await second.evaluate(() =>
      window.tabMemory.add({ id: 'late', role: 'user', content: 'A late note about the harbour.' }),
    )
    expect((await storedIds(third)).sort()).toEqual([...added, ...more].sort())
    const vectorSids = (await scanDatabase(third, name, [])).vectorSids
    expect(new Set(vectorSids).size).toBe(vectorSids.length)
    for (const page of [second, third]) await page.evaluate(() => window.tabMemory.close())
  })

  test("a page's concurrent calls on the engine another page runs are each answered, in whatever order the browser's WebCrypto seals and opens them", async () => {
    // Each call crosses sealed (src/tab-election.ts); Firefox can finish sealing a short call before a long one made
    // just before it, which once left the long call unanswered. Thirty rounds of a long message (refused: over
    // maxMessageChars) and two short calls made right after it.
    const name = 'e2e-tabs-call-order'
    const [leader, follower] = [await tab(name), await tab(name)]
    await leader.evaluate(() => window.tabMemory.add({ role: 'user', content: 'The ferry leaves at noon.' }))
    const rounds = await follower.evaluate(async () => {
      const memory = window.tabMemory
      const outcomes: string[] = []
      const long = 'The harbour office keeps the parcel notes. '.repeat(80_000)
      for (let round = 0; round < 30; round++) {
        const calls: Promise<unknown>[] = [
          memory.add({ role: 'user', content: long }),
          memory.stats(),
          memory.messages({ limit: 1 }),
        ]
        const settled = await Promise.all(
          calls.map((call) =>
            Promise.race([
              call.then(
                () => 'resolved',
                (error: { code?: string }) => error.code,
              ),
              new Promise((resolve) => setTimeout(() => resolve('unanswered after 30 s'), 30_000)),
            ]),
          ),
        )
        outcomes.push(settled.join(', '))
        if (settled.includes('unanswered after 30 s')) break
      }
      return outcomes
    })
    expect(rounds).toEqual(Array(30).fill('INVALID_INPUT, resolved, resolved'))
    for (const page of [leader, follower]) await page.evaluate(() => window.tabMemory.close())
  })

  test('a newer Sift upgrades the database in another page: the pages sharing the older engine stop with SCHEMA_TOO_NEW, the upgrade goes through', async () => {
    const name = 'e2e-tabs-upgrade'
    const [leader, follower] = [await tab(name), await tab(name)]
    await leader.evaluate(() =>
      window.tabMemory.add({ role: 'user', content: 'The cellar key hangs behind the clock.' }),
    )
    await indexedWithRetry(follower)

    // What a newer release does when it opens the database: an upgrade, which waits until every open connection closes.
    const newer = await tab.blank()
    await newer.goto(`${baseUrl}/?open=0`)
    const upgrade = await newer.evaluate(async (name) => {
      const installed = (await indexedDB.databases()).find((database) => database.name === name)!.version!
      return new Promise<{ from: number; to: number; messages: number }>((resolve, reject) => {
        const request = indexedDB.open(name, installed + 10)
        request.onupgradeneeded = () => request.result.createObjectStore('futureTable', { keyPath: 'key' })
        request.onsuccess = () => {
          const count = request.result.transaction('messages', 'readonly').objectStore('messages').count()
          count.onsuccess = () => {
            request.result.close()
            resolve({ from: installed, to: installed + 10, messages: count.result })
          }
        }
        request.onerror = () => reject(request.error)
      })
    }, name)
    expect(upgrade.messages).toBe(1)

    for (const page of [leader, follower]) {
      const codes = await page.evaluate(async () => {
        const memory = window.tabMemory
        const calls = [
          memory.add({ role: 'user', content: 'Too late.' }),
          memory.buildContext('cellar key'),
          memory.stats(),
        ]
        return Promise.all(
          calls.map((call) =>
            (call as Promise<unknown>).then(
              () => 'resolved',
              (error: { code?: string }) => error.code,
            ),
          ),
        )
      })
      expect(codes).toEqual(['SCHEMA_TOO_NEW', 'SCHEMA_TOO_NEW', 'SCHEMA_TOO_NEW'])
    }
  })
})
