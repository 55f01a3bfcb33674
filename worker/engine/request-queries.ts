import type { Embedder } from '../embed/embedder'
import type { LexicalIndex } from '../index/lexical/lexical-index'
import type { SentenceCatalog } from '../index/sentence-catalog'
import type { ContextRequest } from '../input/context-request'
import { denseTrust } from '../rank/dense-trust'
import { denseQueryTexts, type RankingQuery } from '../rank/rank-candidates'
import type { Tuning } from '../input/tuning-option'

/** What ranks a request's sentences: each query's words, its language and, for `dense` and `hybrid`, its embedding. */
export interface RequestQueries {
  queries: RankingQuery[]
  /** Set when the model could not embed them: the error the queries' lexical ranking then stands in for. */
  embeddingFailure?: unknown
  /** Set when the model has not loaded yet and the request was not `strict`: why the words alone rank it. */
  modelNotLoaded?: true
}

/**
 * The request's queries (the request and its extra queries) as the ranking takes them: each analysed in its language
 * (`LexicalIndex.requestLanguage`); for `dense` and `hybrid` embedded, and for `hybrid` with how far the model can be
 * trusted with it (`denseTrust`: the share of its letters the model's tokenizer does not know, and its language
 * against the model's). A failure to embed is returned, not thrown: the words still rank the request. Nothing is
 * embedded for an empty scope (a chat's first request: a vector would find nothing), and unless `strict` nothing waits
 * for the model's download and load: until it is there, the words rank the request (`modelNotLoaded`).
 */
export async function requestQueries(
  request: ContextRequest,
  sources: { embedder: Embedder; lexical: LexicalIndex; catalog: SentenceCatalog },
  tuning: Tuning,
  strict: boolean,
): Promise<RequestQueries> {
  const { strategy, conversationId } = request
  const { embedder, lexical, catalog } = sources
  if (strategy === 'head' || strategy === 'tail' || strategy === 'full')
    return { queries: request.queries.map((text) => ({ text })) }
  const queries: RankingQuery[] = request.queries.map((text) => ({
    text,
    language: lexical.requestLanguage(text, conversationId),
  }))
  const scope = catalog.scope(conversationId)
  if (strategy === 'lexical' || scope.sids.length === 0) return { queries }
  try {
    const texts = denseQueryTexts(request.queries, scope, tuning)
    const vectors = strict ? await embedder.embed(texts, 'query') : await embedder.embedIfLoaded(texts, 'query')
    if (vectors === undefined) return { queries, modelNotLoaded: true }
    // The model is loaded once a vector came back, so this waits for no download.
    const unknownShares = strategy === 'hybrid' ? await embedder.unknownShares(request.queries) : []
    const dim = embedder.dim!
    return {
      queries: queries.map((query, i) => {
        const trust =
          i < unknownShares.length
            ? denseTrust(unknownShares[i], query.language, embedder.languages, tuning)
            : undefined
        return { ...query, vector: vectors.subarray(i * dim, (i + 1) * dim), ...(trust && { denseTrust: trust }) }
      }),
    }
  } catch (error) {
    return { queries, embeddingFailure: error }
  }
}
