import type { PackResult } from '../../src/core/pack-budget'
import { renderContext } from '../../src/core/render-context'
import type { ScoredSentence } from '../../src/core/scored-sentence'
import type { Backend, Context, ContextItem, ContextStats, Strategy, TokenBudget } from '../../src/types'
import { countAbove, type CatalogScope, type SentenceCatalog } from '../index/sentence-catalog'
import type { ContextRequest } from '../input/context-request'
import { DEFAULT_TUNING, type Tuning } from '../input/tuning-option'
import { rankCandidates, type RankingQuery, type RankingSources } from '../rank/rank-candidates'
import { withAnswerNeighbours } from './answer-neighbours'
import { catalogTurns, positionalCandidates } from './catalog-candidates'
import {
  packPlan,
  planContext,
  replyLeadsFor,
  startChars,
  type Budget,
  type PlanPack,
  type SummaryInScope,
} from './context-plan'
import { distinctSentences } from './distinct-sentences'
import { withLaterUpdates, withMarksResolved } from './later-updates'
import { laterStatementsOf } from './later-statements'
import { withSharedScans } from '../index/vector/shared-scans'
import { spreadOverPassages } from './passage-spread'
import { untilRelevanceCliff } from './relevance-cliff'
import type { CountTokens } from './token-counter'

export type { SummaryInScope } from './context-plan'

/** What the engine knows at the moment a context is built, besides the indexes. */
export interface ContextMoment {
  backend: Backend
  /** Sentences with a greater sid have no vector yet. */
  embeddedThrough: number
  /** When buildContext started (performance.now()), and how long embedding the queries took. */
  startedAt: number
  queryMs: number
  /** Why `hybrid`/`dense` is ranked lexically this time: the request could not be embedded. */
  degraded?: string
  /** The tokenizer a token budget (`ContextRequest.budget` in tokens) counts with, loaded before the context is built. */
  countTokens?: CountTokens
  /** The sentences of the scope's pinned messages (`Memory.pin`), in pin order: packed first, in a section of their own. */
  pinnedSids?: readonly number[]
  /** The scope's summaries (`Memory.setSummary`), oldest first, and the conversations whose summary a forget dropped. */
  summaries?: { current: readonly SummaryInScope[]; dropped: readonly string[] }
}

/**
 * Selects, packs and renders a context from the in-memory indexes; `queries` carry vectors for dense and hybrid. The
 * ranking and the selection stages take their constants from `tuning`. The stages: the scope (what the app does not
 * send verbatim), the candidates, the plan (how the budget is shared: `context-plan.ts`), its packing, the `Context`.
 */
export function assembleContext(
  request: ContextRequest,
  queries: readonly RankingQuery[],
  sources: RankingSources,
  moment: ContextMoment,
  tuning: Tuning = DEFAULT_TUNING,
): Context {
  const { catalog } = sources
  const scope = catalog.scope(request.conversationId)
  const turns = turnsOf(scope, request)
  const { strategy } = request
  if (strategy === 'full') return contextOf(wholeHistory(catalog, turns, request), request, scope, queries, moment)
  let cliff = false
  const stages = { request, queries, sources, moment, tuning, turns }
  const candidates = excerptCandidates(strategy, stages, () => (cliff = true))
  const settle = (pack: PackResult) => (request.followUpdates ? withResolvedMarks(pack) : pack)
  const plan = planContext(budgetOf(request, moment), {
    pinned: [...positionalCandidates(catalog, moment.pinnedSids ?? [], false, 'pinned')],
    summaries: moment.summaries,
    summaryShare: request.summaryShare,
    recent: [...positionalCandidates(catalog, turns.recent, true, 'recent')],
    excerpts: { kind: 'excerpts', candidates, settle },
  })
  const packed = packPlan(plan, tuning)
  return contextOf(packed, request, scope, queries, moment, cliff)
}

/** The scope's turns a context may hold: those the app does not send verbatim, and the recent ones it asks for. */
interface ScopeTurns {
  /** The sids of the turns not sent verbatim, in time order. */
  positional: readonly number[]
  /** The sids of the last `recentTurns` of them. */
  recent: readonly number[]
  sentVerbatim: ReadonlySet<string>
}

