// Performance benchmark in headless Chromium (the product's runtime: real worker, real IndexedDB):
//   npm run bench:perf -- [--sizes 1000,10000,100000] [--json OUT] [--repeats N] [--queries N]
//                         [--peer-time-limit SECONDS] [--ingest-sentences N] [--embed-runs N] [--webgpu-runs N]
//                         [--no-webgpu] [--no-build] [--peers orama,mememo] [--sizes-only]
//                         [--import-sentences N] [--encryption-size N] [--only import|encryption|lexical]
//                         [--load-time-limit SECONDS] [--peers-up-to N]
// A million sentences (issue 32): --sizes 100000,1000000 --sizes-only; the summary's scale block compares the largest
// size with 100,000 of the same run. --load-time-limit stops a size's load at that time and measures the size reached
// (then no larger size runs); peers build only at sizes up to --peers-up-to (default 100000: MeMemo took 237 s for 100K).
// --sizes-only skips the embedding, auto-backend, ingest and import measurements (for quick work on the per-size figures).
// The import section times one import() of an N-sentence export (default 100000; 0 skips it) into a new store, until
// stored and until indexed(); --only import runs nothing else.
// The encryption section stores the same N-sentence history (default the largest size; 0 skips it) plain and
// encrypted, and compares bulk load, cold start, changeKey and real-model ingest; --only encryption runs nothing else.
// --only lexical indexes the largest size's sentences in Node, --repeats rounds of the lexical index with the shipped
// language detector, with eld.detect, with every sentence English and with detection off, alternating (lexical-cost.ts).
// Builds bench/perf/perf.html (bench/perf/vite.config.ts), serves it with the cross-origin isolation headers, drives
// window.siftBench step by step, prints a table and optionally writes JSON.
import { execFileSync } from 'node:child_process'
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { cpus, tmpdir, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { build } from 'vite'
import type { BenchSetup } from './perf-page'
import type { AutoBackendResult, BudgetCostRun, EncryptionCost } from './perf-results'
import { lexicalCostTable, lexicalIndexCost } from './lexical-cost'
import { perfReport, type PerfRaw } from './perf-summary'
import { perfTable } from './perf-table'
import { SYNTHETIC_VECTOR_SOURCE } from '../shared/synthetic-vectors'
import { benchSiteDir } from './vite.config'
import { chromiumArgs, findChromium, webgpuArgs } from '../../scripts/find-chromium'
import { startStaticServer } from '../../scripts/static-server'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    json: { type: 'string' },
    repeats: { type: 'string', default: '3' },
    queries: { type: 'string', default: '20' },
    'peer-time-limit': { type: 'string', default: '300' },
    'ingest-sentences': { type: 'string', default: '200' },
    'embed-runs': { type: 'string', default: '5' },
    'webgpu-runs': { type: 'string', default: '3' },
    'no-webgpu': { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    peers: { type: 'string', default: 'orama,mememo' },
    'sizes-only': { type: 'boolean', default: false },
    'import-sentences': { type: 'string', default: '100000' },
    'encryption-size': { type: 'string' },
    only: { type: 'string' },
    'load-time-limit': { type: 'string' },
    'peers-up-to': { type: 'string', default: '100000' },
  },
})
const sizes = values.sizes.split(',').map((s) => Number(s.trim()))
if (sizes.some((s) => !Number.isInteger(s) || s < 20) || sizes.some((s, i) => i > 0 && s <= sizes[i - 1])) {
  console.error('bench:perf: --sizes must be increasing integers ≥ 20, e.g. 1000,10000,100000')
  process.exit(2)
}
const repeats = Number(values.repeats)
const queryCount = Number(values.queries)
const peerTimeLimitMs = Number(values['peer-time-limit']) * 1000
const ingestSentences = Number(values['ingest-sentences'])
const embedRuns = Number(values['embed-runs'])
// SwiftShader (WebGPU on the CPU) is slow: fewer runs keep the default run within about 15 minutes.
const webgpuRuns = Number(values['webgpu-runs'])
const batchSizes = [1, 8, 32]
const peerNames = values.peers
  .split(',')
  .map((p) => p.trim())
  .filter((p) => p !== '')
if (peerNames.some((p) => p !== 'orama' && p !== 'mememo')) {
  console.error('bench:perf: --peers takes a comma-separated subset of orama,mememo (or an empty string for none)')
  process.exit(2)
}
const loadTimeLimitMs =
  values['load-time-limit'] === undefined ? Number.POSITIVE_INFINITY : Number(values['load-time-limit']) * 1000
