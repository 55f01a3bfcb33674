// The published library as an app would use it: `vite build --mode lib` into a temporary folder, an app that
// imports it by its package entry and is bundled by Vite (as an app's own bundler would), served with the model and
// ONNX Runtime files, then the real API in Chromium — the engine worker and the model worker it starts must both
// resolve from the bundle. The app is built twice: with Vite's default worker format (one classic script per worker,
// which inlines dynamic imports) and with `worker: { format: 'es' }`. The same build's declarations are type-checked
// as an app's TypeScript would see them.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { build } from 'vite'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { launchChromium } from '../scripts/launch-chromium'
import { describeEachEngine } from './browsers/each-engine'
import { startStaticServer, type StaticServer } from '../scripts/static-server'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
let workDir: string
let libDir: string
/** Vite's worker formats an app may build with: its default (`iife`) and ES modules. */
const WORKER_FORMATS = ['default', 'es'] as const
type WorkerFormat = (typeof WORKER_FORMATS)[number]
const apps = new Map<WorkerFormat, { dir: string; server: StaticServer }>()

beforeAll(async () => {
  // Inside the repository, as an installed package sits inside an app: its bare imports (comlink, dexie,
  // transformers.js) resolve from the node_modules above it.
  await mkdir(join(root, '.cache'), { recursive: true })
  workDir = await mkdtemp(join(root, '.cache', 'library-build-'))
  libDir = join(workDir, 'lib')
  await build({
    root,
    configFile: join(root, 'vite.config.ts'),
    mode: 'lib',
    logLevel: 'warn',
    build: { outDir: libDir, emptyOutDir: true },
  })
  await writeFile(join(workDir, 'index.html'), '<!doctype html><script type="module" src="./main.js"></script>\n')
  await writeFile(
    join(workDir, 'main.js'),
    `import { createMemory } from 'sift-memory'\nwindow.createMemory = createMemory\n`,
  )
  for (const format of WORKER_FORMATS) {
    const dir = join(workDir, `app-${format}`)
    await build({
      root: workDir,
      configFile: false,
      logLevel: 'warn',
      publicDir: join(root, 'public'),
      resolve: { alias: { 'sift-memory': join(libDir, 'index.js') } },
      worker: format === 'es' ? { format: 'es' } : {},
      build: { outDir: dir, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 4096 },
    })
    apps.set(format, { dir, server: await startStaticServer({ root: dir, port: 0 }) })
  }
}, 300_000)

afterAll(async () => {
  for (const { server } of apps.values()) await server.close()
  await rm(workDir, { recursive: true, force: true })
})

/** Strings of an encoding's rank table that no code holds: its longest ASCII tokens. */
async function encodingMarkers(name: 'o200k_base' | 'cl100k_base'): Promise<string[]> {
  const { default: table } = (await import(`gpt-tokenizer/bpeRanks/${name}`)) as { default: (string | number[])[] }
  return table
    .filter((token): token is string => typeof token === 'string' && /^[a-zA-Z]+$/.test(token))
    .sort((a, b) => b.length - a.length)
    .slice(0, 5)
}

test.each(WORKER_FORMATS)(
  'an app built with the %s worker format keeps the tokenizers out of the engine worker',
  async (format) => {
    const assets = join(apps.get(format)!.dir, 'assets')
    const files = await readdir(assets)
    const engineWorker = files.find((file) => /^engine-worker-.*\.js$/.test(file))
    expect(engineWorker, files.join('\n')).toBeDefined()
    const code = await readFile(join(assets, engineWorker!), 'utf8')
    for (const name of ['o200k_base', 'cl100k_base'] as const) {
      const markers = await encodingMarkers(name)
      expect(
        markers.filter((marker) => code.includes(`"${marker}"`)),
        name,
      ).toEqual([])
      const own = files.filter((file) => file.startsWith(`${name}-`) && file.endsWith('.js'))
      expect(own, files.join('\n')).toHaveLength(1)
      const table = await readFile(join(assets, own[0]), 'utf8')
      expect(
        markers.every((marker) => table.includes(`"${marker}"`)),
        name,
      ).toBe(true)
    }
  },
)

