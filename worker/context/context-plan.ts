// How a context shares its budget, in one place: the plan (its sections in the order they take their share: the app's
// pins, the summaries within `summaryShare`, the recent turns, the excerpts to `minFill`, each with its rule), how many
// replies the excerpts' leads bring for a budget (`replyLeadsFor`), and the one function that packs a plan, in
// characters, or in tokens by packing the same plan again until the whole text's count fits (`packPlan`). Only the
// heading's line (`context-heading.ts`) is taken off the budget before the plan is made.
import { packBudget, type PackResult } from '../../src/core/pack-budget'
import { renderContext } from '../../src/core/render-context'
import type { ScoredSentence } from '../../src/core/scored-sentence'
import type { TokenBudget } from '../../src/types'
import type { CharBudget } from '../input/context-request'
import {
  layOut,
  PINNED_HEADER,
  SectionRoom,
  summaryBlock,
  type PlacedSection,
  type SectionedPack,
  type SummaryBlock,
} from './context-sections'
import { CONTEXT_TUNING, type ContextTuning } from './context-tuning'
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

/**
 * How many of the best candidates lead (bring the reply to them even when they do not ask, `withAnswerNeighbours`),
 * for a budget of `chars` (a token budget's `startChars`): `replyLeads` up to `leadBudget` characters, then in
 * proportion (rounded): 3 at 2,000, 12 at 8,000. Not fewer below: fewer measured no better there. Each lead's reply
 * is one more candidate for the excerpts, so this is the excerpts' share spent on replies.
 */
export function replyLeadsFor(
  budget: number,
  tuning: Pick<ContextTuning, 'replyLeads' | 'leadBudget'> = CONTEXT_TUNING,
): number {
  const { replyLeads, leadBudget } = tuning
  return Math.max(replyLeads, Math.round((replyLeads * budget) / leadBudget))
}

/** A summary as a context needs it: whose, up to when, and its text. */
export interface SummaryInScope {
  conversationId: string
  throughTimestamp: number
  text: string
}

/**
 * A section before the conversation, under its own header, and its rule for taking a share of the budget. The
 * sections before the conversation are packed in the plan's order, each in the room the ones before it left; the
 * next kind of block (a fact block, tool results) is one more of these in `planContext`.
 */
export interface BeforeConversation {
  kind: string
  /** Its sentences, which the recent turns and the excerpts do not offer again. */
  sentences: readonly ScoredSentence[]
  /** Its blocks that fit in `room`, each taken as it goes in. */
  place(room: SectionRoom): PlacedSection
  /** Its blocks for a selection already made (`chosen`, by sid), whole. */
  whole(chosen: ReadonlySet<number>): PlacedSection
}

/**
 * The app's pins (`Memory.pin`): packed first, under `PINNED_HEADER`, since they change least from one request to
 * the next. Their sentences all go in when they fit together, else each in pin order if it fits (`packBudget`'s rule
 * for the items it is offered first).
 */
function pinnedSection(pinned: readonly ScoredSentence[]): BeforeConversation {
  const placed = (inContext: ReadonlySet<number>): PlacedSection => {
    const items = pinned.filter((item) => inContext.has(item.sid))
    const text = renderContext(items)
    return {
      blocks: text === '' ? [] : [PINNED_HEADER + text],
      items,
      stats: (chars) => ({
        pinned: {
          messages: [...new Set(items.map((item) => item.messageId))],
          chars,
          left: [...new Set(pinned.filter((item) => !inContext.has(item.sid)).map((item) => item.messageId))],
        },
      }),
    }
  }
  return {
    kind: 'pinned',
    sentences: pinned,
    place(room) {
      const budget = Math.max(0, room.left() - PINNED_HEADER.length)
      const packed = placed(new Set(packBudget([], { budget, offeredFirst: pinned }).items.map((item) => item.sid)))
      for (const block of packed.blocks) room.take(block)
      return packed
    },
    whole: placed,
  }
}

/**
 * The scope's summaries (`Memory.setSummary`), after the pins. Chosen when the plan is made, newest first while they
 * fit together in their share of the budget (`summaryShare`, counted in the budget's unit, each alone), and shown
 * oldest first; then at packing each goes in whole if the room the pins left holds it. One that does not fit is
 * named as left out (every one, in a share of 0), and only `summary: false` leaves them out unnamed.
 */
