import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DEFAULT_EMBEDDING_CACHE_DIR } from '../../tools/embedding-cache-dir'
import { seededRandom } from '../../worker/util/seeded-random'

/** Real model vectors from one embedding cache file, split into a corpus and held-out queries. */
export interface CachedModelVectors {
  file: string
  dim: number
  rows: number
  corpus: Float32Array
  queries: Float32Array[]
}

/**
 * Every vector in the Node embedding cache (e.g. LoCoMo sentences and questions after bench:recall), per cache
 * file: a random sample of `queryCount` (at most half) held out as queries and removed from the corpus.
 * The cache file: 'SIFTEMB1', dim (u32 LE), then records of a 32-byte key and dim float32s.
 */
export function* cachedModelVectors(queryCount: number): Generator<CachedModelVectors> {
  for (const file of readdirSync(DEFAULT_EMBEDDING_CACHE_DIR).filter((f) => f.endsWith('.bin'))) {
    const bytes = readFileSync(join(DEFAULT_EMBEDDING_CACHE_DIR, file))
    const dim = bytes.readUInt32LE(8)
    const record = 32 + dim * 4
    const count = Math.floor((bytes.length - 12) / record)
    const all = new Float32Array(count * dim)
    for (let r = 0; r < count; r++)
      for (let d = 0; d < dim; d++) all[r * dim + d] = bytes.readFloatLE(12 + r * record + 32 + d * 4)
    const random = seededRandom(5)
    const held = new Set<number>()
    while (held.size < Math.min(queryCount, count / 2)) held.add(Math.floor(random() * count))
    const corpus = new Float32Array((count - held.size) * dim)
    let rows = 0
    for (let r = 0; r < count; r++) if (!held.has(r)) corpus.set(all.subarray(r * dim, (r + 1) * dim), rows++ * dim)
    yield { file, dim, rows, corpus, queries: [...held].map((r) => all.slice(r * dim, (r + 1) * dim)) }
  }
}