function turnsOf(scope: CatalogScope, request: ContextRequest): ScopeTurns {
  const { recentTurns, excludeRecent } = request
  // scope.messages is in time order: the turns the app sends verbatim are its last ones.
  const kept =
    excludeRecent === 0 ? scope.messages : scope.messages.slice(0, Math.max(0, scope.messages.length - excludeRecent))
  const sentVerbatim = new Set(scope.messages.slice(kept.length).map((m) => m.id))
  // A recentTurns beyond the scope's turns takes them all.
  const recent = recentTurns === 0 ? [] : kept.slice(-recentTurns).flatMap((m) => m.sids)
  const positional = sentVerbatim.size === 0 ? sidsInTimeOrder(scope) : kept.flatMap((message) => message.sids)
  return { positional, recent, sentVerbatim }
}

/** The request's budget with the tokenizer a token budget counts with. */
function budgetOf(request: ContextRequest, moment: ContextMoment): Budget {
  const { budget } = request
  return 'tokens' in budget ? { ...budget, count: moment.countTokens! } : budget
}

/** `full`: every sentence not sent verbatim, in time order, whatever the budget (its characters, or a token budget's first guess). */
function wholeHistory(catalog: SentenceCatalog, turns: ScopeTurns, request: ContextRequest): PlanPack {
  const items = [...positionalCandidates(catalog, turns.positional, false, 'position')]
  const text = renderContext(items)
  const chars = startChars(request.budget)
  return { items, text, used: text.length, stoppedBy: 'exhausted', considered: items.length, chars }
}

/** What the candidate stages read. */
interface CandidateStages {
  request: ContextRequest
  queries: readonly RankingQuery[]
  sources: RankingSources
  moment: ContextMoment
  tuning: Tuning
  turns: ScopeTurns
}

/**
 * The excerpts' candidates in the order the packer takes them: by position for `head` and `tail`, else ranked, then
 * past the relevance cliff (`adaptiveStop`, calling `atCliff`), repeats last, spread over passages, with the turns
 * that answer them, and with later updates (`followUpdates`); never a turn sent verbatim.
 */
function excerptCandidates(
  strategy: Exclude<Strategy, 'full'>,
  { request, queries, sources, moment, tuning, turns }: CandidateStages,
  atCliff: () => void,
): Iterable<ScoredSentence> {
  const { conversationId, budget } = request
  if (strategy === 'head' || strategy === 'tail')
    return positionalCandidates(sources.catalog, turns.positional, strategy === 'tail', 'position')
  const { sentVerbatim } = turns
  const notSent = (candidates: Iterable<ScoredSentence>) =>
    sentVerbatim.size === 0 ? candidates : withoutMessages(candidates, sentVerbatim)
  const ranking = moment.degraded === undefined ? strategy : 'lexical'
  // Following updates searches the request's nearest sentences again: it reads the ranking's scans of them.
  const scanned =
    request.followUpdates && sources.vectors ? { ...sources, vectors: withSharedScans(sources.vectors) } : sources
  const ranked = notSent(rankCandidates(ranking, queries, conversationId, scanned, tuning))
  // The cliff is judged on the ranking's own order, before the stages below move candidates back: one held back
  // for later is still one the ranking put above the cliff.
  const cliffOptions = { ratio: tuning.cliffRatio, window: tuning.cliffWindow }
  const aboveCliff = request.adaptiveStop ? untilRelevanceCliff(ranked, atCliff, cliffOptions) : ranked
  const distinct = tuning.repeatsLast ? distinctSentences(aboveCliff) : aboveCliff
  // The spread after de-duplication: a repeat held back there must not count as the sentence its passage was offered by.
  const answered = withAnswerNeighbours(
    spreadOverPassages(distinct, tuning.passageRadius, followersFor(ranking, queries, tuning)),
    catalogTurns(sources.catalog, sources.lexical),
    replyLeadsFor(startChars(budget), tuning),
    tuning,
  )
  // Again after the stages: a neighbour or a later update may be a turn sent verbatim.
  return notSent(
    request.followUpdates
      ? withLaterUpdates(answered, laterStatementsOf(queries, conversationId, scanned, tuning), tuning)
      : answered,
  )
}

