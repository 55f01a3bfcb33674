// examples/react-ai-sdk as a user chats with it (useChat, Sift's AI SDK middleware, the fake LLM), in Chromium and,
// through the session interface (e2e/browsers/session.ts), in every engine; and the checks on what the LLM received
// and what was stored: package-install.test.ts runs it under `vite dev` and `vite build` + `vite preview`.
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { launchChromium } from '../scripts/launch-chromium'
import type { PageSession } from './browsers/session'
import { CHAT_HISTORY } from './chat-history'
import { messageText, type ChatRequest, type FakeLlm } from './fake-llm'
import { setField, texts, waitForText } from './page-steps'

/** Shares no word with the turn that answers it. */
const QUESTION = 'What do I call my pet?'
/** The turns the page sends verbatim (examples/react-ai-sdk/src/App.tsx, RECENT_TURNS). */
const RECENT_TURNS = 6
/** Said after the reload, then forgotten: a fact the next request must not carry. */
const FORGOTTEN = 'My locker code is 4471, keep it safe.'
/** Asks the model to forget a fact of the history in other words: its forget tool call waits for Approve. */
const FORGET_REQUEST = 'Please drop my weekend exercise habit [forget: my Saturday swimming]'
/** The statement that request resolves to: one sentence, its message removed whole once approved. */
const FORGET_STATEMENT = CHAT_HISTORY[2]
/** The request whose reply the run stops halfway: that reply is shown and sent by useChat, but never stored. */
const SLOW = /\[slow\]/

export interface ReactChatRun {
  requests: ChatRequest[]
  problems: string[]
  /** What the page showed before the reload and after it (role: text). */
  shownBefore: string[]
  shownAfter: string[]
  /** After the reload: a fact said, then forgotten with its Forget button; what the page showed then, and the request after. */
  shownAfterForget: string[]
  requestAfterForget: ChatRequest
  /**
   * Then, in every engine: the model's forget tool call, approved with its Approve button; the statements the approval
   * showed, what the page showed once the reply came, and the request after.
   */
  forgetTool: { approvalShown: string[]; shownAfter: string[]; requestAfter: ChatRequest }
  /** Bytes transferred on the first visit (headers and bodies of the page's own origin), until the reload. */
  firstVisitBytes: number
}

const storedCount = async (page: Page) => Number(await page.locator('#stored').textContent())

/** Sends `text` and waits until the page is idle again (the reply finished, failed or stopped). */
async function send(page: Page, text: string): Promise<void> {
  await page.fill('#message', text)
  await page.click('#send')
  await page.locator('#send:not([disabled])').waitFor({ timeout: 60_000 })
}

