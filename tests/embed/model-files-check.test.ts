// Which files loading a model fetches, and the HEAD check that tells an app, before any download, that one of them
// is not served: against real HTTP servers (the demo's static server over a folder, and servers answering as a dev
// server's HTML fallback, a failing server and one without HEAD do).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SiftError } from '../../src/errors'
import { createMemory } from '../../src/node'
import { resolveEmbedding } from '../../worker/embed/embedding-presets'
import { modelFiles } from '../../worker/embed/model-files'
import { loadFailureDetail, modelLoadFailure } from '../../worker/embed/model-load-failure'
import type { ModelOptions } from '../../worker/embed/model-runner'
import { assertFilesServed } from '../../worker/embed/served-files'
import { startStaticServer, type StaticServer } from '../../scripts/static-server'

function optionsFor(overrides: Partial<ModelOptions> = {}): ModelOptions {
  return {
    model: 'use-lite',
    embedding: resolveEmbedding('use-lite'),
    localModelPath: '/models/',
    allowRemoteModels: false,
    wasmPaths: '/ort/',
    backends: ['wasm'],
    ...overrides,
  }
}

const site = 'http://app.test/assets/model-worker.js'

describe('modelFiles', () => {
  it("lists ONNX Runtime's files first, then the model's, resolved against the worker's URL", () => {
    expect(modelFiles(optionsFor(), site)).toEqual([
      { url: 'http://app.test/ort/ort-wasm-simd-threaded.mjs', option: 'wasmPaths' },
      { url: 'http://app.test/ort/ort-wasm-simd-threaded.wasm', option: 'wasmPaths' },
      { url: 'http://app.test/models/use-lite/config.json', option: 'localModelPath' },
      { url: 'http://app.test/models/use-lite/tokenizer.json', option: 'localModelPath' },
      { url: 'http://app.test/models/use-lite/tokenizer_config.json', option: 'localModelPath' },
      { url: 'http://app.test/models/use-lite/onnx/model_quantized.onnx', option: 'localModelPath' },
    ])
  })

  it('names the weights of the dtype, the WebGPU build when WebGPU may be tried, and a hub id as a folder path', () => {
    const urls = modelFiles(
      optionsFor({
        model: 'Xenova/bge-small',
        embedding: resolveEmbedding('Xenova/bge-small', { dtype: 'q8' }),
        localModelPath: 'https://cdn.test/m',
        backends: ['webgpu', 'wasm'],
      }),
      site,
    ).map((f) => f.url)
    expect(urls).toContain('http://app.test/ort/ort-wasm-simd-threaded.asyncify.wasm')
    expect(urls).toContain('https://cdn.test/m/Xenova/bge-small/onnx/model_quantized.onnx')
  })

  it("leaves the model's files out when it may come from the Hub, and ONNX Runtime's out where there is no wasmPaths (Node)", () => {
    expect(modelFiles(optionsFor({ allowRemoteModels: true }), site).map((f) => f.option)).toEqual([
      'wasmPaths',
      'wasmPaths',
    ])
    expect(modelFiles(optionsFor({ wasmPaths: undefined }), site).every((f) => f.option === 'localModelPath')).toBe(
      true,
    )
  })
})

