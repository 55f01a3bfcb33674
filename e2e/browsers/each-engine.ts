// The core promises run in every engine: a test file wraps its tests in `describeEachEngine`, which gives them one
// browser process per engine (launched before the engine's first test, closed after its last), skips an engine whose
// binaries are missing with the reason in the test's name, and names each block `[engine] …` so that `npm test`
// can count the tests each engine ran (scripts/test.ts). SIFT_E2E_BROWSERS narrows a local run to some engines.
import { afterAll, beforeAll, describe } from 'vitest'
import { allEngines } from './engines'
import { type BrowserSession, type Engine, engineNames, engineTitle } from './session'

/** The engines SIFT_E2E_BROWSERS lists (comma-separated), or all of them when it lists none. */
export function enginesToRun(value = process.env.SIFT_E2E_BROWSERS): Engine[] {
  if (value === undefined || value.trim() === '') return allEngines
  const names = value.split(',').map((name) => name.trim())
  for (const name of names)
    if (!(engineNames as readonly string[]).includes(name))
      throw new Error(`SIFT_E2E_BROWSERS=${value}: ${name} is not one of ${engineNames.join(', ')}`)
  return allEngines.filter((engine) => names.includes(engine.name))
}

export interface EngineRun {
  engine: Engine
  /** The engine's one browser process for this block (launched in its beforeAll). */
  browser(): BrowserSession
  /** Closes the browser and launches a fresh one with an empty profile (for tests that need one). */
  relaunch(): Promise<BrowserSession>
}

/**
 * `body` once per engine, in a block of its own titled `[engine] title`, with one browser for the block. Tabs a test
 * opens should be closed by it; the browser is closed after the block.
 */
export function describeEachEngine(title: string, body: (run: EngineRun) => void): void {
  for (const engine of enginesToRun()) {
    const missing = engine.missing()
    const name = engineTitle(engine.name, `${title}${missing ? ` (skipped: ${missing})` : ''}`)
    describe.skipIf(missing !== undefined)(name, () => {
      let browser: BrowserSession | undefined
      beforeAll(async () => {
        browser = await engine.launch()
      })
      afterAll(async () => {
        await browser?.close()
      })
      body({
        engine,
        browser: () => {
          if (!browser) throw new Error(`${engine.name} did not launch`)
          return browser
        },
        relaunch: async () => {
          await browser?.close()
          browser = await engine.launch()
          return browser
        },
      })
    })
  }
}
