// The demo page as a person uses it, in Chromium: load the sample, ask, move the budget slider, copy the context,
// follow a context line into the history, compare, read the chart, forget (a message, then by asking), reload;
// load files and chat. Screenshots at 1280 and 375 px go to test-results/demo/ (git-ignored).
import type { Page } from 'playwright-core'
import { afterEach, expect, inject, test } from 'vitest'
import { germanConversation, sampleConversation } from '../demo/sample-conversation'
import { germanRequests } from '../demo/sample-german'
import { countIn, historyText, openDemo as open, settled, statsRow, waitIndexed } from './demo-driver'
import { foreignRequests, type DemoSession } from './launch-demo'

const baseUrl = inject('baseUrl')
const screenshots = 'test-results/demo'
let session: DemoSession | undefined
afterEach(async () => {
  await session?.close()
  session = undefined
})

/** Opens the demo on a memory of its own (`openDemo`), closed after the test. */
async function openDemo(name: string): Promise<{ page: Page; errors: string[]; url: string }> {
  const opened = await open(baseUrl, name)
  session = opened.session
  return opened
}

/** The stats row "characters": used and budget, as numbers. */
async function usedOfBudget(page: Page): Promise<{ used: number; budget: number }> {
  const [used, budget] = (await statsRow(page, 'characters'))!.split(' of ').map(countIn)
  return { used, budget }
}

async function noHorizontalOverflow(page: Page): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }))
  expect(scroll).toBeLessThanOrEqual(client)
}

