import type { Context, ContextItem } from '../src/types'
import { contextSegments } from './context-lines'
import { shareRows } from './context-shares'
import { definitionRows, formatCount, formatShare, make } from './dom'

/** Where a click on a context line or item leads: the picked sentence's place in the history. */
type RevealHandler = (messageId: string, start: number) => void

/** "relevant · score 0.0312 · lexical #3 · dense #7": why an item is in the context, for people to judge. */
function describeItem(item: ContextItem): string {
  const parts: string[] = [item.reason]
  if (item.score !== 0) parts.push(`score ${item.score.toPrecision(3)}`)
  if (item.ranks?.lexical !== undefined) parts.push(`lexical #${item.ranks.lexical}`)
  if (item.ranks?.dense !== undefined) parts.push(`dense #${item.ranks.dense}`)
  if (item.query !== undefined && item.query > 0) parts.push(`extra query ${item.query}`)
  if (item.supersededBy !== undefined) parts.push(`may be updated by ${item.supersededBy}`)
  return parts.join(' · ')
}

/**
 * The stats rows under a context: size (in a token budget, the tokens too), what each part took, share of the
 * history, fill, why packing stopped, time.
 */
function contextStatsRows(context: Context): [string, string][] {
  const { stats, items } = context
  const rows: [string, string][] = [
    [
      'characters',
      // In a token budget `stats.budget` is the size the packer was given to land on the token count, not a limit.
      stats.tokens
        ? `${formatCount(stats.used)} (packed to ${formatCount(stats.budget)} to fit the tokens)`
        : `${formatCount(stats.used)} of ${formatCount(stats.budget)}`,
    ],
    ...shareRows(context),
    [
      'share of history',
      `${formatShare(stats.used, stats.historyChars)} of ${formatCount(stats.historyChars)} characters`,
    ],
    ['fill', `${((stats.tokens ?? stats).fill * 100).toFixed(1)} %${stats.tokens ? ' of the tokens' : ''}`],
    ['stopped by', stats.stoppedBy],
    ['time', `${stats.ms.toFixed(1)} ms (request embedding ${stats.queryMs.toFixed(1)} ms)`],
    ['ranking', stats.degraded ? `${stats.ranking} (${stats.degraded})` : `${stats.ranking} on ${stats.backend}`],
    [
      'sentences',
      `${items.length} picked of ${formatCount(stats.candidatesConsidered)} looked at, ${formatCount(stats.historySentences)} in scope`,
    ],
  ]
  if (stats.pending > 0)
    rows.push(['not embedded yet', `${formatCount(stats.pending)} sentences (dense ranking misses them)`])
  return rows
}

export interface ContextView {
  show(context: Context): void
  /** The context on screen, for the copy button. */
  current(): Context | undefined
}

/**
 * The context exactly as it would be sent (each message line a link to its place in the history), its stats, and
 * each picked sentence with its score and why it was picked. Everything is replaced in one go when a new context
 * arrives, so the view never blanks while a slider moves.
 */
export function createContextView(
  parts: { text: HTMLPreElement; stats: HTMLDListElement; items: HTMLOListElement; count: HTMLElement },
  reveal: RevealHandler,
): ContextView {
  let shown: Context | undefined

  function line(segmentText: string, items: ContextItem[]): HTMLAnchorElement {
    const link = make('a', 'context-line', segmentText)
    link.dir = 'auto'
    link.href = `#turn-${items[0].seq}`
    link.title = items.map((item) => describeItem(item)).join('\n')
    link.addEventListener('click', (event) => {
      event.preventDefault()
      reveal(items[0].messageId, items[0].start)
    })
    return link
  }

  function itemEntry(item: ContextItem): HTMLLIElement {
    const entry = make('li', `item item-${item.reason}`)
    const button = make('button', 'item-link')
    button.type = 'button'
    const text = make('span', 'item-text', item.text)
    text.dir = 'auto'
    button.append(make('span', 'item-meta', `#${item.seq} ${item.role} · ${describeItem(item)}`), text)
    button.addEventListener('click', () => reveal(item.messageId, item.start))
    entry.append(button)
    return entry
  }

  return {
    show(context) {
      shown = context
      const segments = contextSegments(context.text, context.items)
      parts.text.replaceChildren(
        ...segments.map((segment) => (segment.items ? line(segment.text, segment.items) : segment.text)),
      )
      parts.text.classList.toggle('is-empty', context.text === '')
      parts.stats.replaceChildren(...definitionRows(contextStatsRows(context)))
      parts.items.replaceChildren(...context.items.map((item) => itemEntry(item)))
      parts.count.textContent = `(${context.items.length})`
    },
    current: () => shown,
  }
}

/** Copies the context on screen; where the clipboard is refused, selects the text so the user can copy it. */
export async function copyContext(
  text: HTMLPreElement,
  context: Context | undefined,
  status: HTMLElement,
): Promise<void> {
  if (!context) return
  try {
    await navigator.clipboard.writeText(context.text)
    status.textContent = `Copied ${formatCount(context.text.length)} characters.`
  } catch {
    const range = document.createRange()
    range.selectNodeContents(text)
    getSelection()?.removeAllRanges()
    getSelection()?.addRange(range)
    status.textContent = 'The browser refused the clipboard: the text is selected, press Ctrl+C (⌘C) to copy it.'
  }
}
