// How a context shares its budget: the plan (its sections, in the order they are packed, each with its rule) and the
// one function that packs a plan, in characters, or in tokens by packing the same plan again until the count fits.
import { packBudget, type PackResult } from '../../src/core/pack-budget'
import type { ScoredSentence } from '../../src/core/scored-sentence'
import type { TokenBudget } from '../../src/types'
import type { CharBudget } from '../input/context-request'
import {
  layOut,
  PINNED_HEADER,
  SECTION_BREAK,
  SECTION_JOIN,
  summaryBlock,
  type SectionedPack,
  type SummaryBlock,
} from './context-sections'
import type { ContextTuning } from './context-tuning'
import type { CountTokens } from './token-counter'
import { packToTokens } from './token-packing'
import { replayable } from '../util/replayable'

/** A context's budget as the packer meets it: characters, or tokens counted with the tokenizer they are in. */
export type Budget = CharBudget | (TokenBudget & { count: CountTokens })

/**
 * Characters per token a token budget starts packing from: English runs near four with OpenAI's encodings; each
 * packing then measures the text it made and corrects the guess (`packToTokens`).
 */
const CHARS_PER_TOKEN_GUESS = 4

/**
 * The characters a budget is first packed at, which also size what is offered for it (`replyLeadsFor`): a
 * character budget's own, a token budget's guessed from its tokens.
 */
export function startChars(budget: CharBudget | TokenBudget): number {
  return 'tokens' in budget ? budget.tokens * CHARS_PER_TOKEN_GUESS : budget.chars
}

/** A summary as a context needs it: whose, up to when, and its text. */
export interface SummaryInScope {
  conversationId: string
  throughTimestamp: number
  text: string
}

/**
 * The app's pins (`Memory.pin`): packed first, under `PINNED_HEADER`, since they change least from one request to
 * the next. Their sentences all go in when they fit together, else each in pin order if it fits (`packBudget`'s rule
 * for the items it is offered first).
 */
export interface PinnedSection {
  kind: 'pinned'
  /** The pinned messages' sentences, in pin order. */
  items: readonly ScoredSentence[]
}

/**
 * The scope's summaries (`Memory.setSummary`), after the pins. Chosen when the plan is made, newest first while they
 * fit together in their share of the budget (`summaryShare`, counted in the budget's unit, each alone), and shown
 * oldest first; then at packing each goes in whole if what the pins left holds it, or is named as left out.
 */
export interface SummariesSection {
  kind: 'summaries'
  /** Oldest first. */
  blocks: readonly SummaryBlock[]
  /** Conversations whose summary did not fit its share. */
  left: readonly string[]
  /** Conversations whose summary a forget dropped. */
  dropped: readonly string[]
}

/**
 * The turns the app asks for whatever they say (`recentTurns`), after the sections before the conversation: all of
 * their sentences when they fit together in what is left, else each newest first if it fits, even once the excerpts'
 * fill is reached. A pinned sentence is not offered again.
 */
export interface RecentSection {
  kind: 'recent'
  items: readonly ScoredSentence[]
}

/**
 * The excerpts: the candidates in the order the strategy ranks them, each taken if it fits in what is left, until the
 * text reaches `minFill` of it (`packBudget`). A pinned sentence is not offered again.
 */
export interface ExcerptsSection {
  kind: 'excerpts'
  /** Replayable when the budget is in tokens: every packing reads them again. */
  candidates: Iterable<ScoredSentence>
  /**
   * What a packing of the recent turns and excerpts becomes once made (`followUpdates` drops the marks whose newer
   * statement did not make it in); the identity otherwise.
   */
  settle: (pack: PackResult) => PackResult
}

/** A section before the conversation, each under its own header: the next such block is one more kind here. */
export type BeforeConversation = PinnedSection | SummariesSection

/**
 * A context's layout: its budget and its sections, in the order they take their share of it: those before the
 * conversation (`before`, in order), then the recent turns, then the excerpts in what is left.
 */
export interface ContextPlan {
  budget: Budget
  before: readonly BeforeConversation[]
  recent: RecentSection
  excerpts: ExcerptsSection
}

/** A packed plan: the text, its items (pinned ones first, then the rest in time order) and what each section took. */
export interface PlanPack extends SectionedPack {
  /** The characters the text was packed within: the budget's, or for tokens the last packing's. */
  chars: number
  /** What the text counts in the budget's tokens. */
  tokens?: number
}

/** What the plan is made from: the app's pins and summaries in the scope, the recent turns and the excerpts. */
export interface PlanParts {
  pinned: readonly ScoredSentence[]
  summaries?: { current: readonly SummaryInScope[]; dropped: readonly string[] }
  /** The share of the budget the summaries may take together; `false` leaves them out unnamed. */
  summaryShare: number | false
  recent: readonly ScoredSentence[]
  excerpts: ExcerptsSection
}

/**
 * The plan: a pinned section when something is pinned, a summaries section when the scope has a summary (or had
 * one a forget dropped), then the recent turns and the excerpts.
 */
export function planContext(budget: Budget, parts: PlanParts): ContextPlan {
  const before: BeforeConversation[] = []
  if (parts.pinned.length > 0) before.push({ kind: 'pinned', items: parts.pinned })
  const summaries = summariesSection(budget, parts)
  if (summaries) before.push(summaries)
  // A token budget packs the plan again at other sizes: its candidates are made once and replayed.
  const excerpts =
    'tokens' in budget ? { ...parts.excerpts, candidates: replayable(parts.excerpts.candidates) } : parts.excerpts
  return { budget, before, recent: { kind: 'recent', items: parts.recent }, excerpts }
}

