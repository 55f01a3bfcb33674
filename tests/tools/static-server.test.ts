import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStaticServer, type StaticServer } from '../../scripts/static-server'

describe('startStaticServer', () => {
  let root: string
  let server: StaticServer
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sift-static-'))
    await writeFile(join(root, 'ort.wasm'), new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))
    server = await startStaticServer({ root, port: 0 })
  })
  afterAll(async () => {
    await server.close()
    await rm(root, { recursive: true, force: true })
  })

  it('sends a validator and answers a matching revalidation with 304, so the browser keeps its copy (and its compiled WebAssembly)', async () => {
    const first = await fetch(`${server.url}/ort.wasm`)
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('application/wasm')
    expect(first.headers.get('cache-control')).toBe('no-cache')
    expect(first.headers.get('cross-origin-embedder-policy')).toBe('require-corp')
    const etag = first.headers.get('etag')
    expect(etag).toMatch(/^".+"$/)
    expect(new Uint8Array(await first.arrayBuffer())).toEqual(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))

    const again = await fetch(`${server.url}/ort.wasm`, { headers: { 'If-None-Match': etag! } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')

    await writeFile(join(root, 'ort.wasm'), new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1]))
    await utimes(join(root, 'ort.wasm'), new Date(), new Date(Date.now() + 5000))
    const changed = await fetch(`${server.url}/ort.wasm`, { headers: { 'If-None-Match': etag! } })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(etag)
    expect((await changed.arrayBuffer()).byteLength).toBe(9)
  })

  it('serves nothing outside its root', async () => {
    expect((await fetch(`${server.url}/..%2f..%2fetc%2fpasswd`)).status).toBe(404)
    expect((await fetch(`${server.url}/missing.js`)).status).toBe(404)
  })
})