/** Chats through CHAT_HISTORY, a failed call, an aborted one and QUESTION with the example at `url`, then reloads. */
export async function reactChatThrough(url: string, llm: FakeLlm): Promise<ReactChatRun> {
  const browser = await launchChromium({ webgpu: false })
  const firstRequest = llm.requests.length
  const problems: string[] = []
  try {
    const context = await browser.newContext()
    let firstVisitBytes = 0
    let firstVisit = true
    context.on('requestfinished', async (request) => {
      if (!firstVisit || !request.url().startsWith(url)) return
      const sizes = await request.sizes()
      firstVisitBytes += sizes.responseBodySize + sizes.responseHeadersSize
    })
    const page = await context.newPage()
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text()))
        problems.push(`console: ${message.text()}`)
    })
    page.on('worker', (worker) =>
      worker.on('console', (message) => {
        if (message.type() === 'error' || /Content Security Policy/i.test(message.text()))
          problems.push(`worker console: ${message.text()}`)
      }),
    )
    await page.goto(`${url}/`)
    await page.locator('#chat-form').waitFor({ timeout: 60_000 })
    await page.fill('#base-url', llm.baseURL)
    await page.fill('#model', 'fake-model')
    for (const text of CHAT_HISTORY) await send(page, text)
    const afterHistory = 2 * CHAT_HISTORY.length
    await expect.poll(() => storedCount(page)).toBe(afterHistory)

    // A call that fails stores nothing, and neither does a reply stopped halfway; a slow reply is stored once it
    // has finished, not while it streams.
    await send(page, 'Please [fail] this time.')
    await expect.poll(() => page.locator('#error').count()).toBe(1)
    await page.fill('#message', 'Tell me slowly [slow] and I will stop you.')
    await page.click('#send')
    await page.locator('#turns li[data-role=assistant][data-done=no]', { hasText: 'Noted' }).waitFor()
    expect(await storedCount(page)).toBe(afterHistory)
    await page.click('#stop')
    await page.locator('#send:not([disabled])').waitFor()
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(await storedCount(page)).toBe(afterHistory)

    await page.locator('#status', { hasText: 'Model ready, all indexed' }).waitFor({ timeout: 120_000 })
    await send(page, QUESTION)
    await expect.poll(() => storedCount(page)).toBe(afterHistory + 2)
    const shownBefore = await page.locator('#turns li .text').allTextContents()
    firstVisit = false
    await page.reload()
    await page.locator('#turns li').first().waitFor({ timeout: 60_000 })
    const shownAfter = await page.locator('#turns li .text').allTextContents()
    const requests = llm.requests.slice(firstRequest)

    // A fact among the turns useChat sends verbatim, forgotten from the screen: gone from the screen and from the
    // next request, though useChat kept its own copy of the thread.
    // The endpoint is kept in the tab's state only: set again after the reload.
    await page.fill('#base-url', llm.baseURL)
    await page.fill('#model', 'fake-model')
    await send(page, FORGOTTEN)
    await expect
      .poll(() => storedCount(page), {
        message: `the exchange after the reload was not stored; page: ${await page.locator('#error').allTextContents()} ${problems.join(' | ')}`,
      })
      .toBe(afterHistory + 4)
    await page.locator('#turns li', { hasText: FORGOTTEN }).locator('button.forget').click()
    await expect.poll(() => page.locator('#turns li', { hasText: FORGOTTEN }).count()).toBe(0)
    const shownAfterForget = await page.locator('#turns li .text').allTextContents()
    await send(page, 'What else do you know?')
    const requestAfterForget = llm.requests.at(-1)!
    const forgetTool = await forgetByTool(page, llm)
    await send(page, 'And now?')
    return {
      requests,
      problems,
      shownBefore,
      shownAfter,
      shownAfterForget,
      requestAfterForget,
      forgetTool: { ...forgetTool, requestAfter: llm.requests.at(-1)! },
      firstVisitBytes,
    }
  } finally {
    await browser.close()
  }
}

/**
 * Has the model call its forget tool and approves the call in the page: what the approval showed, and the turns shown
 * once the reply has come.
 */
async function forgetByTool(page: Page, llm: FakeLlm): Promise<{ approvalShown: string[]; shownAfter: string[] }> {
  const sentBefore = toolResultsSent(llm)
  await page.fill('#message', FORGET_REQUEST)
  await page.click('#send')
  const approval = page.locator('.forget-approval')
  await approval.locator('li').first().waitFor({ timeout: 60_000 })
  const approvalShown = await approval.locator('li').allTextContents()
  await approval.locator('button.approve').click()
  await expect.poll(() => toolResultsSent(llm) > sentBefore, { timeout: 60_000 }).toBe(true)
  await page.locator('#send:not([disabled])').waitFor()
  // The user's turn leaves the screen (the fake LLM's reply quotes the tool's result, so it is looked for by role).
  const userTurns = () => page.locator('#turns li[data-role=user] .text').allTextContents()
  await expect.poll(userTurns).not.toContain(FORGET_STATEMENT)
  return { approvalShown, shownAfter: await page.locator('#turns li .text').allTextContents() }
}