const peersUpTo = Number(values['peers-up-to'])
if (!(loadTimeLimitMs > 0) || !Number.isInteger(peersUpTo)) {
  console.error('bench:perf: --load-time-limit takes seconds (> 0), --peers-up-to a number of sentences')
  process.exit(2)
}
const sizesOnly = values['sizes-only']
const importSentences = Number(values['import-sentences'])
if (!Number.isInteger(importSentences) || importSentences < 0) {
  console.error('bench:perf: --import-sentences must be a whole number of sentences (0 skips the import section)')
  process.exit(2)
}
const encryptionSize = Number(values['encryption-size'] ?? sizes[sizes.length - 1])
if (!Number.isInteger(encryptionSize) || encryptionSize < 0) {
  console.error('bench:perf: --encryption-size must be a whole number of sentences (0 skips the encryption section)')
  process.exit(2)
}
if (values.only !== undefined && !['import', 'encryption', 'lexical'].includes(values.only)) {
  console.error('bench:perf: --only takes one section: import, encryption or lexical')
  process.exit(2)
}
const importOnly = values.only === 'import'
const encryptionOnly = values.only === 'encryption'
/** Only one section runs: none of the embedding, ingest and per-size measurements. */
const oneSection = importOnly || encryptionOnly

/** Real-model ingest runs of each kind in the encryption section (plain and encrypted alternating). */
const ENCRYPTION_INGEST_RUNS = 2

const startedAt = Date.now()
const elapsed = () => `${((Date.now() - startedAt) / 1000).toFixed(0)}s`
const say = (message: string) => console.log(`[${elapsed()}] ${message}`)

if (values.only === 'lexical') {
  const size = sizes[sizes.length - 1]
  console.log(lexicalCostTable(size, lexicalIndexCost(size, repeats, say)))
  process.exit(0)
}

const executablePath = findChromium()
if (!executablePath) {
  console.error('bench:perf: no Chromium found; install it (Debian: apt-get install -y chromium) or set CHROME_PATH.')
  process.exit(1)
}

interface Session {
  context: BrowserContext
  page: Page
  userDataDir: string
  close(): Promise<void>
}

async function openSession(url: string, webgpu: boolean): Promise<Session> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'sift-bench-perf-'))
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: webgpu ? [...chromiumArgs, ...webgpuArgs] : chromiumArgs,
  })
  const page = context.pages()[0] ?? (await context.newPage())
  page.on('console', (message) => {
    const text = message.text()
    if (text.startsWith('[bench]')) say(text.slice(8))
    else if (text.startsWith('Failed to load resource')) return
    else if (message.type() === 'error' || message.type() === 'warning')
      console.error(`  [page ${message.type()}] ${text}`)
  })
  page.on('pageerror', (error) => console.error(`  [page error] ${error.message}`))
  page.on('response', (response) => {
    if (response.status() >= 400 && !response.url().endsWith('/favicon.ico'))
      console.error(`  [http ${response.status()}] ${response.url()}`)
  })
  await page.goto(`${url}/perf.html`)
  await page.waitForFunction(() => typeof window.siftBench?.prepare === 'function')
  return {
    context,
    page,
    userDataDir,
    close: async () => {
      await context.close()
      await rm(userDataDir, { recursive: true, force: true })
    },
  }
}

/** Bytes of every file under the profile's IndexedDB folder: what the stores really occupy on disk. */
async function indexedDbDiskBytes(userDataDir: string): Promise<number> {
  const total = async (path: string): Promise<number> => {
    const info = await stat(path).catch(() => undefined)
    if (!info) return 0
    if (!info.isDirectory()) return info.size
    let sum = 0
    for (const entry of await readdir(path)) sum += await total(join(path, entry))
    return sum
  }
  return total(join(userDataDir, 'Default', 'IndexedDB'))
}

function commandOutput(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return 'unknown'
  }
}

// The code the run measures is the checkout's at its start (commits made while a long run goes on are not in it).
const startCommit = `${commandOutput('git', ['rev-parse', '--short', 'HEAD'])}${commandOutput('git', ['status', '--porcelain', '--', 'src', 'worker', 'bench']) ? ' (uncommitted changes)' : ''}`
const setup: BenchSetup = { maxSentences: sizes[sizes.length - 1], queryCount, queriesWithin: sizes[0] }

