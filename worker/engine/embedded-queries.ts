import type { Embedder } from '../embed/embedder'
import type { SentenceCatalog } from '../index/sentence-catalog'
import type { ContextRequest } from '../input/context-request'
import type { Tuning } from '../input/tuning-option'
import { denseQueryTexts, type RankingQuery } from '../rank/rank-candidates'

/** A request's queries with their vectors for the dense ranking, embedded in one batch; rejects as the model does. */
export async function embeddedQueries(
  embedder: Embedder,
  { queries, conversationId }: Pick<ContextRequest, 'queries' | 'conversationId'>,
  catalog: SentenceCatalog,
  tuning: Tuning,
): Promise<RankingQuery[]> {
  const vectors = await embedder.embed(denseQueryTexts(queries, catalog.scope(conversationId), tuning), 'query')
  const dim = embedder.dim!
  return queries.map((text, i) => ({ text, vector: vectors.subarray(i * dim, (i + 1) * dim) }))
}
