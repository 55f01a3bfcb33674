// The engines the browser tests run in, each launched the way these machines can drive it, all from Debian packages.
import { chromium } from 'playwright-core'
import { chromiumArgs, findChromium } from '../../scripts/find-chromium'
import { findFirefox, findWebKit } from '../../scripts/find-browsers'
import { playwrightSession } from './playwright-driver'
import { type Engine, type EngineName, engineFromEnv, engineNames } from './session'
import { firefoxSession } from './marionette-driver'
import { webkitSession } from './webkit-driver'

/**
 * Firefox ESR over classic WebDriver on Marionette (marionette-driver.ts says why not BiDi). Headless Firefox waits
 * for an answer to the storage prompt `navigator.storage.persist()` raises; the testing prefs answer it "allow".
 */
const firefoxPrefs = {
  'dom.storageManager.prompt.testing': true,
  'dom.storageManager.prompt.testing.allow': true,
}

/** WebKit as Safari ships it: the Storage API (estimate, persist) and SharedArrayBuffer on. */
const safariFeatures = '+StorageAPI,+StorageAPIEstimate'

function webkitMissing(): string | undefined {
  const found = findWebKit()
  return 'missing' in found ? found.missing : undefined
}

function webkitBinaries() {
  const found = findWebKit()
  if ('missing' in found) throw new Error(`WebKit cannot run here: ${found.missing}`)
  return found
}

export const engines: Record<EngineName, Engine> = {
  chromium: {
    name: 'chromium',
    missing: () => (findChromium() ? undefined : 'no Chromium (Debian: chromium, or set CHROME_PATH)'),
    launch: async () =>
      playwrightSession(
        'chromium',
        await chromium.launch({ executablePath: findChromium(), headless: true, args: chromiumArgs }),
      ),
  },
  firefox: {
    name: 'firefox',
    missing: () => (findFirefox() ? undefined : 'no Firefox (Debian: firefox-esr, or set FIREFOX_PATH)'),
    launch: () => launchFirefox({ storagePrompt: 'allow' }),
  },
  webkit: {
    name: 'webkit',
    missing: webkitMissing,
    launch: () =>
      webkitSession('webkit', { binaries: webkitBinaries(), features: safariFeatures, sharedArrayBuffer: true }),
  },
  'webkit-nostorage': {
    name: 'webkit-nostorage',
    missing: webkitMissing,
    launch: () => webkitSession('webkit-nostorage', { binaries: webkitBinaries(), sharedArrayBuffer: false }),
  },
}

/**
 * Firefox with its storage prompt answered "allow" (what the tests run with), or left unanswered, as a headless
 * Firefox without the testing prefs leaves it: `navigator.storage.persist()` then never settles.
 */
export function launchFirefox({ storagePrompt }: { storagePrompt: 'allow' | 'unanswered' }) {
  const binary = findFirefox()
  if (!binary) throw new Error('Firefox cannot run here: no firefox-esr (Debian: firefox-esr, or set FIREFOX_PATH)')
  return firefoxSession('firefox', { binary, prefs: storagePrompt === 'allow' ? firefoxPrefs : {} })
}

/** Every engine, in order. */
export const allEngines: Engine[] = engineNames.map((name) => engines[name])

/** The engine SIFT_E2E_BROWSER picks (Chromium by default), for the tests that run in one engine per run. */
export function selectedEngine(): Engine {
  return engines[engineFromEnv()]
}
