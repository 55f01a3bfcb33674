// A small static file server for the built demo (`npm run demo`, e2e). It sends the cross-origin isolation
// headers ONNX Runtime needs for SharedArrayBuffer (multi-threaded WASM) and a strict Content-Security-Policy; the
// files themselves (exact MIME types for .wasm/.mjs, validators) go as `sift-memory/vite` sends them in an app.
import { stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, normalize, sep } from 'node:path'
import { sendStaticFile } from '../src/send-static-file'

/**
 * The Content-Security-Policy the demo (and every browser test) runs under, the strictest Sift works with
 * (docs/privacy.md, "Privacy"): everything from the page's own origin, nothing inline, and nothing sent anywhere else.
 * `'wasm-unsafe-eval'` lets ONNX Runtime compile its WebAssembly; it allows no JavaScript `eval`. A dedicated
 * worker takes the policy of its own script's response, so every response carries it.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'"

const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
}

export interface StaticServerOptions {
  /** Folder served as the site root. */
  root: string
  /** 0 picks a free port. */
  port: number
  /** Default `'127.0.0.1'`: the demo is for this machine only. */
  host?: string
  /**
   * Called once for every request, when its body has been read and its answer sent: the origin's own record of what
   * reached it (the browser tests check it in engines whose driver reports no requests). Absent, requests go as
   * before, their bodies left unread.
   */
  onRequest?(entry: RequestLogEntry): void
  /**
   * Origins added to the policy's `connect-src`, as an app adds its LLM endpoint or its sync server
   * (`MemoryOptions.sync`); default none: nothing is sent anywhere but the page's own origin.
   */
  connectSources?: string[]
}

/** One request as the server saw it. */
export interface RequestLogEntry {
  method: string
  /** The request target as sent: path and query. */
  url: string
  /** Bytes of request body received (0 for none). */
  bodyBytes: number
  /** The status answered (404 for a path that is no file). */
  status: number
}

export interface StaticServer {
  /** e.g. `http://localhost:5173`. */
  url: string
  port: number
  close(): Promise<void>
}

/** Maps a URL path to a file under root; `undefined` for malformed paths and paths that try to leave it. */
function filePathFor(root: string, urlPath: string): string | undefined {
  let decoded: string
  try {
    decoded = decodeURIComponent(new URL(urlPath, 'http://localhost').pathname)
  } catch {
    return undefined
  }
  const path = normalize(join(root, decoded))
  if (path !== root && !path.startsWith(root.endsWith(sep) ? root : root + sep)) return undefined
  return decoded.endsWith('/') ? join(path, 'index.html') : path
}

/** Counts the request's body as it arrives and reports the request once the body has ended and the answer is sent. */
function logRequest(request: IncomingMessage, response: ServerResponse, onRequest: (entry: RequestLogEntry) => void) {
  let bodyBytes = 0
  request.on('data', (chunk: Buffer) => {
    bodyBytes += chunk.length
  })
  const bodyRead = new Promise((resolve) => request.once('close', resolve))
  const answered = new Promise((resolve) => response.once('close', resolve))
  void Promise.all([bodyRead, answered]).then(() =>
    onRequest({ method: request.method ?? '', url: request.url ?? '', bodyBytes, status: response.statusCode }),
  )
}

export async function startStaticServer(options: StaticServerOptions): Promise<StaticServer> {
  const root = normalize(options.root)
  const headers = { ...isolationHeaders }
  if (options.connectSources?.length)
    headers['Content-Security-Policy'] = `${CONTENT_SECURITY_POLICY} ${options.connectSources.join(' ')}`
  const server: Server = createServer(async (request, response) => {
    if (options.onRequest) logRequest(request, response, options.onRequest)
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value)
    const path = filePathFor(root, request.url ?? '/')
    const info = path ? await stat(path).catch(() => undefined) : undefined
    if (!path || !info?.isFile()) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' })
      response.end('Not found')
      return
    }
    sendStaticFile(path, info, request, response)
  })
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, host, resolve)
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://localhost:${port}`,
    port,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  }
}