function summariesSection(budget: Budget, parts: PlanParts): BeforeConversation | undefined {
  const { summaryShare } = parts
  const current = summaryShare === false ? [] : (parts.summaries?.current ?? [])
  const dropped = parts.summaries?.dropped ?? []
  if (current.length === 0 && dropped.length === 0) return undefined
  const inTokens = 'tokens' in budget
  const share = summaryShare === false ? 0 : Math.floor(summaryShare * (inTokens ? budget.tokens : budget.chars))
  const size = (text: string) => (inTokens ? budget.count(text) : text.length)
  const shown: SummaryBlock[] = []
  const overShare: string[] = []
  let taken = 0
  for (const block of current.map(summaryBlock).reverse()) {
    const cost = size(block.text)
    if (taken + cost <= share) {
      shown.unshift(block)
      taken += cost
    } else overShare.unshift(block.conversationId)
  }
  const placed = (chosen: readonly SummaryBlock[], left: readonly string[]): PlacedSection => ({
    blocks: chosen.map((block) => block.text),
    items: [],
    stats: (chars) => ({
      summary: { conversations: chosen.map((s) => s.conversationId), chars, left: [...left], dropped: [...dropped] },
    }),
  })
  return {
    kind: 'summaries',
    sentences: [],
    place(room) {
      const chosen: SummaryBlock[] = []
      const left = [...overShare]
      for (const block of shown) {
        if (block.text.length > room.left()) left.push(block.conversationId)
        else {
          chosen.push(block)
          room.take(block.text)
        }
      }
      return placed(chosen, left)
    },
    whole: () => placed(shown, overShare),
  }
}

/**
 * The turns the app asks for whatever they say (`recentTurns`), after the sections before the conversation: all of
 * their sentences when they fit together in what is left, else each newest first if it fits, even once the excerpts'
 * fill is reached. A sentence of a section before the conversation is not offered again.
 */
export interface RecentSection {
  kind: 'recent'
  items: readonly ScoredSentence[]
}

/**
 * The excerpts: the candidates in the order the strategy ranks them, each taken if it fits in what is left, until the
 * text reaches `minFill` of it (`packBudget`). A sentence of a section before the conversation is not offered again.
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
  if (parts.pinned.length > 0) before.push(pinnedSection(parts.pinned))
  const summaries = summariesSection(budget, parts)
  if (summaries) before.push(summaries)
  // A token budget packs the plan again at other sizes: its candidates are made once and replayed.
  const excerpts =
    'tokens' in budget ? { ...parts.excerpts, candidates: replayable(parts.excerpts.candidates) } : parts.excerpts
  return { budget, before, recent: { kind: 'recent', items: parts.recent }, excerpts }
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
 * by its rule in the room the ones before it left, then the recent turns and the excerpts in what is left
 * (`packBudget`, stopping at `minFill`). Without sections before the conversation the text has no headers.
 */
function packPlanAt(plan: ContextPlan, chars: number, minFill?: number): SectionedPack {
  const { before, excerpts } = plan
  const recent = plan.recent.items
  if (before.length === 0)
    return excerpts.settle(packBudget(excerpts.candidates, { budget: chars, offeredFirst: recent, minFill }))
  const room = new SectionRoom(chars)
  const placed = before.map((section) => section.place(room))
  const leaveOut = new Set(before.flatMap((section) => section.sentences.map((item) => item.sid)))
  const rest = excerpts.settle(
    packBudget(leavingOut(excerpts.candidates, leaveOut), {
      budget: room.rest(),
      offeredFirst: recent.filter((item) => !leaveOut.has(item.sid)),
      minFill,
    }),
  )
  return layOut(placed, rest)
}

/** `items` (a selection already made, any order) laid out as the plan lays out its sections, whole. */
function renderPlanWith(plan: ContextPlan, items: readonly ScoredSentence[]): SectionedPack {
  const { before } = plan
  if (before.length === 0)
    return plan.excerpts.settle(packBudget([], { budget: Number.POSITIVE_INFINITY, offeredFirst: items }))
  const chosen = new Set(items.map((item) => item.sid))
  const inSections = new Set(before.flatMap((section) => section.sentences.map((item) => item.sid)))
  const others = items.filter((item) => !inSections.has(item.sid))
  const rest = packBudget([], { budget: Number.POSITIVE_INFINITY, offeredFirst: others })
  return layOut(
    before.map((section) => section.whole(chosen)),
    rest,
  )
}

/** `candidates` without the sids of `leaveOut` (those of the sections before the conversation). */
function* leavingOut(candidates: Iterable<ScoredSentence>, leaveOut: ReadonlySet<number>): Generator<ScoredSentence> {
  for (const candidate of candidates) if (!leaveOut.has(candidate.sid)) yield candidate
}
