import { packBudget, type PackResult } from '../../src/core/pack-budget'
import { renderContext } from '../../src/core/render-context'
import type { ScoredSentence } from '../../src/core/scored-sentence'
import type { Backend, Context, ContextItem, ContextStats, Strategy, TokenBudget } from '../../src/types'
import { countAbove, type CatalogScope } from '../index/sentence-catalog'
import type { ContextRequest } from '../input/context-request'
import { DEFAULT_TUNING, type Tuning } from '../input/tuning-option'
import { rankCandidates, type RankingQuery, type RankingSources } from '../rank/rank-candidates'
import { replyLeadsFor, withAnswerNeighbours } from './answer-neighbours'
import { catalogTurns, positionalCandidates } from './catalog-candidates'
import { distinctSentences } from './distinct-sentences'
import { withLaterUpdates, withMarksResolved } from './later-updates'
import { laterStatementsOf } from './later-statements'
import { spreadOverPassages } from './passage-spread'
import { untilRelevanceCliff } from './relevance-cliff'
import type { CountTokens } from './token-counter'
import { packToTokens } from './token-packing'
import {
  packWithSections,
  renderWithSections,
  summaryBlock,
  type Sections,
  type SectionedPack,
  type SummaryBlock,
} from './context-sections'
import { replayable } from '../util/replayable'

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
  /** The tokenizer a token budget (`ContextRequest.tokenBudget`) counts with, loaded before the context is built. */
  countTokens?: CountTokens
  /** The sentences of the scope's pinned messages (`Memory.pin`), in pin order: packed first, in a section of their own. */
  pinnedSids?: readonly number[]
  /** The scope's summaries (`Memory.setSummary`), oldest first, and the conversations whose summary a forget dropped. */
  summaries?: { current: readonly SummaryInScope[]; dropped: readonly string[] }
}

/** A summary as a context needs it: whose, up to when, and its text. */
export interface SummaryInScope {
  conversationId: string
  throughTimestamp: number
  text: string
}

/**
 * Selects, packs and renders a context from the in-memory indexes; `queries` carry vectors for dense and hybrid. The
 * ranking and the selection stages take their constants from `tuning`.
 */
