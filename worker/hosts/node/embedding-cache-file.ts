import { createHash } from 'node:crypto'
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SiftError } from '../../../src/errors'
import type { EmbeddingCache } from '../../embed/embedding-cache'

const MAGIC = 'SIFTEMB1'
const HEADER_BYTES = MAGIC.length + 4
const KEY_BYTES = 32

/**
 * Node-only embedding cache for benchmarks and the CLI: one binary file per model fingerprint,
 * `MAGIC, dim (u32 LE)` then records of `sha256(fingerprint, text) (32 bytes), dim × f32 LE`, appended as texts are
 * embedded. A re-run embeds only texts it has never seen. A torn last record (crash mid-append) is ignored.
 * `forget` rewrites the file without the forgotten texts' records (a key alone confirms a guessed text), and `clear`
 * deletes it.
 */
export async function openEmbeddingCacheFile(directory: string, fingerprint: string): Promise<EmbeddingCache> {
  const path = join(directory, `${sha256(fingerprint).toString('hex').slice(0, 32)}.bin`)
  const vectors = new Map<string, Float32Array>()
  let dim: number | undefined
  const bytes = await readCacheFile(path)
  if (bytes) {
    dim = bytes.readUInt32LE(MAGIC.length)
    for (const { key, at } of records(bytes)) {
      // One copy per record (the file buffer's offsets need not be 4-byte aligned); `flush` writes native float32 too.
      vectors.set(
        key,
        new Float32Array(
          bytes.buffer.slice(bytes.byteOffset + at + KEY_BYTES, bytes.byteOffset + at + KEY_BYTES + dim * 4),
        ),
      )
    }
  }
  let unsaved = new Map<string, Float32Array>()
  const keyOf = (text: string) => sha256(`${fingerprint}\u0000${text}`).toString('hex')
  // The file's writes one at a time, in call order: a forget that came while a flush was writing would otherwise
  // rewrite the file before that flush appended the forgotten text's record to it.
  let io: Promise<void> = Promise.resolve()
  const inTurn = (work: () => Promise<void>): Promise<void> => {
    const run = io.then(work)
    io = run.catch(() => undefined)
    return run
  }
  return {
    get: (text) => vectors.get(keyOf(text)),
    set(text, vector) {
      const key = keyOf(text)
      if (vectors.has(key) || (dim !== undefined && vector.length !== dim)) return
      dim = vector.length
      vectors.set(key, vector)
      unsaved.set(key, vector)
    },
    flush: () =>
      inTurn(async () => {
        if (unsaved.size === 0 || dim === undefined) return
        const pending = unsaved
        unsaved = new Map()
        const chunks: Buffer[] = []
        for (const [key, vector] of pending)
          chunks.push(Buffer.from(key, 'hex'), Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength))
        await mkdir(directory, { recursive: true })
        const file = await open(path, 'a')
        try {
          // Asked of the file rather than remembered: `clear` (of this or another memory sharing the folder) may have deleted it.
          if ((await file.stat()).size === 0) chunks.unshift(header(dim))
          await file.write(Buffer.concat(chunks))
        } finally {
          await file.close()
        }
      }),
    forget(texts) {
      const keys = new Set(texts.map(keyOf))
      const known = [...keys].filter((key) => vectors.delete(key))
      return inTurn(async () => {
        // A key still unsaved never reached the file; one a flush took has, by now.
        let onDisk = false
        for (const key of known) if (!unsaved.delete(key)) onDisk = true
        if (onDisk) await rewriteWithout(path, keys)
      })
    },
    clear() {
      vectors.clear()
      unsaved.clear()
      dim = undefined
      return inTurn(() => rm(path, { force: true }))
    },
  }
}

/** The cache file's bytes, checked to be one; undefined when there is none yet. */
async function readCacheFile(path: string): Promise<Buffer | undefined> {
  let bytes: Buffer
  try {
    bytes = await readFile(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  if (bytes.length === 0) return undefined
  if (bytes.subarray(0, MAGIC.length).toString('latin1') !== MAGIC)
    throw new SiftError('STORAGE_FAILED', `${path} is not a Sift embedding cache; delete it.`)
  return bytes
}

/** Each whole record of a cache file: its key (hex) and where the record starts. */
function* records(bytes: Buffer): Generator<{ key: string; at: number }> {
  const recordBytes = KEY_BYTES + bytes.readUInt32LE(MAGIC.length) * 4
  for (let at = HEADER_BYTES; at + recordBytes <= bytes.length; at += recordBytes)
    yield { key: bytes.subarray(at, at + KEY_BYTES).toString('hex'), at }
}

/**
 * Writes the cache file again without the records of `keys`: into a new file renamed over the old one, so a crash
 * leaves one or the other whole, never a file cut short.
 */
async function rewriteWithout(path: string, keys: ReadonlySet<string>): Promise<void> {
  const bytes = await readCacheFile(path)
  if (!bytes) return
  const recordBytes = KEY_BYTES + bytes.readUInt32LE(MAGIC.length) * 4
  const kept = [bytes.subarray(0, HEADER_BYTES)]
  for (const { key, at } of records(bytes)) if (!keys.has(key)) kept.push(bytes.subarray(at, at + recordBytes))
  const temporary = `${path}.${process.pid}.tmp`
  try {
    await writeFile(temporary, Buffer.concat(kept))
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true })
    throw new SiftError(
      'STORAGE_FAILED',
      `The messages were forgotten, but the embedding cache ${path} still holds their vectors and could not be rewritten (${(error as Error).message}); delete that file.`,
      { cause: error },
    )
  }
}

function header(dim: number): Buffer {
  const bytes = Buffer.alloc(HEADER_BYTES)
  bytes.write(MAGIC, 0, 'latin1')
  bytes.writeUInt32LE(dim, MAGIC.length)
  return bytes
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest()
}
