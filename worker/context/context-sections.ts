import type { PackResult } from '../../src/core/pack-budget'
import { formatUtcDate, onOneLine } from '../../src/core/render-context'
import type { ScoredSentence } from '../../src/core/scored-sentence'
import type { ContextSections, PinnedStats, SummaryStats } from '../../src/types'

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

/** A section before the conversation as packed: its blocks of text, the sentences they hold, its line in the stats. */
export interface PlacedSection {
  /** Each under its own header, in order. */
  blocks: readonly string[]
  /** Its sentences in the context: they come first in `items`, in the section's order. */
  items: readonly ScoredSentence[]
  /** Its entry in the stats, given the characters its blocks took with the separators after them. */
  stats(chars: number): Pick<SectionedPack, 'pinned' | 'summary'>
}

/** A packing with sections before the rest, and what each took. */
export interface SectionedPack extends PackResult {
  pinned?: PinnedStats
  summary?: SummaryStats
  /** Its text split at the conversation's header; absent for a packing without sections, all of whose text is the rest. */
  sections?: ContextSections
}

/**
 * The room the sections before the conversation share, in characters, block by block: each block costs its length
 * and the `SECTION_JOIN` before it, and the `SECTION_BREAK` after the last one is kept free, so that the whole text,
 * measured exactly as `layOut` renders it, stays within `chars`.
 */
export class SectionRoom {
  private used = 0

  constructor(private readonly chars: number) {}

  /** What a next block may take. */
  left(): number {
    return this.chars - this.used - this.join() - SECTION_BREAK.length
  }

  take(block: string): void {
    this.used += this.join() + block.length
  }

  /** What is left for the conversation's part, after the blocks taken and the break before it. */
  rest(): number {
    return this.used === 0 ? this.chars : this.chars - this.used - SECTION_BREAK.length
  }

  private join(): number {
    return this.used === 0 ? 0 : SECTION_JOIN.length
  }
}

/**
 * The text: each section's blocks, `SECTION_BREAK` and the rest, each only when it has lines, blocks joined by
 * `SECTION_JOIN`; items are the sections' first, then the rest's in time order. Each section's stats count its blocks
 * with the separator that follows each, so the sections' characters and the rest's add up to the text's. `sections`
 * holds the blocks and the rest apart, for a prompt that sends them in messages of their own.
 */
export function layOut(sections: readonly PlacedSection[], rest: PackResult): SectionedPack {
  const blocks = sections.flatMap((section, index) => section.blocks.map((text) => ({ text, index })))
  const separators = blocks.map((_, i) =>
    i < blocks.length - 1 ? SECTION_JOIN : rest.text === '' ? '' : SECTION_BREAK,
  )
  const text = blocks.map((block, i) => block.text + separators[i]).join('') + rest.text
  const chars = sections.map(() => 0)
  blocks.forEach((block, i) => {
    chars[block.index] += block.text.length + separators[i].length
  })
  const items = [...sections.flatMap((section) => section.items), ...rest.items]
  const stable = blocks.map((block) => block.text).join(SECTION_JOIN)
  const pack: SectionedPack = { ...rest, items, text, used: text.length, sections: { stable, excerpts: rest.text } }
  sections.forEach((section, index) => Object.assign(pack, section.stats(chars[index])))
  return pack
}
