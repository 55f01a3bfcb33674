import { SUPERSEDED_MARK } from '../src/core/render-context'
import type { ContextItem } from '../src/types'

/** A piece of a context's text: a message line with the items it renders, or what lies between lines (`[…]`, newlines). */
export interface ContextSegment {
  text: string
  /** The picked sentences of the message this line renders; absent between lines. */
  items?: ContextItem[]
}

/**
 * Cuts a context's text into its message lines, each with the items it renders, so a click on a line can find its
 * place in the history. The text is rendered one line per message (label, then the message's picked sentences), in
 * the order of `items`, so each run of items of one message is found after the previous one; the segments joined
 * give the text back exactly. A text that does not match (not rendered by Sift) is one plain segment from there on.
 */
export function contextSegments(text: string, items: readonly ContextItem[]): ContextSegment[] {
  const segments: ContextSegment[] = []
  let cursor = 0
  for (const group of messageRuns(items)) {
    const first = text.indexOf(group[0].text, cursor)
    if (first < 0) break
    let end = first
    for (const item of group) {
      const at = text.indexOf(item.text, end)
      if (at < 0) break
      end = at + item.text.length
      // A superseded sentence is rendered with its mark after it, which belongs to its line even when it ends the line.
      if (item.supersededBy !== undefined && text.startsWith(SUPERSEDED_MARK, end)) end += SUPERSEDED_MARK.length
    }
    // The line starts after the last newline before its first sentence: labels ("user (8 May 2026): ") hold none.
    const lineStart = Math.max(cursor, text.lastIndexOf('\n', first - 1) + 1)
    if (lineStart > cursor) segments.push({ text: text.slice(cursor, lineStart) })
    segments.push({ text: text.slice(lineStart, end), items: group })
    cursor = end
  }
  if (cursor < text.length) segments.push({ text: text.slice(cursor) })
  return segments
}

/** Consecutive items of the same message (the same `seq`): one rendered line each. */
function messageRuns(items: readonly ContextItem[]): ContextItem[][] {
  const runs: ContextItem[][] = []
  for (const item of items) {
    const last = runs.at(-1)
    if (last && last[0].seq === item.seq) last.push(item)
    else runs.push([item])
  }
  return runs
}
