import { createHash } from 'node:crypto'
import { appendFile, mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SiftError } from '../../../src/errors'
import type { EmbeddingCache } from '../../embed/embedding-cache'

const MAGIC = 'SIFTEMB1'
const HEADER_BYTES = MAGIC.length + 4
const KEY_BYTES = 32

/**
 * Node-only embedding cache for benchmarks and the CLI: one append-only binary file per model fingerprint,
 * `MAGIC, dim (u32 LE)` then records of `sha256(fingerprint, text) (32 bytes), dim × f32 LE`.
 * A re-run embeds only texts it has never seen. A torn last record (crash mid-append) is ignored.
 */
export async function openEmbeddingCacheFile(directory: string, fingerprint: string): Promise<EmbeddingCache> {
  const path = join(directory, `${sha256(fingerprint).toString('hex').slice(0, 32)}.bin`)
  const vectors = new Map<string, Float32Array>()
  let dim: number | undefined
  let fileExists = false
  try {
    const bytes = await readFile(path)
    fileExists = true
    if (bytes.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) throw new SiftError('STORAGE_FAILED', `${path} is not a Sift embedding cache; delete it.`)
    const fileDim = bytes.readUInt32LE(MAGIC.length)
    dim = fileDim
    const recordBytes = KEY_BYTES + fileDim * 4
    for (let at = HEADER_BYTES; at + recordBytes <= bytes.length; at += recordBytes) {
      // One copy per record (the file buffer's offsets need not be 4-byte aligned); `flush` writes native float32 too.
      const vector = new Float32Array(bytes.buffer.slice(bytes.byteOffset + at + KEY_BYTES, bytes.byteOffset + at + recordBytes))
      vectors.set(bytes.subarray(at, at + KEY_BYTES).toString('hex'), vector)
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  let unsaved: { key: string; vector: Float32Array }[] = []
  const keyOf = (text: string) => sha256(`${fingerprint}\u0000${text}`).toString('hex')
  return {
    get: (text) => vectors.get(keyOf(text)),
    set(text, vector) {
      const key = keyOf(text)
      if (vectors.has(key) || (dim !== undefined && vector.length !== dim)) return
      dim = vector.length
      vectors.set(key, vector)
      unsaved.push({ key, vector })
    },
    async flush() {
      if (unsaved.length === 0 || dim === undefined) return
      const records = unsaved
      unsaved = []
      const chunks: Buffer[] = []
      if (!fileExists) {
        const header = Buffer.alloc(HEADER_BYTES)
        header.write(MAGIC, 0, 'latin1')
        header.writeUInt32LE(dim, MAGIC.length)
        chunks.push(header)
      }
      for (const { key, vector } of records) {
        chunks.push(Buffer.from(key, 'hex'), Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength))
      }
      await mkdir(directory, { recursive: true })
      await appendFile(path, Buffer.concat(chunks))
      fileExists = true
    },
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest()
}
