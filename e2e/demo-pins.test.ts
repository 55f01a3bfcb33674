// The demo page's pins and budget unit, in Chromium: pin a message the request has nothing to do with, see it in
// the context's pinned section and in the share rows, reload, unpin; budget in o200k_base tokens, reload. A
// screenshot of the pinned message beside its context goes to test-results/demo/ (git-ignored).
import type { Page } from 'playwright-core'
import { afterEach, expect, inject, test } from 'vitest'
import { sampleConversation } from '../demo/sample-conversation'
import { countIn, openDemo, settled, statsRow, waitIndexed } from './demo-driver'
import { foreignRequests, type DemoSession } from './launch-demo'
import { scanDatabase } from './raw-scan'

const baseUrl = inject('baseUrl')
let session: DemoSession | undefined
afterEach(async () => {
  await session?.close()
  session = undefined
})

const request = 'What am I allergic to, and what should I avoid when eating out?'
/** A sample message about a race, which an allergy request does not bring. */
const race = 'I ran the 10K in Gaia on Sunday'
const sectionBreak = '\n\nFrom the conversation:\n'

function contextText(page: Page): Promise<string> {
  return page.evaluate(() => document.getElementById('context')!.textContent!)
}

/** Waits until the context on screen does (or no longer does) open with the pinned section, and is the latest. */
async function pinnedSectionShown(page: Page, shown: boolean): Promise<void> {
  await page.waitForFunction(
    (shown) => document.getElementById('context')!.textContent!.startsWith('Pinned:\n') === shown,
    shown,
  )
  await settled(page)
}

/** The race message is pinned, its button says so, and the context holds it in its pinned section, counted there. */
async function expectRacePinned(page: Page): Promise<void> {
  const turn = page.locator('#history > li', { hasText: race })
  expect(await turn.locator('.pin-turn').textContent()).toBe('Unpin')
  expect(await turn.locator('.pinned-badge').isVisible()).toBe(true)
  const text = await contextText(page)
  const end = text.indexOf(sectionBreak)
  expect(end).toBeGreaterThan(0)
  expect(text.slice(0, end)).toContain(race)
  // The rest of the context still answers the request.
  expect(text.slice(end)).toMatch(/peanut/i)
  const pinned = (await statsRow(page, 'pinned'))!
  expect(pinned).toMatch(/ · 1 message$/)
  expect(countIn(/^([\d,]+) characters/.exec(pinned)![1])).toBe(end + sectionBreak.length)
  expect(await page.locator('#context-items .item-meta').first().textContent()).toMatch(/^#\d+ user · pinned/)
}

test('pin a message the request does not bring, reload, unpin; a budget in o200k_base tokens, kept across a reload', async () => {
  const opened = await openDemo(baseUrl, 'e2e-demo-pins')
  session = opened.session
  const { page, errors } = opened
  // A form saved before the budget had a unit comes back as it was, in characters.
  await page.evaluate((saved) => localStorage.setItem('sift-demo-settings:e2e-demo-pins', JSON.stringify(saved)), {
    request: '',
    budget: 1800,
    strategy: 'hybrid',
    recentTurns: 0,
    conversationId: '',
    adaptiveStop: false,
  })
  await page.reload()
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 })
  expect(await page.inputValue('#budget-unit')).toBe('chars')
  expect(await page.inputValue('#budget')).toBe('1800')
  await page.click('#load-sample')
  await waitIndexed(page, sampleConversation.length)
  await page.getByRole('button', { name: request }).click()
  await settled(page)
  expect(await contextText(page)).not.toContain(race)
  expect(await statsRow(page, 'pinned')).toBeUndefined()
  expect(await statsRow(page, 'excerpts')).toMatch(/^[\d,]+ characters \(.+\) · \d+ sentences from \d+ messages$/)

  const turn = page.locator('#history > li', { hasText: race })
  expect(await turn.locator('.pinned-badge').isVisible()).toBe(false)
  await turn.locator('.pin-turn').click()
  await pinnedSectionShown(page, true)
  await expectRacePinned(page)
  expect(await page.textContent('#load-status')).toMatch(/^Pinned message #\d+\.$/)
  await turn.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/demo/demo-pinned.png' })

  // The pin is stored: after a reload the history says so and the context still holds it.
  await page.reload()
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 })
  await settled(page)
  await expectRacePinned(page)

  await turn.locator('.pin-turn').click()
  await pinnedSectionShown(page, false)
  expect(await contextText(page)).not.toContain(race)
  expect(await statsRow(page, 'pinned')).toBeUndefined()
  expect(await turn.locator('.pin-turn').textContent()).toBe('Pin')
  expect(await turn.locator('.pinned-badge').isVisible()).toBe(false)

  // Tokens: the number now counts o200k_base tokens, and the stats say how many the context takes of them.
  expect(await statsRow(page, 'tokens')).toBeUndefined()
  await page.selectOption('#budget-unit', 'o200k_base')
  expect(await page.textContent('#budget-unit-label')).toBe('tokens')
  expect(await page.isHidden('#budget-percent')).toBe(true)
  const expectTokensWithin = async () => {
    await page.waitForFunction(() =>
      [...document.querySelectorAll('#context-stats dt')].some((dt) => dt.textContent === 'tokens'),
    )
    await settled(page)
    const budget = Number(await page.inputValue('#budget'))
    const [, used, of] = /^([\d,]+) of ([\d,]+) \(o200k_base\)$/.exec((await statsRow(page, 'tokens'))!)!
    expect(countIn(of)).toBe(budget)
    expect(countIn(used)).toBeLessThanOrEqual(budget)
    expect(countIn(used)).toBeGreaterThan(0)
    expect(await contextText(page)).toMatch(/peanut/i)
  }
  await expectTokensWithin()
  await page.fill('#budget', '300')
  await expectTokensWithin()
  expect(await statsRow(page, 'tokens')).toMatch(/ of 300 /)

  await page.reload()
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 })
  expect(await page.inputValue('#budget-unit')).toBe('o200k_base')
  expect(await page.inputValue('#budget')).toBe('300')
  await expectTokensWithin()

  // Back in characters, the character budget is as it was left.
  await page.selectOption('#budget-unit', 'chars')
  expect(await page.inputValue('#budget')).toBe('1800')
  await page.waitForFunction(
    () => ![...document.querySelectorAll('#context-stats dt')].some((dt) => dt.textContent === 'tokens'),
  )
  await settled(page)
  expect(await statsRow(page, 'characters')).toMatch(/ of 1,800$/)

  expect(errors).toEqual([])
  expect(foreignRequests(session!.requests, baseUrl)).toEqual([])
})