test('load the sample, move the slider, follow a line, compare, chart, forget, reload; no overflow at 1280 or 375 px', async () => {
  const { page, errors } = await openDemo('e2e-demo-page')
  await session!.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl })
  await page.setViewportSize({ width: 1280, height: 900 })

  await page.fill('#content', 'I keep my passport in the blue drawer of the hallway cabinet.')
  await page.click('#add')
  await page.click('#load-sample')
  const stored = sampleConversation.length + 1
  await waitIndexed(page, stored)
  expect(await page.textContent('#history-summary')).toContain(`${stored} messages`)
  expect(await page.locator('#history > li').count()).toBe(stored)

  // An example request fills the box and builds the context, its stats, its items and the marks in the history.
  const example = 'What am I allergic to, and what should I avoid when eating out?'
  await page.getByRole('button', { name: example }).click()
  expect(await page.inputValue('#request')).toBe(example)
  await settled(page)
  const context = await page.textContent('#context')
  expect(context).toMatch(/peanut/i)
  expect(await page.textContent('#context-stats')).toMatch(/stopped by(budget|exhausted|cliff)/)
  const items = await page.locator('#context-items > li').count()
  expect(items).toBeGreaterThan(0)
  expect(await page.locator('#history mark.picked').count()).toBe(items)
  for (const meta of await page.locator('#context-items .item-meta').allTextContents())
    expect(meta).toMatch(/^#\d+ \w+ · (relevant|neighbor|recent|update|position)/)

  // The copy button copies exactly the text shown.
  await page.click('#copy')
  await page.waitForFunction(() => document.getElementById('copy-status')!.textContent!.startsWith('Copied'))
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(context)

  // A click on a context line scrolls the history to that sentence and puts the focus on it.
  const line = page.locator('#context .context-line').nth(1)
  const lineText = (await line.textContent())!
  await line.click()
  await page.waitForFunction(() => {
    const focused = document.activeElement!
    const history = document.getElementById('history')!.getBoundingClientRect()
    const box = focused.getBoundingClientRect()
    return focused.matches('#history mark.picked') && box.top >= history.top && box.bottom <= history.bottom
  })
  expect(lineText).toContain(await page.evaluate(() => document.activeElement!.textContent!))

  // The slider: every step rebuilds, the page ends on the latest budget, and the context is never blanked meanwhile.
  await page.fill('#budget', '1000')
  await settled(page)
  await page.evaluate(() => {
    const shown = document.getElementById('context')!
    new MutationObserver(() => shown.textContent === '' && (document.body.dataset.blanked = 'true')).observe(shown, {
      childList: true,
      subtree: true,
      characterData: true,
    })
  })
  await page.focus('#budget-range')
  for (let step = 0; step < 40; step++) await page.keyboard.press('ArrowRight')
  await settled(page)
  const budget = Number(await page.inputValue('#budget'))
  expect(budget).toBeGreaterThan(1000)
  const shown = await usedOfBudget(page)
  expect(shown.budget).toBe(budget)
  expect(shown.used).toBeLessThanOrEqual(budget)
  expect(await page.evaluate(() => document.body.dataset.blanked)).toBeUndefined()
  const historyChars = sampleConversation.reduce(
    (sum, message) => sum + message.content.length,
    'I keep my passport in the blue drawer of the hallway cabinet.'.length,
  )
  expect(Number(await page.inputValue('#budget-percent'))).toBeCloseTo((budget / historyChars) * 100, 1)
  await page.fill('#budget-percent', '1')
  await settled(page)
  expect((await usedOfBudget(page)).budget).toBe(Math.round(historyChars / 100))
  await page.fill('#budget', '2000')
  await settled(page)

  // Compare two strategies, then two budgets.
  await page.selectOption('#compare-a-strategy', 'hybrid')
  await page.selectOption('#compare-b-strategy', 'head')
  await page.fill('#compare-a-budget', '2000')
  await page.fill('#compare-b-budget', '2000')
  await page.click('#compare')
  await page.waitForFunction(
    () =>
      document.querySelectorAll('#compare-results .compare-side').length === 2 &&
      !document.getElementById('compare-results')!.hasAttribute('aria-busy'),
  )
  const headings = await page.locator('#compare-results h3').allTextContents()
  expect(headings).toEqual(['A · hybrid · 2,000 characters', 'B · head · 2,000 characters'])
  // head starts at the earliest turn: the sample's first (#2), dated before the message typed today (#1).
  expect(await page.locator('#compare-results .compare-side').nth(1).locator('.turn-seq').first().textContent()).toBe(
    '#2 ',
  )
  await page.selectOption('#compare-b-strategy', 'hybrid')
  await page.fill('#compare-b-budget', '500')
  await page.click('#compare')
  await page.waitForFunction(
    () =>
      document.querySelector('#compare-results .compare-side:last-child h3')?.textContent ===
      'B · hybrid · 500 characters',
  )
  const counts = await page.locator('#compare-results .compare-count').allTextContents()
  const sentences = counts.map((text) => Number(/^(\d+) sentences/.exec(text)![1]))
  expect(sentences[0]).toBeGreaterThan(sentences[1])
  expect(await page.locator('#compare-results .compare-side').first().locator('.compare-only').count()).toBeGreaterThan(
    0,
  )

  // The chart: four real contexts, at 1%, 5%, 10% and 25% of the history, each holding at least the turns of the one before.
  expect(await page.locator('#chart .chart-label').allTextContents()).toEqual([
    expect.stringMatching(/^1 % /),
    expect.stringMatching(/^5 % /),
    expect.stringMatching(/^10 % /),
    expect.stringMatching(/^25 % /),
  ])
  const turnsPerRow = (await page.locator('#chart-summary li').allTextContents()).map((text) =>
    Number(/: (\d+) turns/.exec(text)![1]),
  )
  expect(turnsPerRow).toHaveLength(4)
  expect(turnsPerRow[3]).toBeGreaterThan(turnsPerRow[0])

  await page.screenshot({ path: `${screenshots}/demo-1280.png`, fullPage: true })
  await noHorizontalOverflow(page)

  // Forget one message from the history view (two clicks), then one by asking.
  const passport = page.locator('#history > li', { hasText: 'blue drawer' })
  await passport.locator('.forget-turn').click()
  await passport.locator('.forget-turn').click()
  await page.waitForFunction(() => !document.getElementById('history')!.textContent!.includes('blue drawer'))
  // Asked inside a longer message; the best sentence is ticked, and only it goes: the rest of its message stays.
  await page.fill('#forget-text', 'Lovely weather today. Forget that I am allergic to cashews. Any picnic ideas?')
  await page.click('#forget-find')
  await page.waitForSelector('#forget-matches .forget-match')
  const match = (await page.locator('#forget-matches .forget-sentence-text').first().textContent())!
  expect(match).toMatch(/cashew/i)
  expect(await page.locator('#forget-matches input[type=checkbox]:checked').count()).toBe(1)
  await page.click('#forget-confirm')
  await page.waitForFunction((match) => !document.getElementById('history')!.textContent!.includes(match), match)
  expect(await page.textContent('#forget-matches')).toContain('Forgot 1 sentence.')
  expect(await historyText(page)).toContain('I saw the allergist this week.')
  await waitIndexed(page, stored - 1)
  await settled(page)

  // A reload keeps the history, what was forgotten stays forgotten, and the form comes back as it was.
  await page.reload()
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 })
  await settled(page)
  expect(await page.locator('#history > li').count()).toBe(stored - 1)
  const after = await historyText(page)
  expect(after).not.toContain('blue drawer')
  expect(after).not.toContain(match)
  expect(await page.inputValue('#request')).toBe(example)
  expect(await page.inputValue('#budget')).toBe('2000')
  expect(await page.textContent('#context')).toMatch(/peanut/i)

  await page.setViewportSize({ width: 375, height: 800 })
  await page.waitForTimeout(200)
  await noHorizontalOverflow(page)
  await page.screenshot({ path: `${screenshots}/demo-375.png`, fullPage: true })
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.waitForTimeout(200)
  await noHorizontalOverflow(page)

  expect(errors).toEqual([])
  expect(foreignRequests(session!.requests, baseUrl)).toEqual([])
})