/** The checks on one run: what each request held, and what the reload showed. */
export function expectReactChat(run: Omit<ReactChatRun, 'firstVisitBytes'>): void {
  const { requests, problems, shownBefore, shownAfter } = run
  // The one failure asked for: the fake LLM's 500s (the AI SDK retries twice) and useChat's report of it.
  const asked = /status of 500 \(Internal Server Error\)|The fake LLM was asked to fail/
  expect(problems.filter((problem) => !asked.test(problem))).toEqual([])
  expect(problems.filter((problem) => asked.test(problem)).length).toBeGreaterThan(0)
  for (const request of requests) {
    const [system, ...rest] = request.messages
    expect(system.role).toBe('system')
    const excerpts = rest[0]?.role === 'system' ? messageText(rest.shift()!) : ''
    // Never the whole history: the recent turns and the new message at most.
    expect(
      rest.length,
      JSON.stringify(request.messages.map((m) => [m.role, messageText(m).slice(0, 50)])),
    ).toBeLessThanOrEqual(RECENT_TURNS + 1)
    // No excerpt repeats a turn the request sends verbatim. The reply stopped halfway is sent by useChat but was
    // never stored (a prefix such as "Noted " is in every stored reply), so only the others are looked for.
    rest.forEach((turn, i) => {
      const stopped = i > 0 && SLOW.test(messageText(rest[i - 1]))
      if (messageText(turn) !== '' && !stopped) expect(excerpts).not.toContain(messageText(turn))
    })
  }
  const last = requests.at(-1)!
  expect(messageText(last.messages.at(-1)!)).toBe(QUESTION)
  // The early fact reaches the LLM though the question shares no word with it.
  expect(messageText(last.messages[1])).toContain('named her Biscuit')
  // ... through the context: the early turns are not among the turns sent verbatim, which are fewer than the history's.
  const verbatim = last.messages.filter((message) => message.role !== 'system').map(messageText)
  expect(verbatim).not.toContain(CHAT_HISTORY[1])
  expect(verbatim.filter((text) => CHAT_HISTORY.includes(text)).length).toBeLessThan(CHAT_HISTORY.length / 2)
  // The reload shows what was stored: the finished exchanges, not the failed or stopped ones.
  const finished = shownBefore.filter(
    (text, i) => !/\[fail\]/.test(text) && !SLOW.test(text) && !(i > 0 && SLOW.test(shownBefore[i - 1])),
  )
  expect(shownAfter).toEqual(finished)
  expect(shownAfter).toHaveLength(2 * (CHAT_HISTORY.length + 1))
  // The forgotten fact left the screen and the next request, its reply still there.
  expect(run.shownAfterForget.join('\n')).not.toContain('4471')
  expect(run.shownAfterForget).toHaveLength(shownAfter.length + 1)
  expect(JSON.stringify(run.requestAfterForget)).not.toContain('4471')
  expect(messageText(run.requestAfterForget.messages.at(-1)!)).toBe('What else do you know?')
  // The approval showed the statement, dated; once approved it left the screen, and the next request's context.
  const { approvalShown, shownAfter: shownAfterTool, requestAfter } = run.forgetTool
  expect(approvalShown).toEqual([expect.stringMatching(new RegExp(`^\\d{4}-\\d{2}-\\d{2}: ${FORGET_STATEMENT}$`))])
  expect(shownAfterTool).not.toContain(FORGET_STATEMENT)
  expect(shownAfterTool).toContain(CHAT_HISTORY[3])
  // The reply quoted the tool's result (the fake LLM's way): it was stored without the quote, and the app's copy of
  // it, shown and sent again among the recent turns, is the stored one.
  expect(shownAfterTool.join('\n')).not.toContain(FORGET_STATEMENT)
  expect(JSON.stringify(requestAfter)).not.toContain(FORGET_STATEMENT)
}

/** How many requests the fake LLM was sent that end with the forget tool's result, once it removed something. */
function toolResultsSent(llm: FakeLlm): number {
  return llm.requests.filter((request) => {
    const last = request.messages.at(-1)
    return last?.role === 'tool' && messageText(last).includes('"outcome":"forgotten"')
  }).length
}

const storedIn = async (page: PageSession) => Number(await page.textContent('#stored'))

/** Clicks Send with `text` typed, and waits until the page has shown it and is idle again. */
async function sendIn(page: PageSession, text: string): Promise<void> {
  const users = await page.evaluate(() => document.querySelectorAll('#turns li[data-role=user]').length)
  await setField(page, '#message', text)
  await page.click('#send')
  await page.waitForFunction(
    (users) =>
      document.querySelectorAll('#turns li[data-role=user]').length > users &&
      !(document.getElementById('send') as HTMLButtonElement).disabled,
    users,
    { timeout: 60_000 },
  )
}

