import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openEmbeddingCacheFile } from '../../worker/hosts/node/embedding-cache-file'

const FINGERPRINT = 'test-model'
const HEADER = 12
const DIM = 4
const RECORD = 32 + DIM * 4

const vector = (seed: number) => Float32Array.from({ length: DIM }, (_, i) => seed + i / 10)
const keyOf = (text: string) => createHash('sha256').update(`${FINGERPRINT}\u0000${text}`).digest()

const root = mkdtempSync(join(tmpdir(), 'sift-cache-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const freshDirectory = () => mkdtempSync(join(root, 'dir-'))

function cacheFile(directory: string): Buffer {
  const [name] = readdirSync(directory)
  return readFileSync(join(directory, name))
}

describe('the Node embedding cache file', () => {
  it('rewrites itself without forgotten texts: neither their keys nor their vectors stay on disk', async () => {
    const directory = freshDirectory()
    const cache = await openEmbeddingCacheFile(directory, FINGERPRINT)
    cache.set('I am allergic to peanuts.', vector(7))
    cache.set('The boiler knocks.', vector(3))
    cache.set('My dog is Biscuit.', vector(5))
    await cache.flush()
    const before = cacheFile(directory)
    expect(before.length).toBe(HEADER + 3 * RECORD)
    expect(before.includes(keyOf('I am allergic to peanuts.'))).toBe(true)

    await cache.forget(['I am allergic to peanuts.', 'never cached'])
    const after = cacheFile(directory)
    expect(after.length).toBe(HEADER + 2 * RECORD)
    expect(after.includes(keyOf('I am allergic to peanuts.'))).toBe(false)
    expect(after.includes(Buffer.from(vector(7).buffer))).toBe(false)
    expect(cache.get('I am allergic to peanuts.')).toBeUndefined()
    expect(readdirSync(directory)).toHaveLength(1)

    const reopened = await openEmbeddingCacheFile(directory, FINGERPRINT)
    expect(reopened.get('I am allergic to peanuts.')).toBeUndefined()
    expect(Array.from(reopened.get('The boiler knocks.')!)).toEqual(Array.from(vector(3)))
    expect(Array.from(reopened.get('My dog is Biscuit.')!)).toEqual(Array.from(vector(5)))
  })

  it('forgets a text whose flush is still writing: the forget waits for it, then rewrites the file without the text', async () => {
    const directory = freshDirectory()
    const cache = await openEmbeddingCacheFile(directory, FINGERPRINT)
    cache.set('kept', vector(1))
    cache.set('secret', vector(2))
    const flushing = cache.flush()
    await Promise.all([flushing, cache.forget(['secret'])])
    expect(cacheFile(directory).length).toBe(HEADER + RECORD)
    expect(cacheFile(directory).includes(keyOf('secret'))).toBe(false)
    expect(cacheFile(directory).includes(keyOf('kept'))).toBe(true)
  })

  it('forgets a text set but not yet flushed without it ever reaching the file', async () => {
    const directory = freshDirectory()
    const cache = await openEmbeddingCacheFile(directory, FINGERPRINT)
    cache.set('kept', vector(1))
    await cache.flush()
    cache.set('secret', vector(2))
    await cache.forget(['secret'])
    await cache.flush()
    expect(cacheFile(directory).length).toBe(HEADER + RECORD)
    expect(cacheFile(directory).includes(keyOf('secret'))).toBe(false)
  })

  it('deletes its file on clear, and starts a whole new one (header included) on the next flush', async () => {
    const directory = freshDirectory()
    const cache = await openEmbeddingCacheFile(directory, FINGERPRINT)
    const other = await openEmbeddingCacheFile(directory, FINGERPRINT)
    cache.set('old', vector(1))
    await cache.flush()
    await cache.clear()
    expect(readdirSync(directory)).toEqual([])
    expect(cache.get('old')).toBeUndefined()
    // Another memory sharing the folder appends after the clear: the file it creates must still be a cache.
    other.set('new', vector(2))
    await other.flush()
    const reopened = await openEmbeddingCacheFile(directory, FINGERPRINT)
    expect(reopened.get('old')).toBeUndefined()
    expect(Array.from(reopened.get('new')!)).toEqual(Array.from(vector(2)))
  })

  it('keeps ignoring a torn last record, and drops it when rewriting', async () => {
    const directory = freshDirectory()
    const cache = await openEmbeddingCacheFile(directory, FINGERPRINT)
    cache.set('a', vector(1))
    cache.set('b', vector(2))
    await cache.flush()
    const [name] = readdirSync(directory)
    const path = join(directory, name)
    writeFileSync(path, Buffer.concat([readFileSync(path), Buffer.alloc(RECORD - 1, 9)]))
    const reopened = await openEmbeddingCacheFile(directory, FINGERPRINT)
    expect(reopened.get('b')).toBeDefined()
    await reopened.forget(['a'])
    expect(statSync(path).size).toBe(HEADER + RECORD)
  })
})
