// What each part of a context took of its text, as rows for the stats list under it. The parts are sections and
// kinds of sentence the library marks: the pinned section (`stats.pinned`), the recent turns and the excerpts (the
// items' `reason`); what is left is the role labels, dates and gap marks between the lines.
import type { Context, ContextItem } from '../src/types'
import { formatCount, formatShare } from './dom'

/** What one part took: characters of `ctx.text`, and what it holds, in words. */
interface Share {
  chars: number
  detail: string
}

/** A part of a context: its name in the stats list, and its share, or undefined when the context has none of it. */
interface Part {
  name: string
  share(context: Context): Share | undefined
}

function plural(count: number, word: string): string {
  return `${formatCount(count)} ${word}${count === 1 ? '' : 's'}`
}

/**
 * The pinned section, header and the break after it included (`stats.pinned.chars`), as the library measured it.
 * It is there whenever the scope has pins, even when none fitted: a pin left out is never dropped silently.
 */
const pinned: Part = {
  name: 'pinned',
  share({ stats: { pinned } }) {
    if (pinned === undefined) return undefined
    const parts = [plural(pinned.messages.length, 'message')]
    if (pinned.left.length > 0) parts.push(`${formatCount(pinned.left.length)} pinned did not fit`)
    return { chars: pinned.chars, detail: parts.join(' · ') }
  },
}

/**
 * Sentences picked for one of `reasons`: their own characters (the labels of their lines are left to the last row,
 * since one line can hold sentences picked for different reasons).
 */
function sentences(name: string, reasons: readonly ContextItem['reason'][], unit: 'turn' | 'sentence'): Part {
  return {
    name,
    share({ items }) {
      const picked = items.filter((item) => reasons.includes(item.reason))
      if (picked.length === 0) return undefined
      const chars = picked.reduce((sum, item) => sum + item.text.length, 0)
      const messages = new Set(picked.map((item) => item.messageId)).size
      const detail =
        unit === 'turn'
          ? plural(messages, 'turn')
          : `${plural(picked.length, 'sentence')} from ${plural(messages, 'message')}`
      return { chars, detail }
    },
  }
}

/**
 * The summaries' section, headers and breaks included (`stats.summary.chars`): there whenever the scope has a summary
 * slot in use, so one left out (over its share) or dropped by a forget is said, not silent.
 */
const summary: Part = {
  name: 'summary',
  share({ stats: { summary } }) {
    if (summary === undefined) return undefined
    const count = summary.conversations.length
    const parts = [`${formatCount(count)} ${count === 1 ? 'summary' : 'summaries'}`]
    if (summary.left.length > 0) parts.push(`${formatCount(summary.left.length)} over its share, left out`)
    if (summary.dropped.length > 0) parts.push(`${formatCount(summary.dropped.length)} dropped by a forget`)
    return { chars: summary.chars, detail: parts.join(' · ') }
  },
}

/** The parts, in the order they come in the text. */
const PARTS: readonly Part[] = [
  pinned,
  summary,
  sentences('recent turns', ['recent'], 'turn'),
  sentences('excerpts', ['relevant', 'neighbor', 'update', 'position'], 'sentence'),
]

/**
 * Rows for the stats list: in a token budget, the tokens used of it; then each part present with its characters
 * and its share of the text; then the labels, dates and gap marks that make up the rest, so the rows add up to
 * `stats.used`.
 */
export function shareRows(context: Context): [string, string][] {
  const { stats } = context
  const rows: [string, string][] = []
  if (stats.tokens)
    rows.push([
      'tokens',
      `${formatCount(stats.tokens.used)} of ${formatCount(stats.tokens.budget)} (${stats.tokens.tokenizer})`,
    ])
  const row = (name: string, chars: number, detail: string): [string, string] => [
    name,
    `${formatCount(chars)} characters (${formatShare(chars, stats.used)}) · ${detail}`,
  ]
  let counted = 0
  for (const part of PARTS) {
    const share = part.share(context)
    if (share === undefined) continue
    counted += share.chars
    rows.push(row(part.name, share.chars, share.detail))
  }
  const rest = stats.used - counted
  if (rest > 0) rows.push(row('labels and gaps', rest, 'role labels, dates, gap and update marks'))
  return rows
}
