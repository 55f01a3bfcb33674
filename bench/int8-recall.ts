// Recall@k of Sift's int8 vector scan against the exact float32 top-k, on synthetic vectors and on real model
// vectors (every vector in the Node embedding cache, e.g. LoCoMo sentences and questions after bench:recall): with
// the residual layer re-scoring the best rows (blocks of format 2) and with int8 codes alone (format-1 blocks).
//   npx tsx bench/int8-recall.ts [--size 100000] [--queries 100] [--k 50]
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { DEFAULT_EMBEDDING_CACHE_DIR } from '../scripts/embedding-cache-dir'
import { quantizeRows } from '../worker/quantize-vector'
import { VectorIndex } from '../worker/vector-index'
import { exactTopK, recallOf } from './exact-top-k'
import { mean } from './latency-summary'
import { seededRandom } from './seeded-random'
import { generateHistory, generateQueries } from './synthetic-history'
import { SyntheticVectors } from './synthetic-vectors'

const { values } = parseArgs({ options: { size: { type: 'string', default: '100000' }, queries: { type: 'string', default: '100' }, k: { type: 'string', default: '50' } } })
const k = Number(values.k)

function measure(label: string, corpus: Float32Array, rows: number, dim: number, queries: Float32Array[]): void {
  const sids = Array.from({ length: rows }, (_, row) => row)
  const withResiduals = new VectorIndex(dim)
  withResiduals.add(sids, corpus, () => 'c')
  const codesOnly = new VectorIndex(dim)
  const codes = new Int8Array(rows * dim)
  const scales = new Float32Array(rows)
  quantizeRows(corpus, rows, dim, codes, dim, scales)
  codesOnly.addBlocks([{ blockId: 1, model: 'm', dim, firstSid: 0, lastSid: rows - 1, sids: Float64Array.from(sids), codes, scales }], () => 'c')
  const exact = queries.map((query) => exactTopK(corpus, rows, dim, query, k))
  for (const [layers, index] of [['int8 + residual', withResiduals], ['int8 only', codesOnly]] as const) {
    let worstError = 0
    const started = performance.now()
    const recalls = queries.map((query, q) => {
      const hits = index.search(query, k)
      for (const hit of hits) {
        const vector = corpus.subarray(hit.sid * dim, (hit.sid + 1) * dim)
        worstError = Math.max(worstError, Math.abs(hit.score - vector.reduce((sum, v, d) => sum + v * query[d], 0)))
      }
      return recallOf(hits.map((h) => h.sid), exact[q])
    })
    const ms = (performance.now() - started) / queries.length
    console.log(
      `${label}: ${rows} vectors × ${dim}, ${queries.length} queries, ${layers}: recall@${k} vs float32 mean ${mean(recalls).toFixed(4)}, min ${Math.min(...recalls).toFixed(2)}; ` +
        `largest top-${k} score error ${worstError.toExponential(1)}; ${ms.toFixed(1)} ms/query (scan + top-${k})`,
    )
  }
}

const size = Number(values.size)
const generator = new SyntheticVectors()
const history = generateHistory(size)
const synthetic = new Float32Array(history.sentences.length * generator.dim)
history.sentences.forEach((s) => generator.sentence(s.index, s.topic, s.subtopic, synthetic.subarray(s.index * generator.dim, (s.index + 1) * generator.dim)))
const syntheticQueries = generateQueries(Number(values.queries), history, 1000).map((q) => generator.query(q.index, q.topic, q.subtopic))
measure('synthetic', synthetic, history.sentences.length, generator.dim, syntheticQueries)

// The cache file: 'SIFTEMB1', dim (u32 LE), then records of a 32-byte key and dim float32s.
for (const file of readdirSync(DEFAULT_EMBEDDING_CACHE_DIR).filter((f) => f.endsWith('.bin'))) {
  const bytes = readFileSync(join(DEFAULT_EMBEDDING_CACHE_DIR, file))
  const dim = bytes.readUInt32LE(8)
  const record = 32 + dim * 4
  const count = Math.floor((bytes.length - 12) / record)
  const all = new Float32Array(count * dim)
  for (let r = 0; r < count; r++) for (let d = 0; d < dim; d++) all[r * dim + d] = bytes.readFloatLE(12 + r * record + 32 + d * 4)
  // Held-out queries: a random sample of the vectors, removed from the corpus.
  const random = seededRandom(5)
  const held = new Set<number>()
  while (held.size < Math.min(Number(values.queries), count / 2)) held.add(Math.floor(random() * count))
  const corpus = new Float32Array((count - held.size) * dim)
  let rows = 0
  for (let r = 0; r < count; r++) if (!held.has(r)) corpus.set(all.subarray(r * dim, (r + 1) * dim), rows++ * dim)
  measure(`model vectors (${file})`, corpus, rows, dim, [...held].map((r) => all.slice(r * dim, (r + 1) * dim)))
}
