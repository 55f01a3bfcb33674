/**
 * `sift-memory/vite`: the one step an app needs for Sift's static files. Node-only (it runs in Vite's process),
 * kept apart from the browser entry.
 *
 * @module sift-memory/vite
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { OutgoingHttpHeaders } from 'node:http'
import type { Connect, Plugin } from 'vite'
import { ONNX_RUNTIME_FILE_NAMES } from '../worker/embed/onnx-runtime-files'
import { sendStaticFile } from './send-static-file'

/**
 * Serves (`vite dev`) and emits (`vite build`) the files the browser entry fetches at run time from the app's own
 * origin, at the paths `createMemory()` looks for by default:
 * - `/models/…`: the embedding model shipped in this package (`localModelPath`, default `'/models/'`);
 * - `/ort/…`: ONNX Runtime's loader and WebAssembly, from the `onnxruntime-web` this package depends on (`wasmPaths`,
 *   default `'/ort/'`): the plain build that WASM-only devices load, and the WebGPU one.
 *
 * Files, not modules: the worker fetches them by URL, so they cannot go through the app's bundle. With a `base`
 * other than `/` they are served and emitted under it; pass `localModelPath` and `wasmPaths` to `createMemory` then.
 * Cross-origin isolation (COOP/COEP), which lets ONNX Runtime use threads, stays the app's decision: set it in
 * `server.headers` and `preview.headers`; these files are sent with the dev server's headers.
 */
export function siftMemory(): Plugin {
  let files: Promise<Map<string, string>> | undefined
  // A listing that failed is tried again on the next request rather than kept.
  const servedFiles = () =>
    (files ??= listServedFiles().catch((error: unknown) => {
      files = undefined
      throw error
    }))
  return {
    name: 'sift-memory',
    // Vite sends `server.headers` / `preview.headers` with a 200 but not with a 304 (a file revalidated on a reload),
    // and WebKit starts no worker whose 304 lacks Cross-Origin-Embedder-Policy in an isolated page: the memory never
    // opened after a reload. Set first on every response, the app's headers go with the 304s too.
    configurePreviewServer(server) {
      server.middlewares.use(sendHeaders(server.config.preview.headers))
    },
    configureServer(server) {
      server.middlewares.use(sendHeaders(server.config.server.headers))
      server.middlewares.use((request, response, next) => {
        void servedFiles()
          .then(async (served) => {
            const file = served.get(servedPath(request.url ?? '/', server.config.base))
            if (!file) return next()
            const info = await stat(file)
            for (const [name, value] of Object.entries(server.config.server.headers ?? {}))
              if (value !== undefined) response.setHeader(name, value)
            sendStaticFile(file, info, request, response)
          })
          // Only Sift's own paths fail with it: the app's pages are served whatever happened to the listing.
          .catch((error: unknown) =>
            /^\/(?:models|ort)\//.test(servedPath(request.url ?? '/', server.config.base)) ? next(error) : next(),
          )
      })
    },
    async generateBundle() {
      if (this.environment.config.consumer !== 'client') return
      for (const [path, file] of await servedFiles()) {
        this.emitFile({ type: 'asset', fileName: path.slice(1), source: await readFile(file) })
      }
    },
  }
}

/** Sets `headers` on every response before Vite's own handlers answer it. */
function sendHeaders(headers: OutgoingHttpHeaders | undefined): Connect.NextHandleFunction {
  return (_request, response, next) => {
    for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) response.setHeader(name, value)
    next()
  }
}

/** URL path (`/models/use-lite/config.json`) → file on disk, for every file this plugin serves. */
async function listServedFiles(): Promise<Map<string, string>> {
  // src/ (tsx, in this repository) and dist/ (the built package) both sit one level below the package root.
  const packageRoot = new URL(/* @vite-ignore */ '../', import.meta.url)
  const served = new Map<string, string>()
  const modelsDir = fileURLToPath(new URL('public/models/', packageRoot))
  for (const path of await readdir(modelsDir, { recursive: true })) {
    const file = join(modelsDir, path)
    if ((await stat(file)).isFile()) served.set(`/models/${relative(modelsDir, file).split(sep).join('/')}`, file)
  }
  // Resolved from this package, so the files are those of the onnxruntime-web version its bundled JavaScript expects.
  const require = createRequire(new URL('package.json', packageRoot))
  for (const name of ONNX_RUNTIME_FILE_NAMES) served.set(`/ort/${name}`, require.resolve(`onnxruntime-web/${name}`))
  return served
}

/** The request's path below the app's `base`, decoded; `''` for a malformed one. */
function servedPath(url: string, base: string): string {
  let path: string
  try {
    path = decodeURIComponent(new URL(url, 'http://localhost').pathname)
  } catch {
    return ''
  }
  return base !== '/' && path.startsWith(base) ? `/${path.slice(base.length)}` : path
}
