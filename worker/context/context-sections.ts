import { packBudget, type PackResult } from '../../src/core/pack-budget'
import { formatUtcDate, onOneLine, renderContext } from '../../src/core/render-context'
import type { ScoredSentence } from '../../src/core/scored-sentence'
import type { PinnedStats, SummaryStats } from '../../src/types'

/** Opens the pinned messages' section, which comes first: it changes least from one request to the next. */
export const PINNED_HEADER = 'Pinned:\n'
/** Between the sections before the conversation (pinned, each summary) and the rest, which then opens with its own header. */
export const SECTION_BREAK = '\n\nFrom the conversation:\n'
/** Between two sections before the conversation. */
export const SECTION_JOIN = '\n\n'

/**
 * A conversation's summary as a context shows it: its own header (up to when it covers), then the app's text on the
 * one line after it (`onOneLine`), so that no line of the summary can pass for a header or a dated turn.
 */
export interface SummaryBlock {
  conversationId: string
  text: string
}

export function summaryBlock(summary: {
  conversationId: string
  text: string
  throughTimestamp: number
}): SummaryBlock {
  const date = formatUtcDate(summary.throughTimestamp)
  return {
    conversationId: summary.conversationId,
    text: `Summary of the conversation${date === '' ? '' : ` up to ${date}`}:\n${onOneLine(summary.text)}`,
  }
}

/** What goes before the conversation: the pinned messages' sentences (pin order) and the summaries chosen for it. */
export interface Sections {
  pinned: readonly ScoredSentence[]
  /** Oldest first; each whole or not at all. */
  summaries: readonly SummaryBlock[]
  /** Conversations whose summary was left out before packing (over its share of the budget) or dropped by a forget. */
  summariesLeft: readonly string[]
  summariesDropped: readonly string[]
}

/** A packing with sections before the rest. */
export interface SectionedPack extends PackResult {
  /** The pinned sentences in the context, in pin order; `items` holds them first, then the rest in time order. */
  pinnedItems: ScoredSentence[]
  pinned?: PinnedStats
  summary?: SummaryStats
}

/**
 * The sections packed first, inside `chars`, in priority order: the pinned messages' sentences (all of them when they
 * fit together, else each in pin order if it fits: `packBudget`'s own rule for its first items), then each summary
 * whole if what is left holds it; then `packRest` given what is left and the pinned sids to leave out. Measured
 * exactly as rendered (`layOut`), so the whole stays within `chars`.
 */
export function packWithSections(
  sections: Sections,
  chars: number,
  packRest: (chars: number, leaveOut: ReadonlySet<number>) => PackResult,
): SectionedPack {
  const { pinned } = sections
  const pinnedPack = packBudget([], {
    budget: Math.max(0, chars - PINNED_HEADER.length - SECTION_BREAK.length),
    pinned,
  })
  const sids = new Set(pinnedPack.items.map((item) => item.sid))
  const pinnedItems = pinned.filter((item) => sids.has(item.sid))
  let prefix = pinnedPack.used === 0 ? 0 : PINNED_HEADER.length + pinnedPack.used
  const summaries: SummaryBlock[] = []
  const left = [...sections.summariesLeft]
  for (const summary of sections.summaries) {
    const cost = (prefix === 0 ? 0 : SECTION_JOIN.length) + summary.text.length
    if (prefix + cost + SECTION_BREAK.length > chars) left.push(summary.conversationId)
    else {
      summaries.push(summary)
      prefix += cost
    }
  }
  const rest = packRest(prefix === 0 ? chars : chars - prefix - SECTION_BREAK.length, new Set(pinned.map((i) => i.sid)))
  return layOut(sections, pinnedItems, summaries, left, rest)
}

/** `items` (pinned and other sentences, any order) laid out in sections, whole: for a selection already made. */
export function renderWithSections(sections: Sections, items: readonly ScoredSentence[]): SectionedPack {
  const pinnedSids = new Set(sections.pinned.map((item) => item.sid))
  const chosen = new Set(items.map((item) => item.sid))
  const others = items.filter((item) => !pinnedSids.has(item.sid))
  const rest = packBudget([], { budget: Infinity, pinned: others })
  const pinnedItems = sections.pinned.filter((item) => chosen.has(item.sid))
  return layOut(sections, pinnedItems, sections.summaries, [...sections.summariesLeft], rest)
}

/**
 * The text: the pinned section, each summary, `SECTION_BREAK` and the rest, each only when it has lines, sections
 * joined by `SECTION_JOIN`. Each section's stats count it with the separator that follows it, so the pinned
 * section's characters, the summaries' and the rest's add up to the text's.
 */
function layOut(
  sections: Sections,
  pinnedItems: ScoredSentence[],
  summaries: readonly SummaryBlock[],
  summariesLeft: string[],
  rest: PackResult,
): SectionedPack {
  const pinnedText = renderContext(pinnedItems)
  const blocks = [...(pinnedText === '' ? [] : [PINNED_HEADER + pinnedText]), ...summaries.map((s) => s.text)]
  const separators = blocks.map((_, i) =>
    i < blocks.length - 1 ? SECTION_JOIN : rest.text === '' ? '' : SECTION_BREAK,
  )
  const text = blocks.map((block, i) => block + separators[i]).join('') + rest.text
  const inContext = new Set(pinnedItems.map((item) => item.sid))
  const pack: SectionedPack = { ...rest, items: [...pinnedItems, ...rest.items], text, used: text.length, pinnedItems }
  if (sections.pinned.length > 0) {
    const messages = [...new Set(pinnedItems.map((item) => item.messageId))]
    const left = [...new Set(sections.pinned.filter((item) => !inContext.has(item.sid)).map((item) => item.messageId))]
    pack.pinned = { messages, chars: pinnedText === '' ? 0 : blocks[0].length + separators[0].length, left }
  }
  if (sections.summaries.length + sections.summariesLeft.length + sections.summariesDropped.length > 0) {
    const first = pinnedText === '' ? 0 : 1
    const chars = summaries.reduce((sum, _, i) => sum + blocks[first + i].length + separators[first + i].length, 0)
    pack.summary = {
      conversations: summaries.map((s) => s.conversationId),
      chars,
      left: summariesLeft,
      dropped: [...sections.summariesDropped],
    }
  }
  return pack
}
