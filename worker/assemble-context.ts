import { packBudget, type PackResult } from '../src/core/pack-budget'
import { renderContext } from '../src/core/render-context'
import { withAnswerNeighbours } from '../src/core/answer-neighbours'
import { distinctSentences } from '../src/core/distinct-sentences'
import type { ScoredSentence } from '../src/core/scored-sentence'
import type { Backend, Context, ContextItem } from '../src/types'
import type { ContextRequest } from './context-request'
import { openingOfNextTurn, positionalCandidates, rankCandidates, type RankingQuery, type RankingSources } from './rank-candidates'

/** What the engine knows at the moment a context is built, besides the indexes. */
export interface ContextMoment {
  backend: Backend
  /** Sentences with a greater sid have no vector yet. */
  embeddedThrough: number
  /** When buildContext started (performance.now()), and how long embedding the queries took. */
  startedAt: number
  queryMs: number
}

/** Selects, packs and renders a context from the in-memory indexes; `queries` carry vectors for dense and hybrid. */
export function assembleContext(request: ContextRequest, queries: readonly RankingQuery[], sources: RankingSources, moment: ContextMoment): Context {
  const { strategy, budget, conversationId, recentTurns } = request
  const { catalog } = sources
  const scope = catalog.scope(conversationId)
  const pinned = [...positionalCandidates(catalog, scope.messages.slice(scope.messages.length - recentTurns).flatMap((m) => m.sids), true, 'recent')]
  let packed: PackResult
  if (strategy === 'full') {
    const items = [...positionalCandidates(catalog, scope.sids, false, 'position')]
    const text = renderContext(items)
    packed = { items, text, used: text.length, stoppedBy: 'exhausted', considered: items.length }
  } else {
    const ranked =
      strategy === 'head' || strategy === 'tail'
        ? positionalCandidates(catalog, scope.sids, strategy === 'tail', 'position')
        : withAnswerNeighbours(distinctSentences(rankCandidates(strategy, queries, conversationId, sources)), (question) => openingOfNextTurn(catalog, question))
    packed = packBudget(ranked, { budget, pinned })
  }
  return {
    text: packed.text,
    items: packed.items.map(toContextItem),
    stats: {
      budget,
      used: packed.used,
      fill: packed.used / budget,
      historyChars: scope.chars,
      historySentences: scope.sids.length,
      strategy,
      backend: moment.backend,
      stoppedBy: packed.stoppedBy,
      candidatesConsidered: packed.considered,
      pending: scope.sids.length - countAtMost(scope.sids, moment.embeddedThrough),
      ms: performance.now() - moment.startedAt,
      queryMs: moment.queryMs,
    },
  }
}

function toContextItem({ messageId, conversationId, seq, role, text, score, start, end, timestamp, reason }: ScoredSentence): ContextItem {
  return { messageId, conversationId, seq, role, text, score, start, end, timestamp, reason }
}

/** How many of the ascending `values` are ≤ limit. */
function countAtMost(values: readonly number[], limit: number): number {
  let low = 0
  let high = values.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (values[middle] <= limit) low = middle + 1
    else high = middle
  }
  return low
}