/** The `Context` of a packing: its text, its items and what it took of the budget, from the typed pack. */
function contextOf(
  packed: PlanPack,
  request: ContextRequest,
  scope: CatalogScope,
  queries: readonly RankingQuery[],
  moment: ContextMoment,
  cliff = false,
): Context {
  const { strategy, budget: given } = request
  const ranking = moment.degraded === undefined ? strategy : 'lexical'
  const budget = packed.chars
  const tokens = 'tokens' in given ? (packed.tokens ?? moment.countTokens!(packed.text)) : undefined
  return {
    text: packed.text,
    items: packed.items.map(toContextItem),
    sections: packed.sections ?? { stable: '', excerpts: packed.text },
    stats: {
      budget,
      used: packed.used,
      fill: packed.used / budget,
      ...('tokens' in given && tokens !== undefined && { tokens: tokenStats(given, tokens) }),
      ...(packed.pinned && { pinned: packed.pinned }),
      ...(packed.summary && { summary: packed.summary }),
      historyChars: scope.chars,
      historySentences: scope.sids.length,
      strategy,
      ranking,
      ...(moment.degraded === undefined ? {} : { degraded: moment.degraded }),
      backend: moment.backend,
      stoppedBy: cliff && packed.stoppedBy === 'exhausted' ? 'cliff' : packed.stoppedBy,
      candidatesConsidered: packed.considered,
      pending: countAbove(scope.sids, moment.embeddedThrough),
      ms: performance.now() - moment.startedAt,
      queryMs: moment.queryMs,
      ...(queries[0]?.language === undefined ? {} : { language: queries[0].language }),
      ...(ranking === 'hybrid' && queries[0]?.denseTrust ? { denseTrust: queries[0].denseTrust } : {}),
    },
  }
}

function tokenStats(budget: TokenBudget, used: number): ContextStats['tokens'] {
  return { budget: budget.tokens, used, fill: used / budget.tokens, tokenizer: budget.tokenizer }
}

/**
 * `packed` without the marks whose newer statement did not make it in (`withMarksResolved`), re-rendered when one
 * went: the packer measured each mark with its sentence, so dropping one only shortens the text.
 */
function withResolvedMarks(packed: PackResult): PackResult {
  const items = withMarksResolved(packed.items)
  if (items === packed.items) return packed
  const text = renderContext(items)
  return { ...packed, items: [...items], text, used: text.length }
}

/** `candidates` without the sentences of `messageIds`. */
function* withoutMessages(
  candidates: Iterable<ScoredSentence>,
  messageIds: ReadonlySet<string>,
): Generator<ScoredSentence> {
  for (const candidate of candidates) if (!messageIds.has(candidate.messageId)) yield candidate
}

/**
 * The scope's sids in its messages' time order: `scope.sids` itself while no message arrived out of time order (it
 * ascends by sid, the order of `add`), so a head or tail request copies nothing in the usual case.
 */
function sidsInTimeOrder(scope: CatalogScope): readonly number[] {
  return scope.reordered ? scope.messages.flatMap((message) => message.sids) : scope.sids
}

function toContextItem({
  messageId,
  conversationId,
  seq,
  role,
  text,
  score,
  start,
  end,
  timestamp,
  reason,
  ranks,
  fused,
  query,
  supersededBy,
}: ScoredSentence): ContextItem {
  const item: ContextItem = { messageId, conversationId, seq, role, text, score, start, end, timestamp, reason }
  if (ranks !== undefined) item.ranks = ranks
  if (fused !== undefined) item.fused = fused
  if (query !== undefined) item.query = query
  if (supersededBy !== undefined) item.supersededBy = supersededBy
  return item
}

/**
 * How many sentences after an offered one the passage spread lets through (`passageFollowers`): only where `hybrid`
 * could not trust the dense ranking with the request (`denseTrust`). There the request's words alone order the
 * candidates, and the sentence that continues a matched one, where the fact is often said, holds none of them;
 * where the model reads the request, its ranking brings such a sentence up itself.
 */
function followersFor(ranking: Strategy, queries: readonly RankingQuery[], tuning: Tuning): number {
  return ranking === 'hybrid' && queries[0]?.denseTrust ? tuning.passageFollowers : 0
}
