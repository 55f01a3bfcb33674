import type { PackResult } from '../../src/core/pack-budget'
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

/** The sections before the conversation as packed: what was offered and what went in. */
export interface PackedSections {
  /** Every pinned sentence offered, in pin order; none when nothing is pinned. */
  pinned: readonly ScoredSentence[]
  /** The pinned sentences that went in, in pin order. */
  pinnedItems: readonly ScoredSentence[]
  /** The summaries, when the scope has any (or had one a forget dropped): those that went in, oldest first, and not. */
  summaries?: { chosen: readonly SummaryBlock[]; left: readonly string[]; dropped: readonly string[] }
}

/** A packing with the sections before the conversation, and what each took. */
export interface SectionedPack extends PackResult {
  pinned?: PinnedStats
  summary?: SummaryStats
}

/**
 * The text: the pinned section, each summary, `SECTION_BREAK` and the rest, each only when it has lines, sections
 * joined by `SECTION_JOIN`; items are the pinned ones first, then the rest's in time order. Each section's stats count
 * it with the separator that follows it, so the pinned section's characters, the summaries' and the rest's add up to
 * the text's.
 */
export function layOut(sections: PackedSections, rest: PackResult): SectionedPack {
  const { pinned, pinnedItems, summaries } = sections
  const chosen = summaries?.chosen ?? []
  const pinnedText = renderContext(pinnedItems)
  const blocks = [...(pinnedText === '' ? [] : [PINNED_HEADER + pinnedText]), ...chosen.map((s) => s.text)]
  const separators = blocks.map((_, i) =>
    i < blocks.length - 1 ? SECTION_JOIN : rest.text === '' ? '' : SECTION_BREAK,
  )
  const text = blocks.map((block, i) => block + separators[i]).join('') + rest.text
  const inContext = new Set(pinnedItems.map((item) => item.sid))
  const pack: SectionedPack = { ...rest, items: [...pinnedItems, ...rest.items], text, used: text.length }
  if (pinned.length > 0) {
    const messages = [...new Set(pinnedItems.map((item) => item.messageId))]
    const left = [...new Set(pinned.filter((item) => !inContext.has(item.sid)).map((item) => item.messageId))]
    pack.pinned = { messages, chars: pinnedText === '' ? 0 : blocks[0].length + separators[0].length, left }
  }
  if (summaries) {
    const first = pinnedText === '' ? 0 : 1
    const chars = chosen.reduce((sum, _, i) => sum + blocks[first + i].length + separators[first + i].length, 0)
    pack.summary = {
      conversations: chosen.map((s) => s.conversationId),
      chars,
      left: [...summaries.left],
      dropped: [...summaries.dropped],
    }
  }
  return pack
}