test.each(WORKER_FORMATS)(
  'an app built with the %s worker format runs the engine and model workers from its own bundle',
  async (format) => {
    const { server } = apps.get(format)!
    const browser = await launchChromium({ webgpu: false })
    try {
      const page = await browser.newPage()
      const requests: string[] = []
      page.on('request', (request) => requests.push(request.url()))
      page.on('worker', (worker) => requests.push(`worker:${worker.url()}`))
      await page.goto(`${server.url}/`)
      await page.waitForFunction(
        () => typeof (window as unknown as { createMemory?: unknown }).createMemory === 'function',
      )
      const result = await page.evaluate(async () => {
        const { createMemory } = window as unknown as { createMemory: typeof import('../src/index').createMemory }
        const memory = await createMemory({ name: 'library-build', device: 'wasm' })
        await memory.add({ role: 'user', content: 'Our boiler was serviced by Anna in March.' })
        await memory.indexed()
        const context = await memory.buildContext('Who serviced the boiler?', { strategy: 'dense' })
        const stats = await memory.stats()
        ;(window as unknown as { memory: typeof memory }).memory = memory
        return { text: context.text, backend: stats.backend }
      })
      expect(result.backend).toBe('wasm')
      // A character budget loads no tokenizer; a token budget loads its own encoding's chunk, and only that one.
      const tokenizerChunks = () =>
        requests.filter((url) => /\/(o200k_base|cl100k_base|tokenizers)-[^/]*\.js$/.test(url))
      expect(tokenizerChunks()).toEqual([])
      const tokens = await page.evaluate(async () => {
        const { memory } = window as unknown as { memory: import('../src/index').Memory }
        const context = await memory.buildContext('Who serviced the boiler?', {
          budget: { tokens: 40, tokenizer: 'o200k_base' },
        })
        await memory.close()
        return context.stats.tokens
      })
      expect(tokens).toMatchObject({ budget: 40, tokenizer: 'o200k_base' })
      expect(tokenizerChunks()).toEqual([expect.stringMatching(/\/o200k_base-[^/]*\.js$/)])
      expect(result.text).toContain('serviced by Anna')
      expect(
        requests.some((url) => /^worker:.*\/assets\/engine-worker-[^/]*\.js$/.test(url)),
        requests.join('\n'),
      ).toBe(true)
      expect(
        requests.some((url) => /^worker:.*\/assets\/model-worker-[^/]*\.js$/.test(url)),
        requests.join('\n'),
      ).toBe(true)
      expect(requests.filter((url) => !url.startsWith('worker:') && !url.startsWith(server.url))).toEqual([])
    } finally {
      await browser.close()
    }
  },
)

describeEachEngine('an app built with the default worker format', ({ browser }) => {
  test('counts a token budget with the encoding it loads by URL from its classic engine worker', async () => {
    const page = await browser().newPage()
    try {
      await page.goto(`${apps.get('default')!.server.url}/`)
      await page.waitForFunction(
        () => typeof (window as unknown as { createMemory?: unknown }).createMemory === 'function',
      )
      const tokens = await page.evaluate(async () => {
        const { createMemory } = window as unknown as { createMemory: typeof import('../src/index').createMemory }
        const memory = await createMemory({ name: 'library-build-engines', device: 'wasm' })
        await memory.add({ role: 'user', content: 'Our boiler was serviced by Anna in March.' })
        const context = await memory.buildContext('Who serviced the boiler?', {
          strategy: 'lexical',
          budget: { tokens: 40, tokenizer: 'cl100k_base' },
        })
        await memory.clear()
        return { text: context.text, tokens: context.stats.tokens }
      })
      expect(tokens.tokens).toMatchObject({ budget: 40, tokenizer: 'cl100k_base' })
      expect(tokens.text).toContain('serviced by Anna')
    } finally {
      await page.close()
    }
  })
})

