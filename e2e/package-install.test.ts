// The package as a package: `npm pack`, the tarball installed from the registry into a copy of examples/chat (a fresh
// Vite app outside this repository), which then runs in Chromium under `vite dev` and under `vite build` +
// `vite preview` with the default model, its chat requests going to a fake LLM on localhost that records them.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { launchChromium } from '../scripts/launch-chromium'
import {
  folderBytes,
  installApp,
  pack,
  packagesWithInstallScripts,
  run,
  startVite,
  type PackedPackage,
} from './app-install'
import { expectReactChat, reactChatThrough } from './react-example-run'
import { messageText, startFakeLlm, type ChatRequest, type FakeLlm } from './fake-llm'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const exampleDir = join(root, 'examples/chat')
const reactExampleDir = join(root, 'examples/react-ai-sdk')
const MB = 1_000_000
/** The context budget the test sets in the page: well under the history it builds, so the budget has to choose. */
const BUDGET = 1000

/**
 * The history typed into the chat, one user turn each. The dog's name is said early, long before the last turns
 * the page sends verbatim, so only the context can bring it to the final question.
 */
const HISTORY = [
  'I moved to Leeds in March for a job at the university library.',
  'My flat is on the fourth floor and the lift breaks down every other week.',
  'We adopted a greyhound last spring and named her Biscuit after her colour.',
  'On Saturdays I swim forty lengths at the leisure centre before breakfast.',
  'My sister Ines is a paediatric nurse in Porto and visits every August.',
  'I am learning the cello, and my teacher says my bowing arm is too stiff.',
  'Our book club is reading a long Russian novel that nobody has finished yet.',
  'I cannot eat peanuts, so I always check the labels on cereal bars.',
  'The library is digitising its map collection and I catalogue the scans.',
  'I bought a second-hand bicycle with a wicker basket for the commute.',
  'My grandmother taught me to bake rye bread with caraway seeds.',
  'Last winter the boiler failed twice and the landlord took weeks to fix it.',
  'I keep tomato plants on the balcony, and the pigeons keep eating the seedlings.',
  'For my birthday I would like a proper raincoat, because Leeds is wet.',
  'At work we are planning an exhibition on nineteenth-century railway posters.',
  'I usually take the early train to York to visit an old school friend.',
  'My favourite film is a quiet Japanese drama about a family of shoplifters.',
  'I started a spreadsheet to track what I spend on groceries each month.',
  'The neighbours downstairs play the trombone late on Thursday evenings.',
  'I would like to walk the Pennine Way one day, in stages over several summers.',
  'Our team lunch is every second Friday at a Vietnamese place near the station.',
  'I have been reading about how to prune an apple tree in late winter.',
  'My manager wants the map catalogue finished before the autumn conference.',
  'I signed up for a pottery evening class but missed the first two sessions.',
  'The cello teacher suggested scales every morning for twenty minutes.',
  'Ines is thinking about moving to Lisbon for a hospital job next year.',
  'I repaired the bicycle chain myself after watching a video about it.',
  'The book club voted to read a detective story after the Russian novel.',
  'I want to learn enough Portuguese to chat with my sister in her language.',
  'On rainy evenings I listen to old radio plays while I cook.',
]
const QUESTION = 'What is the name of my dog?'
/** The turns the page sends verbatim (examples/chat/src/main.ts, RECENT_TURNS). */
const RECENT_TURNS = 6
/** The turns the page shows again after a reload (examples/chat/src/main.ts, SHOWN_TURNS). */
const SHOWN_TURNS = 50

let workDir: string
let packed: PackedPackage
let appDir: string
let reactAppDir: string
let llm: FakeLlm

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'sift-package-'))
  packed = pack(root, workDir)
  appDir = await installApp(exampleDir, packed.tarball, join(root, '.cache/npm-cache'))
  reactAppDir = await installApp(reactExampleDir, packed.tarball, join(root, '.cache/npm-cache'))
  llm = await startFakeLlm()
}, 600_000)

afterAll(async () => {
  await llm?.close()
  for (const dir of [appDir, reactAppDir, workDir]) if (dir) await rm(dir, { recursive: true, force: true })
})

