// Soak benchmark in headless Chromium: two pages of one browser context open one memory (one engine, elected
// across tabs by src/tab-election.ts) through the demo page's test hook, ingest a synthetic history in bursts
// alternating between the pages, query it continuously from both, and forget now and then from one of them.
//   npm run bench:soak -- [--sentences N] [--burst MESSAGES] [--max-pending SENTENCES] [--forget-every BURSTS]
//                         [--budgets 2000,8000] [--json OUT] [--no-build]
// It checks that no call rejected and no acknowledged message was lost, and reports heap growth and the
// buildContext latency drift between the first and the last fifth of the run. Exits 1 when a check fails.
import { writeFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import type { BrowserContext, CDPSession, Page } from 'playwright-core'
import { generateHistory, generateQueries } from '../shared/synthetic-history'
import * as soakPage from './soak-page'
import { compareIds, latencyDrift, soakTable, type HeapFigures, type SoakReport } from './soak-report'
import type { MemoryStats } from '../../src/types'
import { seededRandom } from '../../worker/util/seeded-random'
import { buildDemo, demoOutDir } from '../../scripts/demo-build'
import { launchChromium } from '../../scripts/launch-chromium'
import { startStaticServer } from '../../scripts/static-server'

const { values } = parseArgs({
  options: {
    sentences: { type: 'string', default: '100000' },
    // generateHistory gives 20 sentences per 10 messages, so a burst of 20 messages is 40 sentences.
    burst: { type: 'string', default: '20' },
    // Adds resolve once stored, long before the model has embedded them; without a cap the history would be stored
    // in the first minutes and the rest of the run would only drain the backlog, so bursts wait while it is larger.
    'max-pending': { type: 'string', default: '2000' },
    'forget-every': { type: 'string', default: '10' },
    budgets: { type: 'string', default: '2000,8000' },
    queries: { type: 'string', default: '200' },
    json: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
  },
})
const target = Number(values.sentences)
const burstSize = Number(values.burst)
const maxPending = Number(values['max-pending'])
const forgetEvery = Number(values['forget-every'])
const budgets = values.budgets.split(',').map((b) => Number(b.trim()))
const queryCount = Number(values.queries)
if (
  ![target, burstSize, forgetEvery, queryCount].every((n) => Number.isInteger(n) && n >= 1) ||
  !(maxPending >= 0) ||
  budgets.some((b) => !Number.isInteger(b) || b < 1)
) {
  console.error(
    'bench:soak: --sentences, --burst, --forget-every and --queries take positive integers, --max-pending one ≥ 0, --budgets e.g. 2000,8000',
  )
  process.exit(2)
}

const startedAt = Date.now()
const say = (message: string) => console.log(`[${((Date.now() - startedAt) / 1000).toFixed(0)}s] ${message}`)

/** Every rejected call, by `method:code`. */
const errors: Record<string, number> = {}
const countError = (method: string, code: string) =>
  (errors[`${method}:${code}`] = (errors[`${method}:${code}`] ?? 0) + 1)

async function call<T>(page: Page, request: Parameters<typeof soakPage.callMemory>[0]): Promise<T | undefined> {
  const outcome = await page.evaluate(soakPage.callMemory, request)
  if (outcome.ok) return outcome.value as T
  countError(request.method, outcome.code)
  console.error(`[${request.method} rejected] ${outcome.code}: ${outcome.message}`)
  return undefined
}

async function openPage(context: BrowserContext, baseUrl: string, name: string): Promise<Page> {
  const page = await context.newPage()
  page.on('pageerror', (error) => {
    countError('page', 'pageerror')
    console.error(`[page error] ${error.message}`)
  })
  page.on('console', (message) => {
    if (message.type() === 'error') console.error(`[page error] ${message.text()}`)
  })
  await page.goto(`${baseUrl}/?open=0`)
  await page.waitForFunction(() => typeof window.sift?.createMemory === 'function')
  await page.evaluate(soakPage.openSoakMemory, name)
  return page
}

/** Main-thread heap of each page after a forced collection, and the pages with their workers, in parallel. */
async function measureHeaps(pages: Page[], sessions: CDPSession[]): Promise<{ pages: number[]; userAgent?: number }> {
  const userAgent = Promise.all(pages.map((page) => page.evaluate(soakPage.measureUserAgentMemory, 60_000)))
  const heaps: number[] = []
  for (const session of sessions) {
    await session.send('HeapProfiler.collectGarbage')
    heaps.push((await session.send('Runtime.getHeapUsage')).usedSize)
  }
  const measured = await userAgent
  return {
    pages: heaps,
    userAgent: measured.every((b) => b !== undefined) ? measured.reduce((a, b) => a! + b!, 0) : undefined,
  }
}

const history = generateHistory(target)
const requests = generateQueries(queryCount, history, Math.min(2000, history.sentences.length)).map((q) => q.text)
const random = seededRandom(17)

if (!values['no-build']) {
  say('building the demo page')
  await buildDemo()
}
const server = await startStaticServer({ root: demoOutDir, port: 0 })
const browser = await launchChromium({ webgpu: false })
let exitCode = 1
try {
  const context = await browser.newContext()
  // tsx compiles with esbuild's keepNames, which wraps named inner functions in a `__name(...)` call; page.evaluate
  // sends a function's source to the page, where that helper does not exist.
  await context.addInitScript('globalThis.__name = (fn) => fn')
  const name = `sift-soak-${startedAt}`
  // Page A opens first, so it wins the election and runs the engine; B relays its calls to it.
  const a = await openPage(context, server.url, name)
  const b = await openPage(context, server.url, name)
  const pages = [a, b]
  const sessions = await Promise.all(pages.map((page) => context.newCDPSession(page)))

  // One request per page loads the model before the heap baseline, so the baseline is the loaded memory.
  for (const page of pages)
    await page.evaluate(
      (request) => window.soak.memory.buildContext(request, { strategy: 'hybrid', budget: 2000 }),
      requests[0],
    )
  const heapStart = await measureHeaps(pages, sessions)
  say(
    `pages open, model loaded; heap baseline taken; ingesting ${history.sentences.length} sentences in ${history.messages.length} messages`,
  )

  await Promise.all(
    pages.map((page, i) => page.evaluate(soakPage.startQueryLoop, { requests, budgets, offset: i * 7 })),
  )
  const acknowledged = new Set<string>()
  const forgotten = new Set<string>()
  // Ids whose add or forget rejected: their state is not claimed by Sift, so neither check counts them.
  const uncertain = new Set<string>()
  const forgettable: string[] = []
  let forgetMiscounts = 0
  let forgets = 0
  let bursts = 0
  let sentencesAdded = 0
  let pending = 0
  let lastProgress = Date.now()
  const runStart = Date.now()

  const progress = async () => {
    const counts = await Promise.all(pages.map((page) => page.evaluate(soakPage.queryProgress)))
    const elapsed = (Date.now() - runStart) / 1000
    const queries = counts.reduce((n, c) => n + c.queries, 0)
    const errorTotal = Object.values(errors).reduce((n, e) => n + e, 0) + counts.reduce((n, c) => n + c.errors, 0)
    say(
      `stored ${sentencesAdded}/${history.sentences.length} sentences, pending ${pending}, embedded ~${((sentencesAdded - pending) / elapsed).toFixed(1)}/s, ` +
        `buildContext ${queries}, forgets ${forgets}, errors ${errorTotal}`,
    )
    lastProgress = Date.now()
  }

  for (let first = 0; first < history.messages.length; first += burstSize) {
    const messages = history.messages.slice(first, first + burstSize)
    const page = pages[bursts % 2]
    const ids = await call<string[]>(page, { method: 'add', messages })
    if (ids) {
      for (const id of ids) acknowledged.add(id)
      if (page === a) forgettable.push(...ids)
    } else for (const message of messages) uncertain.add(message.id)
    sentencesAdded = history.messageStarts[Math.min(first + burstSize, history.messages.length)]
    bursts++

    if (bursts % forgetEvery === 0 && forgettable.length > 0) {
      // Swap-remove a random id A added: forgets hit old and new messages alike.
      const at = Math.floor(random() * forgettable.length)
      const id = forgettable[at]
      forgettable[at] = forgettable[forgettable.length - 1]
      forgettable.pop()
      const removed = await call<number>(a, { method: 'forget', id })
      forgets++
      if (removed === 1) forgotten.add(id)
      else if (removed === undefined) uncertain.add(id)
      else {
        forgetMiscounts++
        uncertain.add(id)
      }
    }

    for (;;) {
      const stats = await call<MemoryStats>(pages[bursts % 2], { method: 'stats' })
      pending = stats?.pending ?? pending
      if (Date.now() - lastProgress >= 10_000) await progress()
      if (pending <= maxPending || stats === undefined) break
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
  }
  await progress()
  say('all bursts stored; waiting for indexed() on both pages')
  await Promise.all(pages.map((page) => call<void>(page, { method: 'indexed' })))
  const runEnd = Date.now()
  const loops = await Promise.all(pages.map((page) => page.evaluate(soakPage.stopQueryLoop)))
  for (const loop of loops)
    for (const [code, count] of Object.entries(loop.errors))
      errors[`buildContext:${code}`] = (errors[`buildContext:${code}`] ?? 0) + count
  const queries = loops.flatMap((loop) => loop.queries)
  say(`indexed; checking what is stored (${queries.length} buildContext calls made during the run)`)

  // B checks: it did not forget anything itself, so a forget it does not see would not be final everywhere.
  const expected = [...acknowledged].filter((id) => !forgotten.has(id) && !uncertain.has(id))
  const full = await b.evaluate(soakPage.fullContextIds)
  if (!full.ok) countError('buildContext(full)', full.code)
  const fromContext = compareIds(full.ok ? full.value : [], expected, forgotten)
  const fromStore = compareIds(await b.evaluate(soakPage.rawMessageIds, name), expected, forgotten)
  const finalStats = await call<MemoryStats>(b, { method: 'stats' })
  const heapEnd = await measureHeaps(pages, sessions)
  for (const page of [b, a]) await call<void>(page, { method: 'close' })

  const heap: HeapFigures = {
    pagesStart: heapStart.pages,
    pagesEnd: heapEnd.pages,
    userAgentStart: heapStart.userAgent,
    userAgentEnd: heapEnd.userAgent,
  }
  const ingestSeconds = (runEnd - runStart) / 1000
  const report: SoakReport = {
    date: new Date(startedAt).toISOString(),
    sentencesTarget: target,
    sentencesAdded,
    messagesAdded: history.messages.length,
    bursts,
    forgets,
    wallSeconds: (Date.now() - startedAt) / 1000,
    ingestSeconds,
    sentencesPerSecond: sentencesAdded / ingestSeconds,
    errors,
    errorCount: Object.values(errors).reduce((n, e) => n + e, 0),
    lostFromContext: fromContext.lost.length,
    lostFromStore: fromStore.lost.length,
    forgottenPresentInContext: fromContext.stillPresent.length,
    forgottenPresentInStore: fromStore.stillPresent.length,
    statsMessagesDelta: finalStats ? finalStats.messages - expected.length : NaN,
    forgetMiscounts,
    queries: queries.length,
    degradedQueries: queries.filter((q) => q.degraded).length,
    ...latencyDrift(queries, runStart, runEnd),
    heap,
    backend: finalStats?.backend ?? 'unknown',
    denseIndex: finalStats
      ? finalStats.denseIndex.kind === 'exact'
        ? 'exact'
        : `coarse-lists (${finalStats.denseIndex.lists} lists)`
      : 'unknown',
    lastFailure: finalStats?.lastFailure ? JSON.stringify(finalStats.lastFailure) : undefined,
  }
  console.log(
    `\nSoak: ${report.date}, ${target} sentences target, bursts of ${burstSize} messages, hybrid budgets ${budgets.join('/')}\n`,
  )
  console.log(soakTable(report))
  if (fromContext.lost.length + fromStore.lost.length > 0)
    console.error(
      `lost ids (first 20): ${[...new Set([...fromContext.lost, ...fromStore.lost])].slice(0, 20).join(', ')}`,
    )
  if (values.json) {
    await writeFile(
      values.json,
      JSON.stringify({ options: { target, burstSize, maxPending, forgetEvery, budgets, queryCount }, report }, null, 2),
    )
    say(`wrote ${values.json}`)
  }
  const failed =
    report.errorCount > 0 ||
    report.lostFromContext + report.lostFromStore > 0 ||
    report.forgottenPresentInContext + report.forgottenPresentInStore > 0 ||
    report.statsMessagesDelta !== 0 ||
    forgetMiscounts > 0
  exitCode = failed ? 1 : 0
  if (failed) console.error('bench:soak: FAILED (errors, lost or resurrected messages, or a count mismatch)')
} finally {
  await browser.close()
  await server.close()
}
process.exit(exitCode)
