// The first context of a fresh visit (a new browser profile: no Cache Storage copy of the model, an empty
// IndexedDB), timed in the page: createMemory, then a context of an empty history and one of three turns. `before`
// is `strictRanking: true`, which keeps the wait for the model every context had before the lexical start; `after`
// is the default, which ranks by words until the model has loaded. Rounds alternate, each in a fresh context.
//
//   npx tsx bench/chat-apps/first-context.ts [--rounds 3]      (builds the demo first: npm run build:demo, or any e2e run)
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { launchChromium } from '../../scripts/launch-chromium'
import { startStaticServer } from '../../scripts/static-server'

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } })
const server = await startStaticServer({ root: join(import.meta.dirname, '..', '..', 'dist-demo'), port: 0 })
const browser = await launchChromium({ webgpu: false })
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const mode of ['before', 'after'] as const) {
      const context = await browser.newContext()
      const page = await context.newPage()
      await page.goto(`${server.url}/?open=0`)
      await page.waitForFunction(() => typeof window.sift?.createMemory === 'function')
      const timing = await page.evaluate(async (strictRanking) => {
        const t0 = performance.now()
        const memory = await window.sift.createMemory({ name: 'first-context', device: 'wasm', strictRanking })
        const opened = performance.now()
        const empty = await memory.buildContext('Hello!')
        const emptyDone = performance.now()
        await memory.add([
          { role: 'user', content: 'My sister Ines lives in Porto and works as a nurse.' },
          { role: 'assistant', content: 'Porto is a lovely city.' },
          { role: 'user', content: 'I am allergic to peanuts, so I check every label.' },
        ])
        const added = performance.now()
        const context = await memory.buildContext('What am I allergic to?', { budget: 400 })
        const done = performance.now()
        await memory.close()
        return {
          open: opened - t0,
          empty: emptyDone - opened,
          emptyRanking: empty.stats.ranking,
          context: done - added,
          ranking: context.stats.ranking,
        }
      }, mode === 'before')
      await context.close()
      const line = `open ${timing.open.toFixed(0)} ms, empty-history context ${timing.empty.toFixed(0)} ms (${timing.emptyRanking}), 3-turn context ${timing.context.toFixed(0)} ms (${timing.ranking})`
      console.log(`round ${round + 1} ${mode}: ${line}`)
    }
  }
} finally {
  await browser.close()
  await server.close()
}