test('set a summary, see its share in the context, forget a message it covers: its text leaves the database, and a reload says dropped', async () => {
  const name = 'e2e-demo-summary'
  const opened = await openDemo(baseUrl, name)
  session = opened.session
  const { page, errors } = opened
  await page.click('#load-sample')
  await waitIndexed(page, sampleConversation.length)
  await page.getByRole('button', { name: request }).click()
  await settled(page)
  expect(await statsRow(page, 'summary')).toBeUndefined()
  const summary =
    'Ana, a nurse in Porto, lives with Tom and Biscuit, their beagle; her Quorvath notes say peanuts are out.'
  await page.fill('#summary-text', summary)
  await page.click('#summary-set')
  await page.waitForFunction(() => document.getElementById('summary-state')!.dataset.state === 'current')
  await page.waitForFunction(() =>
    document.getElementById('context')!.textContent!.startsWith('Summary of the conversation'),
  )
  await settled(page)
  const text = await contextText(page)
  expect(text.slice(0, text.indexOf(sectionBreak))).toContain(summary)
  const row = (await statsRow(page, 'summary'))!
  expect(row).toMatch(/ · 1 summary$/)
  expect(countIn(/^([\d,]+) characters/.exec(row)![1])).toBe(text.indexOf(sectionBreak) + sectionBreak.length)
  expect((await scanDatabase(page, name, ['Quorvath'])).found.length).toBeGreaterThan(0)

  // Forget the first message: the summary covers it, so its text goes in the same write.
  const first = page.locator('#history > li').first()
  await first.locator('.forget-turn').click()
  await first.locator('.forget-turn').click()
  await page.waitForFunction(() => document.getElementById('summary-state')!.dataset.state === 'dropped')
  await page.waitForFunction(
    () => !document.getElementById('context')!.textContent!.includes('Summary of the conversation'),
  )
  await settled(page)
  expect(await statsRow(page, 'summary')).toMatch(/1 dropped by a forget/)
  expect((await scanDatabase(page, name, ['Quorvath'])).found).toEqual([])

  await page.reload()
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 })
  await page.waitForFunction(() => document.getElementById('summary-state')!.dataset.state === 'dropped')
  expect(await page.textContent('#summary-state')).toMatch(/^Dropped on .*Write a new one\.$/)
  expect(errors).toEqual([])
})
