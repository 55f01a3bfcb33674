// examples/chat with sync on, as one user with two browsers uses it: two Chromium profiles (two launches, each with
// storage of its own) open the page, enter the same server database URL and passphrase in its settings, one states a
// fact and the other, once the memory synced (its status line counts the messages), asks about it. The second device
// first mistypes the passphrase, and the page must refuse it with the server's WRONG_KEY before taking the right one.
// package-install.test.ts runs it against the example installed from the tarball, built, under vite preview.
import type { Browser, Page } from 'playwright-core'
import { expect } from 'vitest'
import { launchChromium } from '../scripts/launch-chromium'
import type { ChatRequest, FakeLlm } from './fake-llm'

export const FACT = 'My locker code is 4417, at the pool on Mill Street.'
export const QUESTION = 'What is my locker code?'

/** One device: a browser of its own (its own profile), on the example's page. */
interface Device {
  browser: Browser
  page: Page
  /** Uncaught errors in the page. */
  pageErrors: string[]
}

/** What a run recorded. */
export interface SyncedChatRun {
  /** The chat request device B sent with QUESTION. */
  question: ChatRequest
  /** What device B's page said of the mistyped passphrase. */
  refusal: string
  /** The status lines of A and B at the end. */
  statuses: string[]
  pageErrors: string[]
}

async function openDevice(appUrl: string, llm: FakeLlm): Promise<Device> {
  const browser = await launchChromium({ webgpu: false })
  const page = await (await browser.newContext()).newPage()
  const pageErrors: string[] = []
  page.on('pageerror', (error) => pageErrors.push(error.message))
  await page.goto(`${appUrl}/`)
  // With no URL set the page opens its plain memory, as it always did.
  await page.locator('#status', { hasText: 'messages in memory' }).waitFor({ timeout: 120_000 })
  await page.fill('#endpoint', llm.url)
  await page.fill('#model', 'fake-model')
  await page.locator('#model').dispatchEvent('change')
  return { browser, page, pageErrors }
}

/** Sets the server URL in the settings, reloads (the URL applies at the next load) and types `passphrase`. */
async function turnSyncOn(device: Device, syncUrl: string, passphrase: string): Promise<void> {
  const { page } = device
  await page.click('#sync-panel summary')
  await page.fill('#sync-url', syncUrl)
  await page.locator('#sync-url').dispatchEvent('change')
  await page.reload()
  await typePassphrase(page, passphrase)
}

async function typePassphrase(page: Page, passphrase: string): Promise<void> {
  await page.locator('#passphrase').waitFor({ state: 'visible', timeout: 30_000 })
  // Nothing to chat into until the passphrase is given.
  expect(await page.locator('#send').isDisabled()).toBe(true)
  await page.fill('#passphrase', passphrase)
  await page.click('#passphrase-form button[type=submit]')
}

const synced = (page: Page) =>
  page.locator('#status', { hasText: /Synced with 127\.0\.0\.1:\d+ at / }).waitFor({ timeout: 120_000 })

/**
 * Device A turns sync on with `passphrase` and states FACT; device B turns it on with a wrong passphrase first, then
 * `passphraseB`, waits until its status line counts A's two messages, and asks QUESTION; then A waits for B's turn.
 */
export async function chatAcrossDevices(
  appUrl: string,
  llm: FakeLlm,
  syncUrl: string,
  passphrase: string,
  passphraseB = passphrase,
): Promise<SyncedChatRun> {
  const devices: Device[] = []
  try {
    const a = await openDevice(appUrl, llm)
    devices.push(a)
    await turnSyncOn(a, syncUrl, passphrase)
    await synced(a.page)

    const b = await openDevice(appUrl, llm)
    devices.push(b)
    await turnSyncOn(b, syncUrl, `not ${passphrase}`)
    const refusal = b.page.locator('#passphrase-note', { hasText: 'WRONG_KEY' })
    await refusal.waitFor({ timeout: 120_000 })
    const refusalText = (await refusal.textContent()) ?? ''
    await typePassphrase(b.page, passphraseB)
    await synced(b.page)

    // A chats a turn with the fact, while B's page is open: B shows it when it arrives.
    await a.page.fill('#message', FACT)
    await a.page.click('#send')
    await a.page.locator('#turns li[data-role=assistant]').first().waitFor({ timeout: 60_000 })
    await b.page.locator('#status', { hasText: /^2 messages in memory/ }).waitFor({ timeout: 120_000 })
    await b.page.locator('#turns li[data-role=user]', { hasText: FACT }).waitFor({ timeout: 10_000 })

    const before = llm.requests.length
    await b.page.fill('#message', QUESTION)
    await b.page.click('#send')
    await b.page.locator('#turns li[data-role=assistant]').nth(1).waitFor({ timeout: 60_000 })
    expect(await b.page.locator('#turns li[data-role=error]').count()).toBe(0)
    expect(llm.requests.length).toBe(before + 1)
    // And back: B's turn reaches A.
    await a.page.locator('#status', { hasText: /^4 messages in memory/ }).waitFor({ timeout: 120_000 })
    return {
      question: llm.requests[before],
      refusal: refusalText,
      statuses: await Promise.all(devices.map(async ({ page }) => (await page.locator('#status').textContent()) ?? '')),
      pageErrors: devices.flatMap((device) => device.pageErrors),
    }
  } finally {
    for (const { browser } of devices) await browser.close()
  }
}