/** The same visit as `reactChatThrough`, in a tab of any engine (the page's errors from the in-page hook), left open. */
export async function reactChatThroughIn(
  page: PageSession,
  url: string,
  llm: FakeLlm,
): Promise<Omit<ReactChatRun, 'firstVisitBytes'>> {
  const firstRequest = llm.requests.length
  const earlierErrors = (await page.errors()).length
  await page.goto(`${url}/`)
  // The chat is shown once the memory is open and its stored chat read: the status leaves "Opening memory…" then.
  await waitForText(page, '#status', '^(Model|Memory failed)', 120_000)
  expect(await page.textContent('#status')).toMatch(/^Model/)
  await setField(page, '#base-url', llm.baseURL)
  await setField(page, '#model', 'fake-model')
  for (const text of CHAT_HISTORY) await sendIn(page, text)
  const afterHistory = 2 * CHAT_HISTORY.length
  await expect.poll(() => storedIn(page)).toBe(afterHistory)

  await sendIn(page, 'Please [fail] this time.')
  await expect.poll(() => page.evaluate(() => document.querySelectorAll('#error').length)).toBe(1)
  await setField(page, '#message', 'Tell me slowly [slow] and I will stop you.')
  await page.click('#send')
  await page.waitForFunction(() =>
    [...document.querySelectorAll('#turns li[data-role=assistant][data-done=no]')].some((item) =>
      item.textContent?.includes('Noted'),
    ),
  )
  expect(await storedIn(page)).toBe(afterHistory)
  await page.click('#stop')
  await page.waitForFunction(() => !(document.getElementById('send') as HTMLButtonElement).disabled)
  await new Promise((resolve) => setTimeout(resolve, 1000))
  expect(await storedIn(page)).toBe(afterHistory)

  await waitForText(page, '#status', 'Model ready, all indexed', 180_000)
  await sendIn(page, QUESTION)
  await expect.poll(() => storedIn(page)).toBe(afterHistory + 2)
  const shownBefore = await texts(page, '#turns li .text')
  await page.reload()
  await waitForText(page, '#status', '^(Model|Memory failed)', 60_000)
  expect(await page.textContent('#status')).toMatch(/^Model/)
  const shownAfter = await texts(page, '#turns li .text')
  const requests = llm.requests.slice(firstRequest)

  await setField(page, '#base-url', llm.baseURL)
  await setField(page, '#model', 'fake-model')
  await sendIn(page, FORGOTTEN)
  await expect.poll(() => storedIn(page)).toBe(afterHistory + 4)
  // The turn's own Forget button, clicked as a user clicks it: the session's click takes a selector, so the turn is
  // marked for one first.
  await page.evaluate((fact) => {
    const turn = [...document.querySelectorAll('#turns li')].find((item) => item.textContent?.includes(fact))
    turn?.setAttribute('data-e2e-forget', '')
  }, FORGOTTEN)
  await page.click('#turns li[data-e2e-forget] button.forget')
  await page.waitForFunction(
    (fact) => ![...document.querySelectorAll('#turns li')].some((item) => item.textContent?.includes(fact)),
    FORGOTTEN,
  )
  const shownAfterForget = await texts(page, '#turns li .text')
  await sendIn(page, 'What else do you know?')
  const requestAfterForget = llm.requests.at(-1)!
  const forgetTool = await forgetByToolIn(page, llm)
  await sendIn(page, 'And now?')
  return {
    requests,
    problems: (await page.errors()).slice(earlierErrors),
    shownBefore,
    shownAfter,
    shownAfterForget,
    requestAfterForget,
    forgetTool: { ...forgetTool, requestAfter: llm.requests.at(-1)! },
  }
}

/** `forgetByTool` in a tab of any engine: the forget tool's call approved with its Approve button. */
async function forgetByToolIn(
  page: PageSession,
  llm: FakeLlm,
): Promise<{ approvalShown: string[]; shownAfter: string[] }> {
  const sentBefore = toolResultsSent(llm)
  await setField(page, '#message', FORGET_REQUEST)
  await page.click('#send')
  await page.waitForFunction(() => document.querySelectorAll('.forget-approval li').length > 0, undefined, {
    timeout: 60_000,
  })
  const approvalShown = await texts(page, '.forget-approval li')
  await page.click('.forget-approval button.approve')
  await expect.poll(() => toolResultsSent(llm) > sentBefore, { timeout: 60_000 }).toBe(true)
  await page.waitForFunction(() => !(document.getElementById('send') as HTMLButtonElement).disabled, undefined, {
    timeout: 60_000,
  })
  await expect.poll(() => texts(page, '#turns li[data-role=user] .text')).not.toContain(FORGET_STATEMENT)
  return { approvalShown, shownAfter: await texts(page, '#turns li .text') }
}