/** A server that answers every request with `status` and an HTML page, as a dev server's fallback or an error page does. */
async function answeringServer(status: number, type = 'text/html'): Promise<{ url: string; server: Server }> {
  const server = createServer((_, response) => {
    response.writeHead(status, { 'Content-Type': type })
    response.end('<!doctype html><title>app</title>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

/** What `JSON.parse` throws for a dev server's fallback page, as transformers.js passes it on for a model file. */
function htmlPageAsJson(): unknown {
  try {
    return JSON.parse('<!doctype html><html><body>App</body></html>')
  } catch (error) {
    return error
  }
}

async function rejectionOf(promise: Promise<unknown>): Promise<SiftError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SiftError)
  return error as SiftError
}

describe('assertFilesServed', () => {
  let root: string
  let staticServer: StaticServer
  const servers: Server[] = []
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'sift-served-'))
    for (const path of [
      'ort/ort-wasm-simd-threaded.mjs',
      'ort/ort-wasm-simd-threaded.wasm',
      'models/use-lite/config.json',
      'models/use-lite/tokenizer.json',
      'models/use-lite/tokenizer_config.json',
      'models/use-lite/onnx/model_quantized.onnx',
    ]) {
      mkdirSync(dirname(join(root, path)), { recursive: true })
      writeFileSync(join(root, path), '{}')
    }
    staticServer = await startStaticServer({ root, port: 0 })
  })
  afterAll(async () => {
    await staticServer.close()
    for (const server of servers) server.close()
    rmSync(root, { recursive: true, force: true })
  })
  const filesAt = (base: string, overrides: Partial<ModelOptions> = {}) =>
    modelFiles(optionsFor(overrides), `${base}/assets/model-worker.js`)

  it('passes when every file is served', async () => {
    await expect(assertFilesServed(filesAt(staticServer.url))).resolves.toBeUndefined()
  })

  it("names wasmPaths, its default and the URL when ONNX Runtime's file is missing, and nothing else", async () => {
    const error = await rejectionOf(assertFilesServed(filesAt(staticServer.url, { wasmPaths: '/no-ort/' })))
    expect(error.code).toBe('MODEL_UNAVAILABLE')
    expect(error.message).toContain(`${staticServer.url}/no-ort/ort-wasm-simd-threaded.wasm (HTTP 404)`)
    expect(error.message).toContain("`wasmPaths` option (default '/ort/')")
    expect(error.message).not.toContain('localModelPath')
    expect(error.message).not.toContain('convert-model')
  })

  it("names localModelPath and the URL when the model's folder is missing", async () => {
    const error = await rejectionOf(assertFilesServed(filesAt(staticServer.url, { model: 'no-such-model' })))
    expect(error.message).toContain(`${staticServer.url}/models/no-such-model/config.json (HTTP 404)`)
    expect(error.message).toContain("`localModelPath` option (default '/models/')")
    expect(error.message).not.toContain('wasmPaths')
  })

  it("tells an HTML page served in a file's place (a dev server's fallback) from the file", async () => {
    const fallback = await answeringServer(200)
    servers.push(fallback.server)
    const error = await rejectionOf(assertFilesServed(filesAt(fallback.url)))
    expect(error.message).toContain(`${fallback.url}/models/use-lite/config.json (an HTML page instead of the file`)
    expect(error.message).toContain(`${fallback.url}/ort/ort-wasm-simd-threaded.mjs (an HTML page`)
  })

  it('passes when the answer says nothing about the file: a server error, HEAD not allowed, no server at all', async () => {
    for (const status of [500, 503, 405]) {
      const server = await answeringServer(status, 'text/plain')
      servers.push(server.server)
      await expect(assertFilesServed(filesAt(server.url))).resolves.toBeUndefined()
    }
    const gone = await answeringServer(200)
    await new Promise((resolve) => gone.server.close(resolve))
    await expect(assertFilesServed(filesAt(gone.url))).resolves.toBeUndefined()
  })
})

describe('modelLoadFailure', () => {
  const options = {
    model: 'use-lite',
    localModelPath: '/models/',
    wasmPaths: 'http://app.test/ort/',
    allowRemoteModels: false,
  }

  it('points at wasmPaths when ONNX Runtime failed to load, and never at a script apps do not have', () => {
    const error = modelLoadFailure(options, [
      'wasm: no available backend found. ERR: [wasm] TypeError: Failed to fetch dynamically imported module: http://app.test/ort/ort-wasm-simd-threaded.mjs',
    ])
    expect(error).toMatchObject({
      code: 'MODEL_UNAVAILABLE',
      message: expect.stringContaining('set the wasmPaths option'),
    })
    expect(error.message).not.toContain('convert-model')
  })

  it("says a model file came back as an HTML page, naming the folder, for transformers.js's Unexpected token '<'", () => {
    const error = modelLoadFailure(options, [`wasm: ${loadFailureDetail(htmlPageAsJson())}`])
    expect(error.message).not.toContain('doctype')
    expect(error.message).toContain('came back as an HTML page')
    expect(error.message).toContain('no model folder at /models/use-lite/')
    expect(error.message).toContain('localModelPath')
  })

  it("names a model file that is not JSON without quoting it (JSON.parse's message does)", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'sift-model-not-json-'))
    try {
      mkdirSync(join(folder, 'use-lite'))
      for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json'])
        writeFileSync(join(folder, 'use-lite', file), 'root:x:0:0:SECRET-BYTES:/root:/bin/bash\n')
      const memory = await createMemory({ name: 'model-not-json', localModelPath: folder, requireModelFiles: false })
      const error = await rejectionOf(memory.ready())
      await memory.close()
      expect(error).toMatchObject({ code: 'MODEL_UNAVAILABLE', message: expect.stringContaining('not valid JSON') })
      for (const secret of ['root', 'SECRET', 'x:0:0']) expect(error.message).not.toContain(secret)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })

  it('otherwise names the folder and localModelPath', () => {
    const error = modelLoadFailure(options, ['cpu: Could not locate file: "/models/use-lite/config.json".'])
    expect(error.message).toContain('at /models/use-lite/, set the localModelPath option')
    expect(error.message).toContain('allowRemoteModels')
  })
})

describe('requireModelFiles', () => {
  it('refuses a value that is not a boolean with INVALID_INPUT naming it, before anything is opened', async () => {
    const error = await rejectionOf(
      createMemory({ name: 'require-invalid', requireModelFiles: 'yes' as unknown as boolean }),
    )
    expect(error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('requireModelFiles') })
  })
})
