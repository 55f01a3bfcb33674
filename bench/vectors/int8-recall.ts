// Recall@k of Sift's int8 vector scan against the exact float32 top-k, on synthetic vectors and on real model
// vectors (every vector in the Node embedding cache, e.g. LoCoMo sentences and questions after bench:recall): with
// the residual layer re-scoring the best rows (blocks of format 2) and with int8 codes alone (format-1 blocks).
//   npx tsx bench/vectors/int8-recall.ts [--size 100000] [--queries 100] [--k 50]
import { parseArgs } from 'node:util'
import { quantizeRows } from '../../worker/index/vector/quantize-vector'
import { VectorIndex } from '../../worker/index/vector/vector-index'
import { cachedModelVectors } from './cached-model-vectors'
import { exactTopK, recallOf } from '../shared/exact-top-k'
import { mean } from '../shared/latency-summary'
import { syntheticCorpus } from '../shared/synthetic-corpus'

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '100' },
    k: { type: 'string', default: '50' },
  },
})
const k = Number(values.k)

function measure(label: string, corpus: Float32Array, rows: number, dim: number, queries: Float32Array[]): void {
  const sids = Array.from({ length: rows }, (_, row) => row)
  const withResiduals = new VectorIndex(dim)
  withResiduals.add(sids, corpus, () => 'c')
  const codesOnly = new VectorIndex(dim)
  const codes = new Int8Array(rows * dim)
  const scales = new Float32Array(rows)
  quantizeRows(corpus, rows, dim, codes, dim, scales)
  codesOnly.addBlocks(
    [{ blockId: 1, model: 'm', dim, firstSid: 0, lastSid: rows - 1, sids: Float64Array.from(sids), codes, scales }],
    () => 'c',
  )
  const exact = queries.map((query) => exactTopK(corpus, rows, dim, query, k))
  for (const [layers, index] of [
    ['int8 + residual', withResiduals],
    ['int8 only', codesOnly],
  ] as const) {
    let worstError = 0
    const started = performance.now()
    const recalls = queries.map((query, q) => {
      const hits = index.search(query, k)
      for (const hit of hits) {
        const vector = corpus.subarray(hit.sid * dim, (hit.sid + 1) * dim)
        worstError = Math.max(worstError, Math.abs(hit.score - vector.reduce((sum, v, d) => sum + v * query[d], 0)))
      }
      return recallOf(
        hits.map((h) => h.sid),
        exact[q],
      )
    })
    const ms = (performance.now() - started) / queries.length
    console.log(
      `${label}: ${rows} vectors × ${dim}, ${queries.length} queries, ${layers}: recall@${k} vs float32 mean ${mean(recalls).toFixed(4)}, min ${Math.min(...recalls).toFixed(2)}; ` +
        `largest top-${k} score error ${worstError.toExponential(1)}; ${ms.toFixed(1)} ms/query (scan + top-${k})`,
    )
  }
}

const synthetic = syntheticCorpus(Number(values.size), Number(values.queries))
measure('synthetic', synthetic.corpus, synthetic.rows, synthetic.dim, synthetic.queries)

for (const model of cachedModelVectors(Number(values.queries)))
  measure(`model vectors (${model.file})`, model.corpus, model.rows, model.dim, model.queries)