/** Two LoCoMo samples, the second with a photo turn. */
const locomo = [
  {
    sample_id: 'conv-a',
    conversation: {
      speaker_a: 'Ann',
      speaker_b: 'Bo',
      session_1_date_time: '1:56 pm on 8 May, 2023',
      session_1: [{ speaker: 'Ann', dia_id: 'D1:1', text: 'I adopted a tortoise called Sheldon.' }],
    },
    qa: [],
  },
  {
    sample_id: 'conv-b',
    conversation: {
      speaker_a: 'Cy',
      speaker_b: 'Di',
      session_1_date_time: '9:00 am on 2 June, 2023',
      session_1: [
        { speaker: 'Cy', dia_id: 'D1:1', text: 'My violin teacher lives in Ghent.' },
        { speaker: 'Di', dia_id: 'D1:2', text: 'Look at this!', blip_caption: 'a photo of a red kayak' },
      ],
    },
    qa: [],
  },
]

/** One ChatGPT chat whose first answer was regenerated: only the branch ending at current_node is the chat. */
const chatGpt = [
  {
    title: 'Garden plans',
    create_time: 1_700_000_000,
    current_node: 'a2',
    mapping: {
      root: { parent: null, message: null },
      u1: {
        parent: 'root',
        message: {
          id: 'u1',
          author: { role: 'user' },
          create_time: 1_700_000_001,
          content: { content_type: 'text', parts: ['Which hedge grows fastest?'] },
        },
      },
      a1: {
        parent: 'u1',
        message: {
          id: 'a1',
          author: { role: 'assistant' },
          create_time: 1_700_000_002,
          content: { content_type: 'text', parts: ['An abandoned answer about bamboo.'] },
        },
      },
      a2: {
        parent: 'u1',
        message: {
          id: 'a2',
          author: { role: 'assistant' },
          create_time: 1_700_000_003,
          content: { content_type: 'text', parts: ['Leyland cypress grows about a metre a year.'] },
        },
      },
    },
  },
  { title: 'Empty', create_time: 1_700_000_100, current_node: 'x', mapping: { x: { parent: null, message: null } } },
]

async function chooseFile(page: Page, name: string, content: unknown): Promise<void> {
  const text = typeof content === 'string' ? content : JSON.stringify(content)
  await page.setInputFiles('#file', { name, mimeType: 'application/json', buffer: Buffer.from(text) })
}