/** The summaries that fit their share, newest first, in the budget's unit; `undefined` when there are none. */
function summariesSection(budget: Budget, parts: PlanParts): SummariesSection | undefined {
  const { summaryShare } = parts
  const current = summaryShare === false ? [] : (parts.summaries?.current ?? [])
  const dropped = parts.summaries?.dropped ?? []
  if (current.length === 0 && dropped.length === 0) return undefined
  const inTokens = 'tokens' in budget
  const share = summaryShare === false ? 0 : Math.floor(summaryShare * (inTokens ? budget.tokens : budget.chars))
  const size = (text: string) => (inTokens ? budget.count(text) : text.length)
  const blocks: SummaryBlock[] = []
  const left: string[] = []
  let taken = 0
  for (const block of current.map(summaryBlock).reverse()) {
    const cost = size(block.text)
    if (taken + cost <= share) {
      blocks.unshift(block)
      taken += cost
    } else left.unshift(block.conversationId)
  }
  return { kind: 'summaries', blocks, left, dropped }
}

/**
 * Packs `plan` within its budget: in characters, once; in tokens, by `packToTokens`, which packs the same plan at
 * other sizes (each stopping at `tokenPackFill` of them) until the whole text's count fits.
 */
export function packPlan(plan: ContextPlan, tuning: ContextTuning): PlanPack {
  const { budget } = plan
  if (!('tokens' in budget)) return { ...packPlanAt(plan, budget.chars), chars: budget.chars }
  const packer = {
    atChars: (chars: number) => packPlanAt(plan, chars, tuning.tokenPackFill),
    withItems: (items: readonly ScoredSentence[]) => renderPlanWith(plan, items),
    candidates: plan.excerpts.candidates,
  }
  const packing = packToTokens(packer, budget.count, budget.tokens, startChars(budget), tuning)
  return { ...packing.packed, chars: packing.chars, tokens: packing.tokens }
}

/**
 * The plan packed within `chars`, measured exactly as rendered: the sections before the conversation in order, each
 * by its rule, then the recent turns and the excerpts in what they left (`packBudget`, stopping at `minFill`).
 */
function packPlanAt(plan: ContextPlan, chars: number, minFill?: number): SectionedPack {
  const { before, excerpts } = plan
  const recent = plan.recent.items
  if (before.length === 0)
    return excerpts.settle(packBudget(excerpts.candidates, { budget: chars, offeredFirst: recent, minFill }))
  const pinned = pinnedOf(before)
  const pinnedPack = packBudget([], {
    budget: Math.max(0, chars - PINNED_HEADER.length - SECTION_BREAK.length),
    offeredFirst: pinned,
  })
  const sids = new Set(pinnedPack.items.map((item) => item.sid))
  const pinnedItems = pinned.filter((item) => sids.has(item.sid))
  let prefix = pinnedPack.used === 0 ? 0 : PINNED_HEADER.length + pinnedPack.used
  const summaries = summariesOf(before)
  const chosen: SummaryBlock[] = []
  const left = [...(summaries?.left ?? [])]
  for (const summary of summaries?.blocks ?? []) {
    const cost = (prefix === 0 ? 0 : SECTION_JOIN.length) + summary.text.length
    if (prefix + cost + SECTION_BREAK.length > chars) left.push(summary.conversationId)
    else {
      chosen.push(summary)
      prefix += cost
    }
  }
  const leaveOut = new Set(pinned.map((item) => item.sid))
  const rest = excerpts.settle(
    packBudget(leavingOut(excerpts.candidates, leaveOut), {
      budget: prefix === 0 ? chars : chars - prefix - SECTION_BREAK.length,
      offeredFirst: recent.filter((item) => !leaveOut.has(item.sid)),
      minFill,
    }),
  )
  const packed = summaries && { chosen, left, dropped: summaries.dropped }
  return layOut({ pinned, pinnedItems, ...(packed && { summaries: packed }) }, rest)
}

/** `items` (a selection already made, any order) laid out as the plan lays out its sections, whole. */
function renderPlanWith(plan: ContextPlan, items: readonly ScoredSentence[]): SectionedPack {
  const { before } = plan
  if (before.length === 0)
    return plan.excerpts.settle(packBudget([], { budget: Number.POSITIVE_INFINITY, offeredFirst: items }))
  const pinned = pinnedOf(before)
  const summaries = summariesOf(before)
  const pinnedSids = new Set(pinned.map((item) => item.sid))
  const chosenSids = new Set(items.map((item) => item.sid))
  const others = items.filter((item) => !pinnedSids.has(item.sid))
  const rest = packBudget([], { budget: Number.POSITIVE_INFINITY, offeredFirst: others })
  const pinnedItems = pinned.filter((item) => chosenSids.has(item.sid))
  const packed = summaries && { chosen: summaries.blocks, left: summaries.left, dropped: summaries.dropped }
  return layOut({ pinned, pinnedItems, ...(packed && { summaries: packed }) }, rest)
}

function pinnedOf(before: readonly BeforeConversation[]): readonly ScoredSentence[] {
  return before.find((section): section is PinnedSection => section.kind === 'pinned')?.items ?? []
}

function summariesOf(before: readonly BeforeConversation[]): SummariesSection | undefined {
  return before.find((section): section is SummariesSection => section.kind === 'summaries')
}

/** `candidates` without the sids of `leaveOut` (the pinned ones, already in their own section). */
function* leavingOut(candidates: Iterable<ScoredSentence>, leaveOut: ReadonlySet<number>): Generator<ScoredSentence> {
  for (const candidate of candidates) if (!leaveOut.has(candidate.sid)) yield candidate
}
