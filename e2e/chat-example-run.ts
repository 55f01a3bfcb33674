// examples/chat as a user chats with it: the history typed turn by turn, each sent to the fake LLM, the question
// whose answer only the context holds, then a reload; in Chromium with what playwright sees of the visit (its bytes,
// workers and requests to other origins), and in every engine through the session interface (e2e/browsers/session.ts),
// with what the in-page hook records. package-install.test.ts runs both against the example installed from the tarball.
import { expect } from 'vitest'
import { launchChromium } from '../scripts/launch-chromium'
import type { PageSession } from './browsers/session'
import { type ChatRequest, type FakeLlm, messageText } from './fake-llm'
import { setField, texts, waitForText } from './page-steps'

/** The context budget the test sets in the page: well under the history it builds, so the budget has to choose. */
const BUDGET = 1000

/**
 * The history typed into the chat, one user turn each. The dog's name is said early, long before the last turns
 * the page sends verbatim, so only the context can bring it to the final question.
 */
const HISTORY = [
  'I moved to Leeds in March for a job at the university library.',
  'My flat is on the fourth floor and the lift breaks down every other week.',
  'We adopted a greyhound last spring and named her Biscuit after her colour.',
  'On Saturdays I swim forty lengths at the leisure centre before breakfast.',
  'My sister Ines is a paediatric nurse in Porto and visits every August.',
  'I am learning the cello, and my teacher says my bowing arm is too stiff.',
  'Our book club is reading a long Russian novel that nobody has finished yet.',
  'I cannot eat peanuts, so I always check the labels on cereal bars.',
  'The library is digitising its map collection and I catalogue the scans.',
  'I bought a second-hand bicycle with a wicker basket for the commute.',
  'My grandmother taught me to bake rye bread with caraway seeds.',
  'Last winter the boiler failed twice and the landlord took weeks to fix it.',
  'I keep tomato plants on the balcony, and the pigeons keep eating the seedlings.',
  'For my birthday I would like a proper raincoat, because Leeds is wet.',
  'At work we are planning an exhibition on nineteenth-century railway posters.',
  'I usually take the early train to York to visit an old school friend.',
  'My favourite film is a quiet Japanese drama about a family of shoplifters.',
  'I started a spreadsheet to track what I spend on groceries each month.',
  'The neighbours downstairs play the trombone late on Thursday evenings.',
  'I would like to walk the Pennine Way one day, in stages over several summers.',
  'Our team lunch is every second Friday at a Vietnamese place near the station.',
  'I have been reading about how to prune an apple tree in late winter.',
  'My manager wants the map catalogue finished before the autumn conference.',
  'I signed up for a pottery evening class but missed the first two sessions.',
  'The cello teacher suggested scales every morning for twenty minutes.',
  'Ines is thinking about moving to Lisbon for a hospital job next year.',
  'I repaired the bicycle chain myself after watching a video about it.',
  'The book club voted to read a detective story after the Russian novel.',
  'I want to learn enough Portuguese to chat with my sister in her language.',
  'On rainy evenings I listen to old radio plays while I cook.',
]
const QUESTION = 'What is the name of my dog?'
/** The turns the page sends verbatim (examples/chat/src/main.ts, RECENT_TURNS). */
const RECENT_TURNS = 6
/** The turns the page shows again after a reload (examples/chat/src/main.ts, SHOWN_TURNS). */
const SHOWN_TURNS = 50

/** What one run of the example recorded: the chat requests, and every same-origin response of the visit. */
export interface ChatRun {
  requests: ChatRequest[]
  /** URL path → bytes as transferred (headers and body, compressed where the server compressed). */
  transferred: Map<string, number>
  problems: string[]
  /** The URLs of the workers the page started (the engine's, and the model's that it starts). */
  workers: string[]
  /** Requests to any origin but the page's and the fake LLM's. */
  foreign: string[]
}

/**
 * Types HISTORY and then QUESTION into the example at `url` in Chromium, each sent with the Send button and answered
 * by the fake LLM, then reloads.
 */
