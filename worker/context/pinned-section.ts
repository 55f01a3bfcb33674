import { packBudget, type PackResult } from '../../src/core/pack-budget'
import { renderContext } from '../../src/core/render-context'
import type { ScoredSentence } from '../../src/core/scored-sentence'
import type { PinnedStats } from '../../src/types'

/** Opens the pinned messages' section, which comes first: it changes least from one request to the next. */
export const PINNED_HEADER = 'Pinned:\n'
/** Between the pinned section and the rest of the context, which then opens with its own header. */
export const SECTION_BREAK = '\n\nFrom the conversation:\n'

/** A packing with a section of pinned messages before the rest. */
export interface SectionedPack extends PackResult {
  /** The pinned sentences in the context, in pin order; `items` holds them first, then the rest in time order. */
  pinnedItems: ScoredSentence[]
  pinned: PinnedStats
}

/**
 * The pinned messages' sentences packed first, inside `chars` (all of them when they fit together, else each in pin
 * order if it fits: `packBudget`'s own rule for its first items), then `packRest` given what is left and the pinned
 * sids to leave out. The text is `PINNED_HEADER`, the pinned lines, `SECTION_BREAK` and the rest, each part only when
 * it has lines; it is measured exactly as it is rendered, so the whole stays within `chars`.
 */
export function packWithPins(
  pinned: readonly ScoredSentence[],
  chars: number,
  packRest: (chars: number, leaveOut: ReadonlySet<number>) => PackResult,
): SectionedPack {
  const section = packBudget([], { budget: Math.max(0, chars - PINNED_HEADER.length - SECTION_BREAK.length), pinned })
  const sids = new Set(section.items.map((item) => item.sid))
  const pinnedItems = pinned.filter((item) => sids.has(item.sid))
  const sectionChars = section.used === 0 ? 0 : PINNED_HEADER.length + section.used + SECTION_BREAK.length
  const rest = packRest(chars - sectionChars, new Set(pinned.map((item) => item.sid)))
  return sectioned(pinned, pinnedItems, rest)
}

/** `items` (pinned and other sentences, any order) laid out in sections, whole: for a selection already made. */
export function renderWithPins(pinned: readonly ScoredSentence[], items: readonly ScoredSentence[]): SectionedPack {
  const pinnedSids = new Set(pinned.map((item) => item.sid))
  const chosen = new Set(items.map((item) => item.sid))
  const others = items.filter((item) => !pinnedSids.has(item.sid))
  const rest = packBudget([], { budget: Infinity, pinned: others })
  return sectioned(
    pinned,
    pinned.filter((item) => chosen.has(item.sid)),
    rest,
  )
}

function sectioned(pinned: readonly ScoredSentence[], pinnedItems: ScoredSentence[], rest: PackResult): SectionedPack {
  const pinnedText = renderContext(pinnedItems)
  const text =
    pinnedText === '' ? rest.text : `${PINNED_HEADER}${pinnedText}${rest.text === '' ? '' : SECTION_BREAK + rest.text}`
  const inContext = new Set(pinnedItems.map((item) => item.sid))
  const messages = [...new Set(pinnedItems.map((item) => item.messageId))]
  const left = [...new Set(pinned.filter((item) => !inContext.has(item.sid)).map((item) => item.messageId))]
  return {
    ...rest,
    items: [...pinnedItems, ...rest.items],
    text,
    used: text.length,
    pinnedItems,
    pinned: { messages, chars: text.length - rest.text.length, left },
  }
}