describe('the packed package', () => {
  test('ships the built library, the int8 model and the word-neighbour table with its licence only, within 40 MB unpacked', () => {
    console.log(
      `[package] tarball ${(packed.size / MB).toFixed(1)} MB, unpacked ${(packed.unpackedSize / MB).toFixed(1)} MB, ${packed.files.length} files`,
    )
    expect(packed.unpackedSize).toBeLessThanOrEqual(40 * MB)
    expect(packed.files).toEqual(
      expect.arrayContaining([
        'public/models/use-lite/onnx/model_quantized.onnx',
        'dist/THIRD_PARTY_LICENSES.md',
        'public/models/word-neighbours/en-20k.bin',
        'public/models/word-neighbours/LICENSE',
      ]),
    )
    expect(
      packed.files.filter(
        (file) => !/^(dist\/|public\/models\/(use-lite|word-neighbours)\/|package\.json$|README\.md$)/.test(file),
      ),
    ).toEqual([])
    expect(packed.files.some((file) => file.endsWith('/model.onnx') || file.startsWith('public/ort/'))).toBe(false)
  })

  test('installs into an app without install-time downloads, Node-only dependencies or a prepare script', async () => {
    const manifest = JSON.parse(await readFile(join(appDir, 'node_modules/sift-memory/package.json'), 'utf8')) as {
      scripts?: Record<string, string>
    }
    expect(Object.keys(manifest.scripts ?? {})).not.toContain('prepare')
    const installed = run('npm', ['ls', '--all', '--parseable'], appDir)
    for (const nodeOnly of ['onnxruntime-node', 'sharp', '@img/', '@huggingface/transformers', 'fake-indexeddb']) {
      expect(installed, `${nodeOnly} is installed into a browser app`).not.toContain(`node_modules/${nodeOnly}`)
    }
    // Nor the integrations' frameworks, optional peer dependencies: an app without the AI SDK or React gets neither.
    const packages = installed.split('\n').map((line) => line.replace(/^.*node_modules\//, ''))
    for (const framework of ['ai', 'react', 'react-dom', '@ai-sdk/react']) expect(packages).not.toContain(framework)
    // protobufjs (of onnxruntime-web) has a postinstall that only reads package.json files; nothing else may run one.
    expect(await packagesWithInstallScripts(appDir)).toEqual(['protobufjs'])
    const bytes = async (name: string) => folderBytes(join(appDir, 'node_modules', name))
    console.log(
      `[install] node_modules ${((await folderBytes(join(appDir, 'node_modules'))) / MB).toFixed(0)} MB: sift-memory ` +
        `${((await bytes('sift-memory')) / MB).toFixed(1)} MB, onnxruntime-web ${((await bytes('onnxruntime-web')) / MB).toFixed(0)} MB`,
    )
  })

  test("the example's sources, and the README's lines that call it, type-check against the installed package's declarations", async () => {
    // README, "Use it in your app": the block that creates the memory and calls chatTurn, beside the example's chat-turn.ts.
    const blocks = [...(await readFile(join(root, 'README.md'), 'utf8')).matchAll(/```ts\n([\s\S]*?)```/g)].map(
      (match) => match[1],
    )
    const usage = blocks.filter((block) => block.includes("from './chat-turn'"))
    expect(usage).toHaveLength(1)
    await writeFile(join(appDir, 'src/readme-usage.ts'), `${usage[0]}export { reply }\n`)
    const program = ts.createProgram(
      ['src/main.ts', 'src/chat-turn.ts', 'src/readme-usage.ts', 'vite.config.ts'].map((file) => join(appDir, file)),
      {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
        types: [],
        skipLibCheck: true,
      },
    )
    expect(
      ts
        .getPreEmitDiagnostics(program)
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')),
    ).toEqual([])
  })
})

/** What one run of the example recorded: the chat requests, and every same-origin response of the visit. */
interface ChatRun {
  requests: ChatRequest[]
  /** URL path → bytes as transferred (headers and body, compressed where the server compressed). */
  transferred: Map<string, number>
  problems: string[]
  /** The URLs of the workers the page started (the engine's, and the model's that it starts). */
  workers: string[]
  /** Requests to any origin but the page's and the fake LLM's. */
  foreign: string[]
}

/** Types HISTORY and then QUESTION into the example at `url`, each sent with the Send button and answered by the fake LLM. */
async function chatThrough(url: string): Promise<ChatRun> {
  const browser = await launchChromium({ webgpu: false })
  const firstRequest = llm.requests.length
  const transferred = new Map<string, number>()
  const problems: string[] = []
  const workers: string[] = []
  const foreign: string[] = []
  try {
    const context = await browser.newContext()
    context.on('request', (request) => {
      const origin = new URL(request.url()).origin
      if (origin !== url && origin !== new URL(llm.url).origin && !request.url().startsWith('data:'))
        foreign.push(request.url())
    })
    // The first visit only: the reload at the end fetches again.
    let firstVisit = true
    context.on('requestfinished', async (request) => {
      if (!firstVisit || !request.url().startsWith(url)) return
      const sizes = await request.sizes()
      const path = new URL(request.url()).pathname
      transferred.set(path, (transferred.get(path) ?? 0) + sizes.responseBodySize + sizes.responseHeadersSize)
    })
    const page = await context.newPage()
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`))
    page.on('worker', (worker) => {
      workers.push(worker.url())
      worker.on(
        'console',
        (message) => message.type() === 'error' && problems.push(`worker console: ${message.text()}`),
      )
    })
    await page.goto(`${url}/`)
    await page.locator('#status', { hasText: 'all indexed' }).waitFor({ timeout: 60_000 })
    await page.fill('#endpoint', llm.url)
    await page.fill('#model', 'fake-model')
    await page.fill('#budget', String(BUDGET))
    for (const [index, text] of [...HISTORY, QUESTION].entries()) {
      if (text === QUESTION)
        await page.locator('#status', { hasText: /, all indexed \(wasm\)$/ }).waitFor({ timeout: 120_000 })
      await page.fill('#message', text)
      await page.click('#send')
      await page.locator('#turns li[data-role=assistant]').nth(index).waitFor({ timeout: 60_000 })
    }
    expect(await page.locator('#turns li[data-role=error]').count()).toBe(0)
    // After a reload the page shows the last stored turns again, oldest first (read newest first).
    const shown = await page.locator('#turns li').allTextContents()
    expect(shown.length).toBeGreaterThan(SHOWN_TURNS)
    firstVisit = false
    await page.reload()
    await page.locator('#status', { hasText: 'all indexed' }).waitFor({ timeout: 60_000 })
    expect(await page.locator('#turns li').allTextContents()).toEqual(shown.slice(-SHOWN_TURNS))
    return { requests: llm.requests.slice(firstRequest), transferred, problems, workers, foreign }
  } finally {
    await browser.close()
  }
}

/** The checks on the chat requests one run recorded. */
function expectContextNotHistory({ requests, problems, workers, foreign }: ChatRun): void {
  expect(problems).toEqual([])
  expect(foreign).toEqual([])
  // The workers are the package's own chunks, which the app's Vite found through their URLs and served or bundled.
  expect(
    workers.some((worker) => /\/engine-worker-[^/]*\.js/.test(worker)),
    workers.join('\n'),
  ).toBe(true)
  expect(
    workers.some((worker) => /\/model-worker-[^/]*\.js/.test(worker)),
    workers.join('\n'),
  ).toBe(true)
  expect(requests).toHaveLength(HISTORY.length + 1)
  // The stable prefix: the system prompt, byte for byte the same in every request.
  const [system] = requests[0].messages
  expect(system.role).toBe('system')
  for (const request of requests) expect(request.messages[0]).toEqual(system)

  const last = requests.at(-1)!
  const contextMessage = last.messages[1]
  expect(contextMessage.role).toBe('system')
  const contextText = messageText(contextMessage)
  expect(contextText).toContain('named her Biscuit')
  // The context message is the budgeted context plus its one-line heading.
  const heading = contextText.indexOf('\n') + 1
  expect(contextText.length - heading).toBeLessThanOrEqual(BUDGET)
  expect(last.messages.slice(2)).toHaveLength(RECENT_TURNS + 1)
  expect(last.messages.at(-1)).toEqual({ role: 'user', content: QUESTION })
  // Not the whole history: of the turns before the recent ones, most are left out, and everything sent after the
  // system prompt is shorter than the user's turns alone.
  const body = JSON.stringify(last.messages)
  const older = HISTORY.slice(0, -RECENT_TURNS / 2)
  const sent = older.filter((turn) => body.includes(turn))
  expect(sent.length).toBeLessThan(older.length / 2)
  const sentChars = last.messages.slice(1).reduce((sum, message) => sum + messageText(message).length, 0)
  expect(sentChars).toBeLessThan(HISTORY.join(' ').length)
  console.log(
    `[chat] last request: ${sentChars} characters after the system prompt, for ${HISTORY.join(' ').length} characters of user turns alone; ${sent.length} of ${older.length} older turns in it`,
  )
}

describe('examples/chat, installed from the tarball', () => {
  test('under vite dev: the model and ONNX Runtime files served by sift-memory/vite, the context sent instead of the history', async () => {
    const server = await startVite(appDir, [])
    try {
      expectContextNotHistory(await chatThrough(server.url))
    } finally {
      await server.close()
    }
  })

  test('under vite build + vite preview: the assets emitted, no unused wasm, a first visit within 28 MB', async () => {
    run(process.execPath, [join(appDir, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], appDir)
    const distDir = join(appDir, 'dist')
    const emitted = run('find', ['.', '-type', 'f'], distDir).split('\n').filter(Boolean).sort()
    expect(emitted.filter((file) => file.endsWith('.wasm'))).toEqual([
      './ort/ort-wasm-simd-threaded.asyncify.wasm',
      './ort/ort-wasm-simd-threaded.wasm',
    ])
    expect(emitted).toContain('./models/use-lite/onnx/model_quantized.onnx')
    console.log(`[build] dist ${((await folderBytes(distDir)) / MB).toFixed(1)} MB`)

    const server = await startVite(appDir, ['preview'])
    try {
      const chat = await chatThrough(server.url)
      expectContextNotHistory(chat)
      let decoded = 0
      for (const path of chat.transferred.keys()) {
        const file = join(distDir, path.endsWith('/') ? `${path}index.html` : path)
        decoded += (await stat(file).catch(() => undefined))?.size ?? 0
      }
      const transferred = [...chat.transferred.values()].reduce((sum, bytes) => sum + bytes, 0)
      console.log(
        `[first visit] ${(transferred / MB).toFixed(1)} MB transferred (${(decoded / MB).toFixed(1)} MB of files) in ${chat.transferred.size} responses`,
      )
      expect(chat.transferred.has('/models/use-lite/onnx/model_quantized.onnx')).toBe(true)
      expect(chat.transferred.has('/ort/ort-wasm-simd-threaded.wasm')).toBe(true)
      // Every language's text analysis (the language detector's n-grams, stemmers and stop words) came with the engine
      // worker: BENCHMARKS.md, "The package in an app", says what each part weighs.
      expect(decoded).toBeLessThanOrEqual(28 * MB)
    } finally {
      await server.close()
    }
  })
})

describe('examples/react-ai-sdk (React, useChat, sift-memory/ai and sift-memory/react), installed from the tarball', () => {
  test('under vite dev, with the nonce CSP: the context instead of the history, finished replies stored, kept across a reload', async () => {
    const server = await startVite(reactAppDir, [])
    try {
      expectReactChat(await reactChatThrough(server.url, llm))
    } finally {
      await server.close()
    }
  })

  test('under vite build + vite preview: the same', async () => {
    run(
      process.execPath,
      [join(reactAppDir, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
      reactAppDir,
    )
    const server = await startVite(reactAppDir, ['preview'])
    try {
      const chat = await reactChatThrough(server.url, llm)
      expectReactChat(chat)
      console.log(`[react first visit] ${(chat.firstVisitBytes / MB).toFixed(1)} MB transferred`)
    } finally {
      await server.close()
    }
  })
})
