// Bundles pouch-indexeddb-forget-spike.mjs (esbuild) and runs it in headless Chromium on a page of the server's own
// origin (no CORS needed), printing its lines. Run from a folder whose node_modules has the spike's PouchDB packages:
//   node run-in-chromium.mjs SERVER_URL   (needs esbuild and playwright-core, from the repository, and /usr/bin/chromium)
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const repo = createRequire(join(here, '../../package.json'))
const { build } = repo('esbuild')
const { chromium } = repo('playwright-core')
const [serverUrl] = process.argv.slice(2)
const bundle = await build({
  entryPoints: [join(here, 'pouch-indexeddb-forget-spike.mjs')],
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'browser',
  nodePaths: [join(process.cwd(), 'node_modules')],
})
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' })
const page = await browser.newPage()
await page.goto(`${serverUrl}/`)
await page.addScriptTag({ content: bundle.outputFiles[0].text, type: 'module' })
const lines = await page.waitForFunction(
  () => window.spikeLines?.some((l) => l.startsWith('server still')) && window.spikeLines,
  null,
  { timeout: 60_000 },
)
for (const line of await lines.jsonValue()) console.log(line)
await browser.close()
