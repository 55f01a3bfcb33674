// `sift-memory/vite` under a real Vite dev server: the files it serves, and how (the caching and types the browser
// needs to keep the model and ONNX Runtime's compiled WebAssembly between page loads). Emitting under `vite build`
// is covered by e2e/package-install.test.ts, with the packed package.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build, createServer, preview, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MULTILINGUAL_E5_EMBEDDING, writeTinyBertModel } from '../../scripts/model/tiny-bert-model'
import { siftMemory } from '../../src/vite'
import { resolveEmbedding } from '../../worker/embed/embedding-presets'
import { modelFiles } from '../../worker/embed/model-files'
import { assertFilesServed } from '../../worker/embed/served-files'
import { ONNX_RUNTIME_FILE_NAMES } from '../../worker/embed/onnx-runtime-files'

const APP_MODEL = 'acme/tiny-multilingual-e5'

describe('siftMemory() under vite dev', () => {
  let appDir: string
  let server: ViteDevServer
  let url: string
  beforeAll(async () => {
    appDir = await mkdtemp(join(tmpdir(), 'sift-vite-'))
    await writeFile(join(appDir, 'index.html'), '<!doctype html><title>app</title>')
    writeTinyBertModel(join(appDir, 'public/models', APP_MODEL))
    server = await createServer({
      root: appDir,
      configFile: false,
      logLevel: 'silent',
      plugins: [siftMemory()],
      server: { port: 0, host: '127.0.0.1', headers: { 'Cross-Origin-Embedder-Policy': 'require-corp' } },
    })
    await server.listen()
    url = `http://127.0.0.1:${(server.httpServer!.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await server.close()
    await rm(appDir, { recursive: true, force: true })
  })

  it("serves every ONNX Runtime file a device may load, with the app's headers, a validator and the exact type", async () => {
    for (const name of ONNX_RUNTIME_FILE_NAMES) {
      const response = await fetch(`${url}/ort/${name}`, { method: 'HEAD' })
      expect(response.status, name).toBe(200)
      expect(response.headers.get('content-type'), name).toBe(
        name.endsWith('.wasm') ? 'application/wasm' : 'text/javascript; charset=utf-8',
      )
      expect(response.headers.get('cross-origin-embedder-policy')).toBe('require-corp')
    }
    const first = await fetch(`${url}/ort/ort-wasm-simd-threaded.wasm`)
    expect(first.headers.get('cache-control')).toBe('no-cache')
    const etag = first.headers.get('etag')
    expect(etag).toMatch(/^".+"$/)
    const bytes = new Uint8Array(await first.arrayBuffer())
    expect([...bytes.subarray(0, 4)]).toEqual([0, 97, 115, 109])
    expect(Number(first.headers.get('content-length'))).toBe(bytes.length)

    const again = await fetch(`${url}/ort/ort-wasm-simd-threaded.wasm`, { headers: { 'If-None-Match': etag! } })
    expect(again.status).toBe(304)
    expect(again.headers.get('cross-origin-embedder-policy')).toBe('require-corp')
    expect(await again.text()).toBe('')
  })

  it('serves the shipped model, and leaves every other path to the app', async () => {
    const config = await fetch(`${url}/models/use-lite/config.json`)
    expect(config.status).toBe(200)
    expect(config.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await config.json()).toBeTypeOf('object')
    // A file of onnxruntime-web that Sift never loads: Vite's own fallback answers, with the app's page.
    const other = await fetch(`${url}/ort/ort.webgpu.min.mjs`)
    expect(other.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await other.text()).toContain('<title>app</title>')
  })
  it("leaves /models/ to the app's public folder for a model of its own, as docs/models.md has it self-hosted", async () => {
    const files = modelFiles(
      {
        model: APP_MODEL,
        embedding: resolveEmbedding(APP_MODEL, MULTILINGUAL_E5_EMBEDDING),
        localModelPath: '/models/',
        allowRemoteModels: false,
        backends: ['wasm'],
      },
      url,
    )
    expect(files.map((file) => file.url)).toContain(`${url}/models/${APP_MODEL}/onnx/model_quantized.onnx`)
    for (const file of files) {
      const response = await fetch(file.url)
      expect(response.status, file.url).toBe(200)
      expect(response.headers.get('content-type'), file.url).not.toMatch(/^text\/html/)
      expect(response.headers.get('cross-origin-embedder-policy'), file.url).toBe('require-corp')
    }
    await expect(assertFilesServed(files)).resolves.toBeUndefined()
  })
})

// Vite sends `server.headers` and `preview.headers` with a 200 only; a page reload revalidates its files and gets 304s
// without them, and WebKit starts no worker whose 304 lacks Cross-Origin-Embedder-Policy in an isolated page (the
// memory never opened after a reload there: e2e/package-install.test.ts).
describe("siftMemory(): the app's isolation headers on a revalidated file (304) too", () => {
  const headers = { 'Cross-Origin-Embedder-Policy': 'require-corp', 'Cross-Origin-Opener-Policy': 'same-origin' }
  let appDir: string
  beforeAll(async () => {
    appDir = await mkdtemp(join(tmpdir(), 'sift-vite-304-'))
    await writeFile(
      join(appDir, 'index.html'),
      '<!doctype html><title>app</title><script type="module" src="/main.js"></script>',
    )
    await writeFile(join(appDir, 'main.js'), 'console.log("app")\n')
  })
  afterAll(async () => {
    await rm(appDir, { recursive: true, force: true })
  })

  async function revalidated(url: string, path: string): Promise<Response> {
    const first = await fetch(`${url}${path}`)
    expect(first.status, path).toBe(200)
    await first.arrayBuffer()
    const tag = first.headers.get('etag')
    expect(tag, `${path} has a validator`).toBeTruthy()
    return fetch(`${url}${path}`, { headers: { 'If-None-Match': tag! } })
  }

  /** Each path answers a revalidation with a 304 that carries every header the app's server config sets. */
  async function expectHeadersOn304(url: string, paths: string[]): Promise<void> {
    for (const path of paths) {
      const response = await revalidated(url, path)
      expect(response.status, path).toBe(304)
      for (const [name, value] of Object.entries(headers))
        expect(response.headers.get(name), `${path} ${name}`).toBe(value)
    }
  }

  it('under vite dev', async () => {
    const server = await createServer({
      root: appDir,
      configFile: false,
      logLevel: 'silent',
      plugins: [siftMemory()],
      server: { port: 0, host: '127.0.0.1', headers },
    })
    await server.listen()
    try {
      const url = `http://127.0.0.1:${(server.httpServer!.address() as AddressInfo).port}`
      await expectHeadersOn304(url, ['/', '/main.js'])
    } finally {
      await server.close()
    }
  })

  it('under vite preview', async () => {
    const outDir = join(appDir, 'dist')
    await build({ root: appDir, configFile: false, logLevel: 'silent', build: { outDir } })
    const server = await preview({
      root: appDir,
      configFile: false,
      logLevel: 'silent',
      plugins: [siftMemory()],
      build: { outDir },
      preview: { port: 0, host: '127.0.0.1', headers },
    })
    try {
      const url = `http://127.0.0.1:${(server.httpServer.address() as AddressInfo).port}`
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(await (await fetch(url)).text())?.[1]
      expect(script).toBeTruthy()
      await expectHeadersOn304(url, ['/', script!])
    } finally {
      await server.close()
    }
  })
})
