import type { Context } from '../../src/types'
import { assembleContext } from '../context/assemble-context'
import { withHeading } from '../context/context-heading'
import type { Embedder } from '../embed/embedder'
import type { WordNeighboursLoad } from '../embed/word-neighbours'
import type { LexicalIndex } from '../index/lexical/lexical-index'
import type { SentenceCatalog } from '../index/sentence-catalog'
import type { ContextRequest } from '../input/context-request'
import type { Tuning } from '../input/tuning-option'
import type { BackgroundIndexing } from './background-indexing'
import { modelNotLoaded, requestEmbeddingError } from './model-failure'
import type { OpenedParts } from './open-parts'
import type { Pins } from './pins'
import type { Summaries } from './summaries'
import { requestQueries } from './request-queries'

/** What a request is answered from: the engine's parts as they are when it comes (`clear` replaces them). */
export interface RequestParts {
  embedder: Embedder
  lexical: LexicalIndex
  catalog: SentenceCatalog
  background: BackgroundIndexing
  wordNeighbours: WordNeighboursLoad
  tokenCounters: OpenedParts['tokenCounters']
  pins: Pins
  summaries: Summaries
  tuning: Tuning
  /** `MemoryOptions.strictRanking`: wait for the model, and reject when it cannot embed the request. */
  strictRanking: boolean
}

/** What the engine lends a request besides its parts: its open check, and whether a failure was a `clear` meanwhile. */
export interface RequestEngine {
  assertOpen(): void
  clearedAway(embedder: Embedder): Promise<boolean>
}

/**
 * `Memory.buildContext` for a checked request: its queries (embedded unless the model is not there yet, or failed:
 * then its words rank it and the context says why), the stand-ins, the token counter, the pins and summaries it needs, then the
 * context assembled from the indexes. Resolves `undefined` when embedding failed because the memory was cleared
 * meanwhile: the engine asks again with its new parts.
 */
export async function requestContext(
  parsed: ContextRequest,
  startedAt: number,
  parts: RequestParts,
  engine: RequestEngine,
): Promise<Context | undefined> {
  const { embedder, lexical, catalog, background, tuning, strictRanking } = parts
  const {
    queries,
    embeddingFailure,
    modelNotLoaded: notLoaded,
  } = await requestQueries(parsed, { embedder, lexical, catalog }, tuning, strictRanking)
  let degraded: string | undefined
  if (notLoaded) degraded = modelNotLoaded(embedder.failure)
  if (embeddingFailure !== undefined) {
    if (await engine.clearedAway(embedder)) return undefined
    // A chat must not lose its context because the model failed: the words still rank it.
    const failure = requestEmbeddingError(embeddingFailure)
    if (strictRanking) throw failure
    degraded = failure.message
  }
  // Stand-ins widen the hybrid ranking only: a request ranked by its words alone does not wait for them.
  const wordNeighbours =
    parsed.strategy === 'hybrid' && degraded === undefined && catalog.scope(parsed.conversationId).sids.length > 0
      ? await parts.wordNeighbours.table
      : undefined
  const countTokens = 'tokens' in parsed.budget ? await parts.tokenCounters.counter(parsed.budget.tokenizer) : undefined
  const pinnedSids = await parts.pins.sids(parsed.conversationId)
  const summaries = await parts.summaries.inScope(parsed.conversationId)
  const queryMs = performance.now() - startedAt
  engine.assertOpen()
  const sources = { catalog, vectors: background.vectors, lexical, wordNeighbours }
  const moment = {
    backend: embedder.backend,
    embeddedThrough: background.embeddedThrough,
    startedAt,
    queryMs,
    degraded,
    countTokens,
    pinnedSids,
    summaries,
  }
  const context = withHeading(parsed, moment, (request, headed) =>
    assembleContext(request, queries, sources, headed, tuning),
  )
  background.requestAnswered()
  return context
}
