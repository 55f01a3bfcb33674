// The real Sift engine in a Web Worker, exactly as `worker/rpc/engine-worker.ts` runs it (same engineApi, same browser host,
// same IndexedDB), except that the host also offers a synthetic embedding cache: ingest then needs no model
// calls, while any text outside the synthetic history (a real request) is embedded by the real model.
import { expose } from 'comlink'
import { installSiftErrorTransfer } from '../../src/error-transfer'
import { browserHost } from '../../worker/hosts/browser-host'
import { engineApi } from '../../worker/rpc/engine-api'
import {
  syntheticEmbeddingCache,
  type SyntheticCacheCounts,
  type SyntheticEmbeddingCache,
} from '../shared/synthetic-embedding-cache'
import { generateHistory, generateQueries } from '../shared/synthetic-history'
import { SyntheticVectors } from '../shared/synthetic-vectors'

let prepared: SyntheticEmbeddingCache | undefined

const benchApi = {
  ...engineApi((options) => ({
    ...browserHost(options),
    openEmbeddingCache: async () => {
      if (!prepared) throw new Error('sift-bench-worker: call prepare() before open()')
      return prepared.cache
    },
  })),
  /** Derives the same history and queries as the page (same seeds), up to `sentences`. */
  prepare(sentences: number, queryCount: number, queriesWithin: number): void {
    const history = generateHistory(sentences)
    prepared = syntheticEmbeddingCache(
      history,
      generateQueries(queryCount, history, queriesWithin),
      new SyntheticVectors(),
    )
  },
  cacheCounts: (): SyntheticCacheCounts | undefined => prepared?.counts(),
  embedQueriesWithModel: (on: boolean): void => prepared?.embedQueriesWithModel(on),
}

export type SiftBenchWorkerApi = typeof benchApi

installSiftErrorTransfer()
expose(benchApi)