test('files: LoCoMo and ChatGPT with a conversation picker, a message array, a broken file; chatting as either role; forget everything', async () => {
  const { page, errors } = await openDemo('e2e-demo-files')

  await page.selectOption('#role', 'assistant')
  await page.fill('#content', 'The meeting moved to Thursday.')
  await page.click('#add')
  await page.waitForFunction(() => document.querySelectorAll('#history > li').length === 1)
  expect(await page.textContent('#history > li .role')).toBe('assistant')

  await chooseFile(page, 'locomo.json', locomo)
  await page.waitForSelector('#file-picker:not([hidden])')
  expect(await page.locator('#file-conversation option').allTextContents()).toEqual([
    'conv-a: Ann & Bo (1 turns)',
    'conv-b: Cy & Di (2 turns)',
  ])
  await page.selectOption('#file-conversation', { label: 'conv-b: Cy & Di (2 turns)' })
  await page.click('#file-load')
  await page.waitForFunction(() => document.querySelectorAll('#history > li').length === 3)
  const history = await historyText(page)
  expect(history).toContain('Look at this! [shared a photo of a red kayak]')
  expect(history).not.toContain('Sheldon')
  expect(await page.locator('#history .role').allTextContents()).toEqual(['assistant', 'Cy', 'Di'])
  // Two conversations now: the scope menu offers them.
  expect(await page.locator('#scope option').allTextContents()).toEqual(['every conversation', 'default', 'conv-b'])

  await chooseFile(page, 'conversations.json', chatGpt)
  await page.waitForFunction(() =>
    document.getElementById('load-status')!.textContent!.includes('ChatGPT export with 1 conversation'),
  )
  await page.click('#file-load')
  await page.waitForFunction(() => document.querySelectorAll('#history > li').length === 5)
  expect(await historyText(page)).toContain('Leyland cypress')
  expect(await historyText(page)).not.toContain('bamboo')

  await chooseFile(page, 'messages.json', [{ role: 'user', content: 'Plain arrays load as they are.' }])
  await page.waitForFunction(() => document.querySelectorAll('#history > li').length === 6)
  expect(await page.isHidden('#file-picker')).toBe(true)

  await chooseFile(page, 'broken.json', '{ not json')
  await page.waitForFunction(() =>
    document.getElementById('load-status')!.textContent!.startsWith('The file is not JSON'),
  )
  await chooseFile(page, 'conversations.json', chatGpt)
  await page.waitForSelector('#file-picker:not([hidden])')
  await page.click('#file-load')
  await page.waitForFunction(() =>
    document.getElementById('load-status')!.textContent!.startsWith('Nothing was loaded: INVALID_IMPORT'),
  )
  expect(await page.locator('#history > li').count()).toBe(6)
  await waitIndexed(page, 6)

  // Forget everything: two clicks, then the memory is empty (and stays usable).
  await page.click('#forget-all')
  expect(await page.textContent('#forget-all')).toBe('Confirm: forget everything')
  await page.click('#forget-all')
  await page.waitForFunction(
    () => document.getElementById('load-status')!.textContent === 'Forgot everything: 6 messages.',
    undefined,
    { timeout: 60_000 },
  )
  // The status says so before the history is read again: the list empties once it is.
  await page.waitForFunction(() => document.querySelectorAll('#history > li').length === 0)
  expect(await page.textContent('#history-summary')).toMatch(/^Nothing stored yet/)
  expect(errors).toEqual([])
})

test('other languages: the German sample beside the English one, and right-to-left and Japanese messages marked on their own sentences', async () => {
  const { page, errors } = await openDemo('e2e-demo-languages')
  await page.click('#load-german-sample')
  await waitIndexed(page, germanConversation.length)
  const arabic = 'مرحبا بك. انتقلنا إلى شقة جديدة في حي الشميساني؟ نعم، في الطابق الثالث.'
  const japanese = '昨日は雨でした。来月、福岡マラソンに出ます！練習は大濠公園です。'
  for (const content of [arabic, japanese]) {
    await page.fill('#content', content)
    await page.click('#add')
  }
  await waitIndexed(page, germanConversation.length + 2)

  // A German request in other forms of the history's words finds the newer date of the opening.
  await page.getByRole('button', { name: germanRequests[0] }).click()
  await settled(page)
  expect(await page.textContent('#context')).toContain('27. Juni')

  // Every mark in the history is exactly a sentence the context picked, in a body that finds its own direction.
  const marksMatchItems = async () => {
    const marked = await page.locator('#history mark.picked').allTextContents()
    const picked = await page.locator('#context-items .item-text').allTextContents()
    expect(marked.sort()).toEqual(picked.sort())
  }
  await marksMatchItems()
  for (const [request, sentence] of [
    ['في أي حي الشقة الجديدة؟', 'انتقلنا إلى شقة جديدة في حي الشميساني؟'],
    ['福岡マラソンはいつ？', '来月、福岡マラソンに出ます！'],
  ]) {
    await page.fill('#request', request)
    await settled(page)
    await marksMatchItems()
    const body = page.locator('#history .turn-text', { has: page.locator('mark.picked', { hasText: sentence }) })
    expect(await body.getAttribute('dir')).toBe('auto')
    expect(await body.locator('mark.picked', { hasText: sentence }).first().textContent()).toBe(sentence)
  }
  expect(
    await page.evaluate(() => getComputedStyle(document.querySelector('#history li:last-child .turn-text')!).direction),
  ).toBe('ltr')
  expect(
    await page.evaluate(
      (index) => getComputedStyle(document.querySelectorAll('#history .turn-text')[index]).direction,
      germanConversation.length,
    ),
  ).toBe('rtl')
  expect(errors).toEqual([])
})
