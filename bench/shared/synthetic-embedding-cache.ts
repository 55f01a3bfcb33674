import type { EmbeddingCache } from '../../worker/embed/embedding-cache'
import type { SyntheticHistory, SyntheticQuery } from './synthetic-history'
import type { SyntheticVectors } from './synthetic-vectors'

/** What the cache answered, so a run can prove that ingest never reached the model and queries did when meant to. */
export interface SyntheticCacheCounts {
  sentenceHits: number
  queryHits: number
  misses: number
  /** Time spent deriving synthetic vectors inside `get`: part of a load's wall time that a real cache would not spend. */
  generateMs: number
}

export interface SyntheticEmbeddingCache {
  cache: EmbeddingCache
  counts(): SyntheticCacheCounts
  /** When true, query texts miss too, so the same request is embedded by the real model. */
  embedQueriesWithModel(on: boolean): void
}

/**
 * An `EmbeddingCache` that answers every synthetic sentence and synthetic query text with its synthetic vector,
 * derived on demand (nothing is held per sentence but its text). Any other text misses, so the engine embeds it
 * with the real model; `embedQueriesWithModel(true)` makes the query texts miss too, which is how the "with
 * query embedding" runs embed the very same requests for real. Nothing the model computes is remembered, so
 * each such run embeds again.
 */
export function syntheticEmbeddingCache(
  history: SyntheticHistory,
  queries: readonly SyntheticQuery[],
  vectors: SyntheticVectors,
): SyntheticEmbeddingCache {
  const sentenceOf = new Map(history.sentences.map((s) => [s.text, s]))
  const queryOf = new Map(queries.map((q) => [q.text, q]))
  const counts: SyntheticCacheCounts = { sentenceHits: 0, queryHits: 0, misses: 0, generateMs: 0 }
  let queriesFromModel = false
  const timed = (make: () => Float32Array): Float32Array => {
    const started = performance.now()
    const vector = make()
    counts.generateMs += performance.now() - started
    return vector
  }
  return {
    cache: {
      get(text) {
        const sentence = sentenceOf.get(text)
        if (sentence) {
          counts.sentenceHits++
          return timed(() => vectors.sentence(sentence.index, sentence.topic, sentence.subtopic))
        }
        const query = queriesFromModel ? undefined : queryOf.get(text)
        if (query) {
          counts.queryHits++
          return timed(() => vectors.query(query.index, query.topic, query.subtopic))
        }
        counts.misses++
        return undefined
      },
      // Nothing is held per text, so there is nothing to forget.
      set() {},
      async flush() {},
      async forget() {},
      async clear() {},
    },
    counts: () => ({ ...counts }),
    embedQueriesWithModel: (on) => {
      queriesFromModel = on
    },
  }
}
