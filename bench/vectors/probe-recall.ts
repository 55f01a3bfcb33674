// Recall@k and speed of the coarse-list probe (`VectorIndex.probe`, IVF) against the exact float32 top-k, beside the
// exact int8 scan, on synthetic vectors and on real model vectors (every vector in the Node embedding cache, e.g.
// LoCoMo sentences and questions after bench:recall; lists trained even below COARSE_MIN_ROWS).
//   npx tsx bench/vectors/probe-recall.ts [--size 100000] [--queries 100] [--k 50]
import { parseArgs } from 'node:util'
import { VectorIndex } from '../../worker/index/vector/vector-index'
import { cachedModelVectors } from './cached-model-vectors'
import { exactTopK, recallOf } from '../shared/exact-top-k'
import { mean, summarize } from '../shared/latency-summary'
import { seededRandom } from '../../worker/util/seeded-random'
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
  const index = new VectorIndex(dim)
  index.add(
    Array.from({ length: rows }, (_, row) => row),
    corpus,
    () => 'c',
  )
  const trainStarted = performance.now()
  let slices = 0
  let longestSlice = 0
  let sliceStarted = performance.now()
  for (const _ of index.trainCoarseLists(seededRandom(7))) {
    longestSlice = Math.max(longestSlice, performance.now() - sliceStarted)
    slices++
    sliceStarted = performance.now()
  }
  const trainMs = performance.now() - trainStarted
  const exact = queries.map((query) => exactTopK(corpus, rows, dim, query, k))
  const trained = `lists trained in ${(trainMs / 1000).toFixed(1)} s (${slices} slices, longest ${longestSlice.toFixed(1)} ms)`
  if (!index.probe(queries[0])) {
    console.log(
      `${label}: ${rows} vectors × ${dim}; ${trained}; calibration found no probe share ≤ 1/4 reaching its recall target: the probe declines and every query scans all rows`,
    )
    return
  }
  const probeMs: number[] = []
  const scanMs: number[] = []
  const recalls = queries.map((query, q) => {
    const started = performance.now()
    const probed = index.probe(query)!
    probeMs.push(performance.now() - started)
    const scanStarted = performance.now()
    index.search(query, k)
    scanMs.push(performance.now() - scanStarted)
    return recallOf(Array.from(probed.sids.subarray(0, k)), exact[q])
  })
  const p = summarize(probeMs)
  const s = summarize(scanMs)
  console.log(
    `${label}: ${rows} vectors × ${dim}, ${queries.length} queries; ${trained}; ` +
      `probe (calibrated share ${index.serializeCoarseLists()?.probeShare}) recall@${k} mean ${mean(recalls).toFixed(4)}, min ${Math.min(...recalls).toFixed(2)}; ` +
      `probe ${p.p50.toFixed(2)} / ${p.p95.toFixed(2)} ms p50/p95 vs exact scan + top-${k} ${s.p50.toFixed(2)} / ${s.p95.toFixed(2)} ms`,
  )
}

const synthetic = syntheticCorpus(Number(values.size), Number(values.queries))
measure('synthetic', synthetic.corpus, synthetic.rows, synthetic.dim, synthetic.queries)

for (const model of cachedModelVectors(Number(values.queries)))
  measure(`model vectors (${model.file})`, model.corpus, model.rows, model.dim, model.queries)
