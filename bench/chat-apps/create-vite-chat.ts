// From `npm create vite` to a working useChat chat, the steps docs/setup.md gives, timed: a fresh React + TypeScript
// app from create-vite's template, the packed tarball and the AI SDK installed, docs/setup.md's Vite config (its CSP
// recipe for React) and the example app's page (docs/setup.md: examples/react-ai-sdk/src/App.tsx), `vite build` and
// `vite preview`, then one exchange in Chromium against the fake LLM. Prints each step's wall time.
//
//   npm pack && npx tsx bench/chat-apps/create-vite-chat.ts --tarball sift-memory-0.1.0.tgz
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { run, startVite } from '../../e2e/app-install'
import { startFakeLlm } from '../../e2e/fake-llm'
import { launchChromium } from '../../scripts/launch-chromium'

const root = join(import.meta.dirname, '..', '..')
const { values } = parseArgs({ options: { tarball: { type: 'string' } } })
if (!values.tarball) throw new Error('--tarball FILE (npm pack) is required')
const tarball = resolve(values.tarball)
const work = await mkdtemp(join(tmpdir(), 'sift-create-vite-'))
const app = join(work, 'chat')
const started = performance.now()
let last = started
const step = (name: string) => {
  const now = performance.now()
  console.log(`${name}: ${((now - last) / 1000).toFixed(1)} s`)
  last = now
}
const llm = await startFakeLlm()
try {
  run('npx', ['-y', 'create-vite@9.3.0', 'chat', '--template', 'react-ts', '--no-interactive', '--no-immediate'], work)
  step('npm create vite (react-ts)')
  run('npm', ['install', '--no-audit', '--no-fund'], app)
  step('npm install (the template)')
  run(
    'npm',
    ['install', tarball, 'ai@6', '@ai-sdk/react@3', '@ai-sdk/openai-compatible@2', '--no-audit', '--no-fund'],
    app,
  )
  step('npm install sift-memory ai @ai-sdk/react @ai-sdk/openai-compatible')
  const guide = await readFile(join(root, 'docs/setup.md'), 'utf8')
  const config = [...guide.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes('cspNonce'))
  if (!config) throw new Error('docs/setup.md has no Vite config with html.cspNonce')
  await writeFile(join(app, 'vite.config.ts'), config)
  for (const file of ['App.tsx', 'main.tsx', 'style.css'])
    await copyFile(join(root, 'examples/react-ai-sdk/src', file), join(app, 'src', file))
  run(process.execPath, [join(app, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], app)
  step('README config + the example page, vite build')
  const server = await startVite(app, ['preview'])
  const browser = await launchChromium({ webgpu: false })
  try {
    const page = await browser.newPage()
    const problems: string[] = []
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()))
    await page.goto(`${server.url}/`)
    await page.locator('#chat-form').waitFor({ timeout: 60_000 })
    await page.fill('#base-url', llm.baseURL)
    await page.fill('#model', 'fake-model')
    await page.fill('#message', 'We adopted a greyhound called Biscuit.')
    await page.click('#send')
    await page.locator('#turns li[data-role=assistant]', { hasText: 'Noted' }).waitFor({ timeout: 60_000 })
    if (problems.length > 0) throw new Error(`console errors: ${problems.join('\n')}`)
  } finally {
    await browser.close()
    await server.close()
  }
  step('vite preview, first exchange answered in Chromium')
  console.log(`total: ${((performance.now() - started) / 1000).toFixed(1)} s`)
} finally {
  await llm.close()
  await rm(work, { recursive: true, force: true })
}