export async function chatThrough(url: string, llm: FakeLlm): Promise<ChatRun> {
  const browser = await launchChromium({ webgpu: false })
  const firstRequest = llm.requests.length
  const transferred = new Map<string, number>()
  const problems: string[] = []
  const workers: string[] = []
  const foreign: string[] = []
  try {
    const context = await browser.newContext()
    context.on('request', (request) => {
      const origin = new URL(request.url()).origin
      if (origin !== url && origin !== new URL(llm.url).origin && !request.url().startsWith('data:'))
        foreign.push(request.url())
    })
    // The first visit only: the reload at the end fetches again.
    let firstVisit = true
    context.on('requestfinished', async (request) => {
      if (!firstVisit || !request.url().startsWith(url)) return
      const sizes = await request.sizes()
      const path = new URL(request.url()).pathname
      transferred.set(path, (transferred.get(path) ?? 0) + sizes.responseBodySize + sizes.responseHeadersSize)
    })
    const page = await context.newPage()
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`))
    page.on('worker', (worker) => {
      workers.push(worker.url())
      worker.on(
        'console',
        (message) => message.type() === 'error' && problems.push(`worker console: ${message.text()}`),
      )
    })
    await page.goto(`${url}/`)
    await page.locator('#status', { hasText: 'all indexed' }).waitFor({ timeout: 60_000 })
    await page.fill('#endpoint', llm.url)
    await page.fill('#model', 'fake-model')
    await page.fill('#budget', String(BUDGET))
    for (const [index, text] of [...HISTORY, QUESTION].entries()) {
      if (text === QUESTION)
        await page.locator('#status', { hasText: /, all indexed \(wasm\)$/ }).waitFor({ timeout: 120_000 })
      await page.fill('#message', text)
      await page.click('#send')
      await page.locator('#turns li[data-role=assistant]').nth(index).waitFor({ timeout: 60_000 })
    }
    expect(await page.locator('#turns li[data-role=error]').count()).toBe(0)
    // After a reload the page shows the last stored turns again, oldest first (read newest first).
    const shown = await page.locator('#turns li').allTextContents()
    expect(shown.length).toBeGreaterThan(SHOWN_TURNS)
    firstVisit = false
    await page.reload()
    await page.locator('#status', { hasText: 'all indexed' }).waitFor({ timeout: 60_000 })
    expect(await page.locator('#turns li').allTextContents()).toEqual(shown.slice(-SHOWN_TURNS))
    return { requests: llm.requests.slice(firstRequest), transferred, problems, workers, foreign }
  } finally {
    await browser.close()
  }
}

/** The checks on one Chromium run: no problem, no foreign request, the package's workers, and its chat requests. */
export function expectContextNotHistory({ requests, problems, workers, foreign }: ChatRun): void {
  expect(problems).toEqual([])
  expect(foreign).toEqual([])
  // The workers are the package's own chunks, which the app's Vite found through their URLs and served or bundled.
  expect(
    workers.some((worker) => /\/engine-worker-[^/]*\.js/.test(worker)),
    workers.join('\n'),
  ).toBe(true)
  expect(
    workers.some((worker) => /\/model-worker-[^/]*\.js/.test(worker)),
    workers.join('\n'),
  ).toBe(true)
  expectChatRequests(requests)
}

/**
 * The checks on the chat requests of one run through HISTORY and QUESTION: one each, the same system prompt first,
 * and the last one a budgeted context that brings the dog's name, the recent turns and the question, never the
 * whole history.
 */
export function expectChatRequests(requests: ChatRequest[]): void {
  expect(requests).toHaveLength(HISTORY.length + 1)
  // The stable prefix: the system prompt, byte for byte the same in every request.
  const [system] = requests[0].messages
  expect(system.role).toBe('system')
  for (const request of requests) expect(request.messages[0]).toEqual(system)

  const last = requests.at(-1)!
  const contextMessage = last.messages[1]
  expect(contextMessage.role).toBe('system')
  const contextText = messageText(contextMessage)
  expect(contextText).toContain('named her Biscuit')
  // The context message is the budgeted context plus its one-line heading.
  const heading = contextText.indexOf('\n') + 1
  expect(contextText.length - heading).toBeLessThanOrEqual(BUDGET)
  expect(last.messages.slice(2)).toHaveLength(RECENT_TURNS + 1)
  expect(last.messages.at(-1)).toEqual({ role: 'user', content: QUESTION })
  // Not the whole history: of the turns before the recent ones, most are left out, and everything sent after the
  // system prompt is shorter than the user's turns alone.
  const body = JSON.stringify(last.messages)
  const older = HISTORY.slice(0, -RECENT_TURNS / 2)
  const sent = older.filter((turn) => body.includes(turn))
  expect(sent.length).toBeLessThan(older.length / 2)
  const sentChars = last.messages.slice(1).reduce((sum, message) => sum + messageText(message).length, 0)
  expect(sentChars).toBeLessThan(HISTORY.join(' ').length)
  console.log(
    `[chat] last request: ${sentChars} characters after the system prompt, for ${HISTORY.join(' ').length} characters of user turns alone; ${sent.length} of ${older.length} older turns in it`,
  )
}

/** What one run of the example recorded in an engine other than Chromium. */
export interface EngineChatRun {
  requests: ChatRequest[]
  /** The hook's record (and the driver's, where it has one) of console errors, uncaught errors and CSP violations. */
  problems: string[]
  /** The turns shown before the reload (the last SHOWN_TURNS of them) and after it, as text. */
  shownBefore: string[]
  shownAfter: string[]
}

/**
 * HISTORY and QUESTION typed into the example at `url` in a tab of any engine, then a reload, as `chatThrough` does;
 * the tab is left open (in WebKit, closing a session's last window ends the session).
 */
export async function chatThroughIn(page: PageSession, url: string, llm: FakeLlm): Promise<EngineChatRun> {
  const firstRequest = llm.requests.length
  // The tab may have shown other pages before: their errors are not this run's.
  const earlierErrors = (await page.errors()).length
  await page.goto(`${url}/`)
  await waitForText(page, '#status', 'all indexed', 120_000)
  await setField(page, '#endpoint', llm.url)
  await setField(page, '#model', 'fake-model')
  await setField(page, '#budget', String(BUDGET))
  for (const [index, text] of [...HISTORY, QUESTION].entries()) {
    if (text === QUESTION) await waitForText(page, '#status', ', all indexed \\(wasm\\)$', 180_000)
    await setField(page, '#message', text)
    await page.click('#send')
    // The reply shown, or an error in its place (checked below), rather than a wait for a reply that never comes.
    await page.waitForFunction(
      (index) => document.querySelectorAll('#turns li[data-role=assistant], #turns li[data-role=error]').length > index,
      index,
      { timeout: 60_000 },
    )
  }
  expect(await texts(page, '#turns li[data-role=error]')).toEqual([])
  const shown = await texts(page, '#turns li')
  expect(shown.length).toBeGreaterThan(SHOWN_TURNS)
  await page.reload()
  // The model is in the HTTP cache by now: the memory opens again within seconds.
  await waitForText(page, '#status', 'all indexed', 60_000)
  return {
    requests: llm.requests.slice(firstRequest),
    problems: (await page.errors()).slice(earlierErrors),
    shownBefore: shown.slice(-SHOWN_TURNS),
    shownAfter: await texts(page, '#turns li'),
  }
}