test('the built declarations are the public API only, and an app importing them type-checks', async () => {
  const declarations = (await readdir(libDir, { recursive: true })).filter((path) => path.endsWith('.d.ts')).sort()
  expect(declarations).toEqual(
    expect.arrayContaining(['index.d.ts', 'node.d.ts', 'ai.d.ts', 'react.d.ts', 'types.d.ts', 'errors.d.ts']),
  )
  // The integrations' frameworks are the app's own: imported, never bundled.
  for (const [entry, framework] of [
    ['ai.js', 'ai'],
    ['react.js', 'react'],
  ]) {
    const code = await readFile(join(libDir, entry), 'utf8')
    expect(code, entry).toMatch(new RegExp(`from ['"]${framework}['"]`))
  }
  for (const entry of ['index.js', 'node.js'])
    expect(await readFile(join(libDir, entry), 'utf8'), entry).not.toMatch(/from ['"](ai|react)['"]/)
  expect(declarations.filter((path) => path.split(/[\\/]/).includes('worker'))).toEqual([])
  for (const path of declarations) expect(await readFile(join(libDir, path), 'utf8'), path).not.toMatch(/worker\//)
  // The Node entry's internal `tuning` option (marked @internal) is not published either.
  expect(await readFile(join(libDir, 'node-options.d.ts'), 'utf8')).toMatch(/embeddingCacheDir/)
  for (const path of declarations) expect(await readFile(join(libDir, path), 'utf8'), path).not.toMatch(/tuning/)

  await writeFile(
    join(workDir, 'app.ts'),
    `import { createMemory, isSiftError, packBudget, renderContext, SiftError, splitSentences, type Context, type Memory, type SiftErrorCode } from 'sift-memory'
import { createMemory as createNodeMemory, type NodeMemoryOptions } from 'sift-memory/node'
import { recallTool, siftMemory, type SiftMemoryOptions } from 'sift-memory/ai'
import { useMemory, type MemoryState } from 'sift-memory/react'
import { chatPrompt, RECALL_TOOL, recall } from 'sift-memory'

export async function answer(question: string): Promise<string> {
  const memory: Memory = await createMemory({ name: 'app', device: 'wasm' })
  try {
    await memory.add({ role: 'user', content: 'Our boiler was serviced by Anna in March.' })
    const context: Context = await memory.buildContext(question, { budget: 2000, strategy: 'hybrid' })
    return context.text + context.items.map((item) => item.reason).join(',')
  } catch (error) {
    const code: SiftErrorCode | undefined = isSiftError(error) ? error.code : undefined
    if (error instanceof SiftError && code === 'WORKER_FAILED') return ''
    throw error
  } finally {
    await memory.close()
  }
}
const nodeOptions: NodeMemoryOptions = { name: 'cli', embeddingCacheDir: '.cache' }
export const nodeMemory: Promise<Memory> = createNodeMemory(nodeOptions)
export const sentences: string[] = splitSentences('One. Two.').map((sentence) => sentence.text)
export const packed: string = packBudget([], { budget: 100 }).text
export const rendered: string = renderContext([])
const aiOptions: SiftMemoryOptions = { recentTurns: 4, budget: 2000 }
export const withMemory = (memory: Memory) => ({ middleware: siftMemory(memory, aiOptions), tool: recallTool(memory) })
export const useChatMemory = (): MemoryState => useMemory({ name: 'app', conversationId: 'chat' })
export const toolName: 'recall' = RECALL_TOOL.name
export const prompt = chatPrompt({ system: 'Be brief.', context: '', recent: [], request: 'Hi' }).system
export const recalled = (memory: Memory) => recall(memory, { query: 'dog' }).then((result) => result.excerpts)
`,
  )
  await writeFile(
    join(workDir, 'internal.ts'),
    `import { SENTENCE_JOIN } from 'sift-memory'\nexport const join: string = SENTENCE_JOIN\n`,
  )
  const diagnosticsOf = (file: string) => {
    const program = ts.createProgram([join(workDir, file)], {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: [],
      paths: {
        'sift-memory': [join(libDir, 'index.d.ts')],
        'sift-memory/node': [join(libDir, 'node.d.ts')],
        'sift-memory/ai': [join(libDir, 'ai.d.ts')],
        'sift-memory/react': [join(libDir, 'react.d.ts')],
      },
    })
    // Every declaration file is checked (skipLibCheck off), but only ours report: the AI SDK's and React's own
    // declarations need types (Node's, json-schema's) that an app's TypeScript takes from its own setup.
    return ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => !diagnostic.file?.fileName.includes('/node_modules/'))
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
  }
  expect(diagnosticsOf('app.ts')).toEqual([])
  // The check can fail: an internal name of the core is not part of the published types.
  expect(diagnosticsOf('internal.ts')).toEqual([expect.stringContaining("has no exported member 'SENTENCE_JOIN'")])
})
