// `npm test`: makes sure a Chromium, the embedded model and the ONNX Runtime files exist, checks format, lint and types,
// then runs every vitest project. Firefox ESR and WebKit are installed where apt-get can, and their tests skipped,
// with the reason printed, where they are missing.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { engineOfTitle } from '../e2e/browsers/session'
import { findFirefox, findWebKit } from './find-browsers'
import { findChromium } from './find-chromium'
import { setUp } from './setup'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env })
  return result.status ?? 1
}

function canInstallWithApt(): boolean {
  return (
    process.getuid?.() === 0 &&
    existsSync('/etc/debian_version') &&
    run('sh', ['-c', 'command -v apt-get >/dev/null']) === 0
  )
}

function ensureChromium(): string {
  const found = findChromium()
  if (found) return found
  if (process.env.CHROME_PATH) {
    console.error(
      `npm test: CHROME_PATH=${process.env.CHROME_PATH} is not an executable file; point it at Chromium or Chrome.`,
    )
    process.exit(1)
  }
  if (canInstallWithApt()) {
    console.log('npm test: no Chromium found; installing Debian chromium with apt-get')
    if (run('apt-get', ['update']) === 0 && run('apt-get', ['install', '-y', 'chromium']) === 0) {
      const installed = findChromium()
      if (installed) return installed
    }
  }
  console.error(
    'npm test: no Chromium found; install Chromium or Chrome (Debian: apt-get install -y chromium) or set CHROME_PATH to its binary.',
  )
  process.exit(1)
}

/** What is missing of Firefox ESR and WebKit (WebKitWebDriver, MiniBrowser, Xvfb), each with its reason. */
function missingEngines(): string[] {
  const webkit = findWebKit()
  return [
    ...(findFirefox() ? [] : ['Firefox: no firefox-esr (Debian: firefox-esr, or set FIREFOX_PATH)']),
    ...('missing' in webkit ? [`WebKit: ${webkit.missing}`] : []),
  ]
}

/**
 * Firefox ESR and WebKit for e2e/engines.test.ts: installed with apt-get where it can (root on Debian), else their
 * tests skip; either way what is missing is said here, not only in the test report.
 */
function ensureOtherEngines(): void {
  if (missingEngines().length > 0 && canInstallWithApt()) {
    console.log('npm test: installing Firefox ESR and WebKit with apt-get (firefox-esr webkit2gtk-driver xvfb)')
    if (run('apt-get', ['update']) === 0) run('apt-get', ['install', '-y', 'firefox-esr', 'webkit2gtk-driver', 'xvfb'])
  }
  for (const missing of missingEngines()) console.log(`npm test: skipping that engine's browser tests: ${missing}`)
}

interface ReportedTest {
  ancestorTitles: string[]
  status: string
}

/**
 * How many e2e tests each engine ran, passed and skipped: a test inside a `[engine] …` block (e2e/browsers/each-engine.ts)
 * counts for that engine; every other e2e test drives Chromium alone.
 */
function perEngine(files: { name: string; assertionResults: ReportedTest[] }[]): string[] {
  const counts = new Map<string, { passed: number; failed: number; skipped: number }>()
  for (const file of files) {
    if (!/[/\\]e2e[/\\]/.test(file.name)) continue
    for (const test of file.assertionResults) {
      const engine = engineOfTitle(test.ancestorTitles[0] ?? '') ?? 'chromium'
      const count = counts.get(engine) ?? { passed: 0, failed: 0, skipped: 0 }
      if (test.status === 'passed') count.passed++
      else if (test.status === 'failed') count.failed++
      else count.skipped++
      counts.set(engine, count)
    }
  }
  return [...counts].map(
    ([engine, { passed, failed, skipped }]) => `  ${engine}: ${passed} passed, ${failed} failed, ${skipped} skipped`,
  )
}

/** One closing line in the plain `N passed, N failed` form that CI reads, from vitest's JSON report. */
function printSummary(reportPath: string): void {
  if (!existsSync(reportPath)) return
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as {
    numPassedTests: number
    numFailedTests: number
    numPendingTests: number
    numTodoTests: number
    testResults: { name: string; assertionResults: ReportedTest[] }[]
  }
  const engines = perEngine(report.testResults)
  if (engines.length > 0) console.log(`browser tests per engine:\n${engines.join('\n')}`)
  console.log(
    `tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + report.numTodoTests} skipped`,
  )
}

const chromePath = ensureChromium()
ensureOtherEngines()
setUp()
// Formatting and lint are part of the code's review: an unformatted file fails the run (`npm run format` fixes it).
if (run('npx', ['biome', 'check', '.']) !== 0) {
  console.error('npm test: the format or lint check failed (npx biome check .; npm run format writes the fixes it can)')
  process.exit(1)
}
// Types are part of the contract (the declarations ship): a type error fails the run like a failing test.
if (run('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']) !== 0) {
  console.error('npm test: the type check failed (npx tsc --noEmit -p tsconfig.json)')
  process.exit(1)
}
const reportPath = join(root, '.cache/vitest-report.json')
rmSync(reportPath, { force: true })
const status = run(
  'npx',
  [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${reportPath}`,
    ...process.argv.slice(2),
  ],
  {
    ...process.env,
    CHROME_PATH: chromePath,
  },
)
printSummary(reportPath)
process.exit(status)
