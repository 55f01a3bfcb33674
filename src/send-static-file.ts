// One way to send a static file, for `sift-memory/vite` (the app's dev server) and scripts/static-server.ts (the
// demo and the browser tests): both send the model and ONNX Runtime's files, so both need the same caching and types.
// Node-only: imported by the Vite entry, never by the browser entry.
import { createReadStream, type Stats } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname } from 'node:path'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  // Streaming compilation, and Chromium's cache of the compiled module, need the exact type.
  '.wasm': 'application/wasm',
  '.onnx': 'application/octet-stream',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
}

/**
 * Answers a GET or HEAD for `file`, a file that exists (`info` is its `stat`), with a validator (ETag,
 * Last-Modified) as a production server sends: with `no-cache` the browser still asks every time, but a 304 keeps
 * its cached copy of the model and ONNX Runtime files, and Chromium's cache of the compiled WebAssembly, which
 * otherwise is compiled afresh at each page load. Headers the caller set on `response` before (cross-origin
 * isolation, a Content-Security-Policy) go with the answer, a 304 included.
 */
export function sendStaticFile(file: string, info: Stats, request: IncomingMessage, response: ServerResponse): void {
  const etag = `"${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`
  response.setHeader('Cache-Control', 'no-cache')
  response.setHeader('ETag', etag)
  response.setHeader('Last-Modified', info.mtime.toUTCString())
  if (request.headers['if-none-match'] === etag) {
    response.writeHead(304)
    response.end()
    return
  }
  response.writeHead(200, {
    'Content-Type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': info.size,
  })
  if (request.method === 'HEAD') response.end()
  else createReadStream(file).pipe(response)
}