if (!values['no-build']) {
  say('building bench/perf/perf.html')
  await build({ configFile: join(root, 'bench', 'perf', 'vite.config.ts'), logLevel: 'warn' })
}
const server = await startStaticServer({ root: benchSiteDir, port: 0 })
const raw: Partial<PerfRaw> = {
  embed: [],
  loads: [],
  contexts: [],
  budgetCosts: [],
  footprints: [],
  coldStarts: [],
  indexBytes: [],
  peers: [],
  errors: [],
}

/** One budget's cost as a line: p50/p95 milliseconds inside the worker and the mean fill of its unit. */
function budgetCostLine({ budget, ms, fill }: BudgetCostRun): string {
  const sorted = [...ms].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
  const meanFill = fill.reduce((sum, f) => sum + f, 0) / Math.max(1, fill.length)
  return `buildContext hybrid, ${budget}: ${at(0.5).toFixed(2)} ms p50 / ${at(0.95).toFixed(2)} ms p95, fill ${(100 * meanFill).toFixed(1)}% (min ${(100 * Math.min(...fill)).toFixed(1)}%)`
}

/** Runs one measurement; a failure is recorded and reported, and the run goes on with the next one. */
async function attempt<T>(label: string, work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work()
  } catch (error) {
    const message = `${label}: ${(error as Error)?.message?.split('\n')[0] ?? String(error)}`
    raw.errors!.push(message)
    say(`FAILED ${message}`)
    return undefined
  }
}
const keep = <T>(list: T[], value: T | undefined) => value !== undefined && list.push(value)
try {
  let webgpuLaunch: AutoBackendResult | undefined
  if (!values['no-webgpu'] && !sizesOnly && !oneSection) {
    say('WebGPU launch (--enable-unsafe-webgpu): embedding throughput, auto backend')
    const session = await openSession(server.url, true)
    try {
      await session.page.evaluate((s) => window.siftBench.prepare(s), { ...setup, maxSentences: 2000 })
      keep(
        raw.embed!,
        await attempt('webgpu embedding', () =>
          session.page.evaluate(([b, r]) => window.siftBench.embedThroughput('webgpu', b, r), [
            batchSizes,
            webgpuRuns,
          ] as const),
        ),
      )
      webgpuLaunch = await attempt('auto backend (WebGPU launch)', () =>
        session.page.evaluate(() => window.siftBench.autoBackend()),
      )
    } finally {
      await session.close()
    }
  }

  say(
    oneSection ? `plain launch: ${values.only} only` : 'plain launch: WASM embedding, auto backend, real-model ingest',
  )
  const session = await openSession(server.url, false)
  try {
    const { page, userDataDir } = session
    if (!oneSection) await page.evaluate((s) => window.siftBench.prepare(s), setup)
    if (!sizesOnly && !oneSection) {
      const wasm = await attempt('wasm embedding', () =>
        page.evaluate(([b, r]) => window.siftBench.embedThroughput('wasm', b, r), [batchSizes, embedRuns] as const),
      )
      if (wasm) raw.embed!.unshift(wasm)
      raw.auto = { wasmLaunch: await page.evaluate(() => window.siftBench.autoBackend()), webgpuLaunch }
      raw.ingest = await page.evaluate((n) => window.siftBench.realIngest(n), ingestSentences)
      say(
        `ingest: ${raw.ingest.sentences} sentences in ${raw.ingest.ms.toFixed(0)} ms, UI longest block ${raw.ingest.ui.longestBlockMs.toFixed(1)} ms`,
      )
    }
    const originUsageBaseline = await page.evaluate(() => window.siftBench.originUsage())
    const diskBaseline = await indexedDbDiskBytes(userDataDir)
    for (const size of oneSection ? [] : sizes) {
      say(`size ${size}: load`)
      const load = await page.evaluate(([n, t]) => window.siftBench.load(n, t), [size, loadTimeLimitMs] as const)
      raw.loads!.push(load)
      // A load stopped by its time limit is measured at the size it reached.
      const at = load.timeLimited ? load.sentences : size
      say(
        `size ${size}: loaded ${load.sentences} sentences in ${((load.addMs + load.indexedMs) / 1000).toFixed(1)} s${load.timeLimited ? ' (time limit)' : ''}; ground truth at ${at}`,
      )
      await page.evaluate((n) => window.siftBench.groundTruth(n), at)
      say(`size ${at}: buildContext`)
      for (const strategy of ['hybrid', 'dense'] as const) {
        keep(
          raw.contexts!,
          await attempt(`buildContext ${strategy} ${at}`, () =>
            page.evaluate(([n, s, r]) => window.siftBench.context(n, s, r, 1), [at, strategy, repeats] as const),
          ),
        )
      }
      const costs = await attempt(`budget cost ${at}`, () =>
        page.evaluate(([n, r]) => window.siftBench.budgetCost(n, r), [at, repeats] as const),
      )
      keep(raw.budgetCosts!, costs)
      for (const run of costs?.runs ?? []) say(`size ${at}: ${budgetCostLine(run)}`)
      await page.evaluate(() => window.siftBench.closeSift())
      keep(
        raw.indexBytes!,
        await attempt(`index bytes ${at}`, () => page.evaluate((n) => window.siftBench.indexBytes(n), at)),
      )
      const footprint = await page.evaluate((n) => window.siftBench.footprint(n), at)
      raw.footprints!.push({
        ...footprint,
        originUsageBaseline,
        diskBytes: await indexedDbDiskBytes(userDataDir),
        diskBaseline,
      })
      say(`size ${at}: cold start`)
      keep(
        raw.coldStarts!,
        await attempt(`cold start ${at}`, () =>
          page.evaluate(([n, r]) => window.siftBench.coldStart(n, r, true), [at, repeats] as const),
        ),
      )
      for (const peer of at <= peersUpTo ? (peerNames as ('orama' | 'mememo')[]) : []) {
        say(`size ${at}: ${peer}`)
        keep(
          raw.peers!,
          await attempt(`${peer} ${at}`, () =>
            page.evaluate(([n, p, t, r]) => window.siftBench.peer(n, p, t, r), [
              at,
              peer,
              peerTimeLimitMs,
              repeats,
            ] as const),
          ),
        )
      }
      if (load.timeLimited) break
    }
    if (importSentences > 0 && !sizesOnly && !encryptionOnly) {
      say(`import: ${importSentences} sentences as one export`)
      raw.import = await attempt('import', () =>
        page.evaluate((n) => window.siftBench.importHistory(n), importSentences),
      )
      if (raw.import)
        say(
          `import: stored in ${(raw.import.storeMs / 1000).toFixed(1)} s, indexed ${(raw.import.indexedMs / 1000).toFixed(1)} s later`,
        )
    }
    if (encryptionSize > 0 && !sizesOnly && !importOnly) {
      say(`encryption: ${encryptionSize} sentences, plain and encrypted`)
      raw.encryption = await attempt('encryption', async () => {
        const stores = await page.evaluate(([n, r]) => window.siftBench.encryptionStores(n, r), [
          encryptionSize,
          repeats,
        ] as const)
        // Alternating, so that a drift of the machine's speed during the section reaches both alike.
        const ingest: EncryptionCost['ingest'] = { plain: [], encrypted: [] }
        for (let run = 0; run < ENCRYPTION_INGEST_RUNS; run++) {
          for (const encrypted of [false, true])
            ingest[encrypted ? 'encrypted' : 'plain'].push(
              await page.evaluate(([n, e]) => window.siftBench.realIngest(n, e), [ingestSentences, encrypted] as const),
            )
        }
        return { ...stores, ingest }
      })
    }
  } finally {
    await session.close()
  }
} finally {
  await server.close()
}

const meta = {
  date: new Date().toISOString(),
  commit: startCommit,
  machine: `${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
  chromium: commandOutput(executablePath, ['--version']),
  vectorSource: `${SYNTHETIC_VECTOR_SOURCE}; texts: synthetic (bench/shared/synthetic-history.ts); query embeddings in "+query" columns: real model (WASM)`,
  sizes: oneSection ? [] : sizes,
  importSentences: sizesOnly || encryptionOnly ? 0 : importSentences,
  encryptionSize: sizesOnly || importOnly ? 0 : encryptionSize,
  repeats,
  queries: queryCount,
  peerTimeLimitSeconds: peerTimeLimitMs / 1000,
  durationSeconds: Math.round((Date.now() - startedAt) / 1000),
}
const report = perfReport(raw as PerfRaw, meta)
console.log('')
console.log(perfTable(report))
if (values.json) {
  await writeFile(values.json, `${JSON.stringify({ ...report, raw }, null, 1)}\n`)
  console.log(`\nwrote ${values.json}`)
}
