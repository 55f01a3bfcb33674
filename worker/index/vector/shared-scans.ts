import type { ScoredSid } from '../scored-sid'
import type { VectorIndex } from './vector-index'
import { bestRaw, type DenseScores } from './vector-scoring'

/**
 * `vectors` for one request, each query's scan made once: a search for the nearest rows of a query already scanned in
 * the same scope (the request's nearest sentences, which following updates looks up after the ranking scanned them)
 * reads that scan's raw similarities instead of scanning every row again, with the same answer (`searchRows` is
 * `bestRaw` of a scan; a penalty changes a scan's scores, never its raw similarities). Only for the request's own run:
 * the scans hold the index's rows as they were, and a request changes none.
 */
export function withSharedScans(vectors: VectorIndex): VectorIndex {
  const scans = new Map<Float32Array, Map<string | undefined, DenseScores>>()
  const shared = Object.create(vectors) as VectorIndex
  shared.scan = (query, filter, penaltyOf) => {
    const scores = vectors.scan(query, filter, penaltyOf)
    const byScope = scans.get(query) ?? new Map<string | undefined, DenseScores>()
    byScope.set(filter?.conversationId, scores)
    scans.set(query, byScope)
    return scores
  }
  shared.search = (query, k, filter): ScoredSid[] => {
    const scanned = scans.get(query)?.get(filter?.conversationId)
    return scanned ? bestRaw(scanned, k) : vectors.search(query, k, filter)
  }
  return shared
}
