// Ground truth and the peer engines, in a Web Worker of their own (as Sift's engine runs in one), over the
// very same sentences and vectors the Sift worker derives from the same seeds.
import { expose } from 'comlink'
import { exactTopK, exactTopKChunked, recallOf } from '../shared/exact-top-k'
import { mememoPeer } from './peers/mememo'
import { oramaPeer } from './peers/orama'
import type { PeerDocument, PeerIndex } from './peers/peer-index'
import {
  generateHistory,
  generateQueries,
  type SyntheticHistory,
  type SyntheticQuery,
} from '../shared/synthetic-history'
import { SyntheticVectors } from '../shared/synthetic-vectors'

export type PeerName = 'orama' | 'mememo'

export interface PeerSearchRuns {
  mode: 'hybrid' | 'vector'
  /** Milliseconds per query, measured inside this worker. */
  ms: number[]
  /** Recall@k of each query against the exact top-k. */
  recall: number[]
  /** Why the searches stopped, if one threw. */
  error?: string
}

const TRUTH_K = 50

let history: SyntheticHistory
let queries: SyntheticQuery[]
let generator: SyntheticVectors
let vectors = new Float32Array(0)
let rows = 0
let peer: PeerIndex | undefined
let peerRows = 0

function ensureRows(size: number): void {
  const { dim } = generator
  if (size <= rows) return
  const grown = new Float32Array(size * dim)
  grown.set(vectors.subarray(0, rows * dim))
  for (let i = rows; i < size; i++) {
    const s = history.sentences[i]
    generator.sentence(i, s.topic, s.subtopic, grown.subarray(i * dim, (i + 1) * dim))
  }
  vectors = grown
  rows = size
}

function queryVector(q: SyntheticQuery): Float32Array {
  return generator.query(q.index, q.topic, q.subtopic)
}

const peerApi = {
  prepare(sentences: number, queryCount: number, queriesWithin: number): void {
    history = generateHistory(sentences)
    queries = generateQueries(queryCount, history, queriesWithin)
    generator = new SyntheticVectors()
  },
  /**
   * Exact top-50 (sentence indices) of every query over the first `size` sentences: brute-force cosine, over vectors
   * made a chunk at a time (a million rows would be 2 GB of floats held here).
   */
  groundTruth(size: number): number[][] {
    const { dim } = generator
    const fill = (first: number, count: number, out: Float32Array<ArrayBuffer>) => {
      for (let i = 0; i < count; i++) {
        const s = history.sentences[first + i]
        generator.sentence(s.index, s.topic, s.subtopic, out.subarray(i * dim, (i + 1) * dim))
      }
    }
    return exactTopKChunked(size, dim, fill, queries.map(queryVector), TRUTH_K)
  },
  /** Creates a fresh peer (dropping the previous one) and inserts the first `size` sentences, stopping at the time limit. */
  async build(name: PeerName, size: number, timeLimitMs: number) {
    await peer?.dispose()
    peer = name === 'orama' ? await oramaPeer(generator.dim) : await mememoPeer()
    ensureRows(size)
    const { dim } = generator
    const documents: PeerDocument[] = history.sentences
      .slice(0, size)
      .map((s) => ({ index: s.index, text: s.text, vector: vectors.slice(s.index * dim, (s.index + 1) * dim) }))
    const build = await peer.insert(documents, performance.now() + timeLimitMs)
    peerRows = build.inserted
    return build
  },
  /** Times `repeats` passes over all queries in each mode the peer has; recall against the exact top-50 of the rows it holds. */
  async search(repeats: number): Promise<PeerSearchRuns[]> {
    if (!peer) throw new Error('peer-worker: build() first')
    const truth = queries.map((q) => exactTopK(vectors, peerRows, generator.dim, queryVector(q), TRUTH_K))
    const runs: PeerSearchRuns[] = []
    for (const mode of peer.modes) {
      const result: PeerSearchRuns = { mode, ms: [], recall: [] }
      try {
        await peer.search(mode, queries[0].text, queryVector(queries[0]), TRUTH_K)
        for (let r = 0; r < repeats; r++) {
          for (const q of queries) {
            const vector = queryVector(q)
            const started = performance.now()
            const found = await peer.search(mode, q.text, vector, TRUTH_K)
            result.ms.push(performance.now() - started)
            if (r === 0) result.recall.push(recallOf(found, truth[q.index]))
          }
        }
      } catch (error) {
        result.error = String(error)
      }
      runs.push(result)
    }
    return runs
  },
  async drop(): Promise<void> {
    await peer?.dispose()
    peer = undefined
    peerRows = 0
  },
}

export type PeerWorkerApi = typeof peerApi

expose(peerApi)
