// What a new visitor downloads from an example app built on the packed library: the example copied outside the
// repository with the tarball installed (e2e/app-install.ts), built with its own Vite config, served by `vite preview`
// behind a proxy that counts each response as sent (status line, headers and the body as compressed), and opened in
// a fresh headless Chromium context until the page says the model is ready and the network has been quiet a while.
// Counted at the server because Playwright's `request.sizes()` reports no bytes for worker scripts.
//   npm pack && npx tsx bench/chat-apps/first-visit.ts --tarball sift-memory-0.1.0.tgz [--tarball OTHER.tgz]
//                                                     [--runs N]
// Several tarballs (a before and an after) are measured in alternating runs, each installed into its own copy.
import { createServer, request as forward, type Server } from 'node:http'
import { rm } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { type AppServer, buildApp, installApp, startVite } from '../../e2e/app-install'
import type { Browser } from 'playwright-core'
import { launchChromium } from '../../scripts/launch-chromium'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const { values } = parseArgs({
  options: {
    tarball: { type: 'string', multiple: true },
    runs: { type: 'string', default: '2' },
  },
})
if (!values.tarball?.length) {
  console.error('first-visit: --tarball PATH is required (npm pack writes sift-memory-0.1.0.tgz)')
  process.exit(2)
}

/** What the example's page shows once the model is ready (examples/react-ai-sdk/src/App.tsx). */
const READY = /Model ready/
/** Quiet after the model is ready: later requests (the word-neighbour table, a worker's chunk) still count. */
const QUIET_MS = 3000
/** Bytes of a status line beyond its headers ("HTTP/1.1 200 OK\r\n" and the blank line ending the headers). */
const STATUS_LINE_BYTES = 17

/** A proxy to `upstream` that adds up, per path, every byte of every response it passes on. */
async function countingProxy(upstream: string): Promise<{ url: string; bytes: Map<string, number>; server: Server }> {
  const bytes = new Map<string, number>()
  const server = createServer((request, response) => {
    const target = new URL(request.url ?? '/', upstream)
    const outgoing = forward(
      target,
      { method: request.method, headers: { ...request.headers, host: target.host } },
      (reply) => {
        let sent = STATUS_LINE_BYTES
        for (let i = 0; i < reply.rawHeaders.length; i += 2)
          sent += reply.rawHeaders[i].length + reply.rawHeaders[i + 1].length + 4
        reply.on('data', (chunk: Buffer) => (sent += chunk.length))
        reply.on('end', () => bytes.set(target.pathname, (bytes.get(target.pathname) ?? 0) + sent))
        response.writeHead(reply.statusCode ?? 502, reply.rawHeaders)
        reply.pipe(response)
      },
    )
    request.pipe(outgoing)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  return { url: `http://localhost:${port}`, bytes, server }
}

const MB = 1e6

/** One visit of the app `preview` serves, in a fresh context of `browser`; prints and returns the bytes sent. */
async function visit(browser: Browser, previewUrl: string, label: string): Promise<number> {
  const proxy = await countingProxy(previewUrl)
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.goto(`${proxy.url}/`)
    await page.locator('#status', { hasText: READY }).waitFor({ timeout: 180_000 })
    await page.waitForTimeout(QUIET_MS)
  } finally {
    await context.close()
    await new Promise((done) => proxy.server.close(done))
  }
  const rows = [...proxy.bytes].sort((a, b) => b[1] - a[1])
  const total = rows.reduce((sum, [, sent]) => sum + sent, 0)
  console.log(`${label}: ${(total / MB).toFixed(2)} MB transferred (${rows.length} paths)`)
  for (const [path, sent] of rows) console.log(`  ${(sent / MB).toFixed(2).padStart(6)} MB  ${path}`)
  return total
}

const example = join(root, 'examples/react-ai-sdk')
const apps = await Promise.all(
  values.tarball.map((tarball) => installApp(example, resolve(tarball), join(root, '.cache/npm-cache'))),
)
const previews: AppServer[] = []
const browser = await launchChromium({ webgpu: false })
try {
  for (const app of apps) {
    buildApp(app)
    previews.push(await startVite(app, ['preview']))
  }
  for (let run = 1; run <= Number(values.runs); run++)
    for (const [i, preview] of previews.entries()) await visit(browser, preview.url, `run ${run}, ${values.tarball[i]}`)
} finally {
  await browser.close()
  for (const preview of previews) await preview.close()
  for (const app of apps) await rm(app, { recursive: true, force: true })
}
