// `sift-memory/vite` under a real Vite dev server: the files it serves, and how (the caching and types the browser
// needs to keep the model and ONNX Runtime's compiled WebAssembly between page loads). Emitting under `vite build`
// is covered by e2e/package-install.test.ts, with the packed package.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { siftMemory } from '../../src/vite'
import { ONNX_RUNTIME_FILE_NAMES } from '../../worker/embed/onnx-runtime-files'

describe('siftMemory() under vite dev', () => {
  let appDir: string
  let server: ViteDevServer
  let url: string
  beforeAll(async () => {
    appDir = await mkdtemp(join(tmpdir(), 'sift-vite-'))
    await writeFile(join(appDir, 'index.html'), '<!doctype html><title>app</title>')
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
})