export function assembleContext(
  request: ContextRequest,
  queries: readonly RankingQuery[],
  sources: RankingSources,
  moment: ContextMoment,
  tuning: Tuning = DEFAULT_TUNING,
): Context {
  const { strategy, conversationId, recentTurns, excludeRecent, adaptiveStop, followUpdates } = request
  let { budget } = request
  const { catalog } = sources
  const ranking = moment.degraded === undefined ? strategy : 'lexical'
  const scope = catalog.scope(conversationId)
  // scope.messages is in time order: the turns the app sends verbatim are its last ones.
  const kept =
    excludeRecent === 0 ? scope.messages : scope.messages.slice(0, Math.max(0, scope.messages.length - excludeRecent))
  const sentVerbatim = new Set(scope.messages.slice(kept.length).map((m) => m.id))
  const notSent = (candidates: Iterable<ScoredSentence>) =>
    sentVerbatim.size === 0 ? candidates : withoutMessages(candidates, sentVerbatim)
  // A recentTurns beyond the scope's turns pins them all.
  const recent = recentTurns === 0 ? [] : kept.slice(-recentTurns)
  const pinned = [
    ...positionalCandidates(
      catalog,
      recent.flatMap((m) => m.sids),
      true,
      'recent',
    ),
  ]
  let packed: PackResult
  let cliff = false
  const positional = sentVerbatim.size === 0 ? sidsInTimeOrder(scope) : kept.flatMap((message) => message.sids)
  let tokens: ContextStats['tokens']
  if (strategy === 'full') {
    const items = [...positionalCandidates(catalog, positional, false, 'position')]
    const text = renderContext(items)
    packed = { items, text, used: text.length, stoppedBy: 'exhausted', considered: items.length }
    if (request.tokenBudget) tokens = tokenStats(request.tokenBudget, moment.countTokens!(text))
  } else {
    let candidates: Iterable<ScoredSentence>
    if (strategy === 'head' || strategy === 'tail') {
      candidates = positionalCandidates(catalog, positional, strategy === 'tail', 'position')
    } else {
      const ranked = notSent(
        rankCandidates(moment.degraded === undefined ? strategy : 'lexical', queries, conversationId, sources, tuning),
      )
      // The cliff is judged on the ranking's own order, before the stages below move candidates back: one held back
      // for later is still one the ranking put above the cliff.
      const cliffOptions = { ratio: tuning.cliffRatio, window: tuning.cliffWindow }
      const aboveCliff = adaptiveStop ? untilRelevanceCliff(ranked, () => (cliff = true), cliffOptions) : ranked
      const distinct = tuning.repeatsLast ? distinctSentences(aboveCliff) : aboveCliff
      // The spread after de-duplication: a repeat held back there must not count as the sentence its passage was offered by.
      const answered = withAnswerNeighbours(
        spreadOverPassages(distinct, tuning.passageRadius, followersFor(ranking, queries, tuning)),
        catalogTurns(catalog, sources.lexical),
        replyLeadsFor(budget, tuning),
        tuning,
      )
      // Again after the stages: a neighbour or a later update may be a turn sent verbatim.
      candidates = notSent(
        followUpdates
          ? withLaterUpdates(answered, laterStatementsOf(queries, conversationId, sources, tuning), tuning)
          : answered,
      )
    }
    const resolved = (result: PackResult) => (followUpdates ? withResolvedMarks(result) : result)
    const pins = [...positionalCandidates(catalog, moment.pinnedSids ?? [], false, 'pinned')]
    const sections = sectionsFor(pins, moment, request)
    const packAt = (chars: number, minFill?: number): PackResult =>
      sections === undefined
        ? resolved(packBudget(candidates, { budget: chars, pinned, minFill }))
        : packWithSections(sections, chars, (rest, leaveOut) =>
            resolved(
              packBudget(leavingOut(candidates, leaveOut), {
                budget: rest,
                pinned: pinned.filter((item) => !leaveOut.has(item.sid)),
                minFill,
              }),
            ),
          )
    if (request.tokenBudget) {
      // Packed again at other sizes until the count fits: the candidates are made once and replayed.
      candidates = replayable(candidates)
      const packer = {
        atChars: (chars: number) => packAt(chars, tuning.tokenPackFill),
        withItems: (items: readonly ScoredSentence[]) =>
          sections === undefined
            ? resolved(packBudget([], { budget: Infinity, pinned: items }))
            : renderWithSections(sections, items),
        candidates,
      }
      const packing = packToTokens(packer, moment.countTokens!, request.tokenBudget.tokens, budget, tuning)
      packed = packing.packed
      budget = packing.chars
      tokens = tokenStats(request.tokenBudget, packing.tokens)
    } else packed = packAt(budget)
  }
  return {
    text: packed.text,
    items: packed.items.map(toContextItem),
    stats: {
      budget,
      used: packed.used,
      fill: packed.used / budget,
      ...(tokens && { tokens }),
      ...((packed as SectionedPack).pinned && { pinned: (packed as SectionedPack).pinned }),
      ...((packed as SectionedPack).summary && { summary: (packed as SectionedPack).summary }),
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

/**
 * What goes before the conversation, or `undefined` when nothing does (no pins, no summary slot in use). The summaries
 * are chosen newest first while they fit together in `summaryShare` of the budget, in characters, or in the
 * tokenizer's tokens for a token budget (each counted alone), and shown oldest first; one that does not fit (every
 * one, in a share of 0) is named as left out, and only `summary: false` leaves them out unnamed.
 */
function sectionsFor(pinned: ScoredSentence[], moment: ContextMoment, request: ContextRequest): Sections | undefined {
  const { summaryShare } = request
  const current = summaryShare === false ? [] : (moment.summaries?.current ?? [])
  const dropped = moment.summaries?.dropped ?? []
  if (pinned.length === 0 && current.length === 0 && dropped.length === 0) return undefined
  const tokens = request.tokenBudget
  const share = summaryShare === false ? 0 : Math.floor(summaryShare * (tokens ? tokens.tokens : request.budget))
  const size = (text: string) => (tokens ? moment.countTokens!(text) : text.length)
  const chosen: SummaryBlock[] = []
  const left: string[] = []
  let taken = 0
  for (const block of current.map(summaryBlock).reverse()) {
    const cost = size(block.text)
    if (taken + cost <= share) {
      chosen.unshift(block)
      taken += cost
    } else left.unshift(block.conversationId)
  }
  return { pinned, summaries: chosen, summariesLeft: left, summariesDropped: dropped }
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

/** `candidates` without the sids of `leaveOut` (the pinned ones, already in their own section). */
function* leavingOut(candidates: Iterable<ScoredSentence>, leaveOut: ReadonlySet<number>): Generator<ScoredSentence> {
  for (const candidate of candidates) if (!leaveOut.has(candidate.sid)) yield candidate
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
