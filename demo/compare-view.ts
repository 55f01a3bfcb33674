import type { Context, ContextItem, Memory, Strategy } from '../src/types'
import { contextOptions, STRATEGIES, type AskSettings } from './ask-controls'
import { describeError, element, formatCount, formatShare, make } from './dom'

/** One side of a comparison: a strategy at a budget. */
interface Side {
  name: 'A' | 'B'
  strategy: Strategy
  budget: number
}

function sentenceKey(item: ContextItem): string {
  return `${item.messageId}:${item.start}`
}

/** Which picked sentences of `context` the other context did not pick. */
function onlyIn(context: Context, other: Context): Set<string> {
  const otherKeys = new Set(other.items.map(sentenceKey))
  return new Set(context.items.map(sentenceKey).filter((key) => !otherKeys.has(key)))
}

/** One column: its settings, stats, and what it picked, message by message, with what only it picked marked. */
function sideColumn(side: Side, context: Context, only: Set<string>): HTMLElement {
  const column = make('section', 'compare-side')
  column.setAttribute('aria-label', `Side ${side.name}`)
  const { stats } = context
  column.append(
    make('h3', undefined, `${side.name} · ${side.strategy} · ${formatCount(side.budget)} characters`),
    make(
      'p',
      'compare-stats',
      `${formatCount(stats.used)} used (fill ${(stats.fill * 100).toFixed(0)} %, ${formatShare(stats.used, stats.historyChars)} of history) · stopped by ${stats.stoppedBy} · ${stats.ms.toFixed(1)} ms`,
    ),
    make(
      'p',
      'compare-count',
      `${context.items.length} sentences from ${new Set(context.items.map((item) => item.messageId)).size} messages; ${only.size} only in ${side.name}`,
    ),
  )
  const turns = make('ol', 'compare-turns')
  let entry: HTMLLIElement | undefined
  let seq: number | undefined
  for (const item of context.items) {
    if (item.seq !== seq || !entry) {
      seq = item.seq
      entry = make('li')
      entry.append(make('span', 'turn-seq', `#${item.seq} `), make('strong', 'role', item.role), ': ')
      turns.append(entry)
    } else entry.append(' ')
    const isOnly = only.has(sentenceKey(item))
    const sentence = make('span', isOnly ? 'compare-only' : 'compare-shared', item.text)
    sentence.dir = 'auto'
    if (isOnly) sentence.title = `Only in ${side.name}`
    entry.append(sentence)
  }
  column.append(turns)
  return column
}

/**
 * Compare: the Ask request built twice, with two strategies or two budgets, shown side by side with what each picked
 * and what only one of them picked.
 */
export function createCompareView(memory: Memory, settings: () => AskSettings): void {
  const form = element<HTMLFormElement>('compare-form')
  const results = element<HTMLDivElement>('compare-results')
  const button = element<HTMLButtonElement>('compare')
  const fields = (name: 'a' | 'b') => ({
    strategy: element<HTMLSelectElement>(`compare-${name}-strategy`),
    budget: element<HTMLInputElement>(`compare-${name}-budget`),
  })
  const a = fields('a')
  const b = fields('b')
  for (const { strategy } of [a, b])
    strategy.replaceChildren(...STRATEGIES.map((name) => make('option', undefined, name)))

  /** Starts from the Ask settings at page load: A as asked, B the same budget with another ranking. */
  function reset(): void {
    const { strategy, budget } = settings()
    a.strategy.value = strategy
    b.strategy.value = strategy === 'lexical' ? 'dense' : 'lexical'
    a.budget.value = b.budget.value = String(budget)
  }

  async function compare(): Promise<void> {
    const asked = settings()
    const sides: Side[] = [
      {
        name: 'A',
        strategy: a.strategy.value as Strategy,
        budget: Math.max(1, Math.round(Number(a.budget.value)) || asked.budget),
      },
      {
        name: 'B',
        strategy: b.strategy.value as Strategy,
        budget: Math.max(1, Math.round(Number(b.budget.value)) || asked.budget),
      },
    ]
    const contexts: Context[] = []
    for (const side of sides)
      contexts.push(
        await memory.buildContext(asked.request, contextOptions({ ...asked, strategy: side.strategy }, side.budget)),
      )
    results.replaceChildren(
      sideColumn(sides[0], contexts[0], onlyIn(contexts[0], contexts[1])),
      sideColumn(sides[1], contexts[1], onlyIn(contexts[1], contexts[0])),
    )
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    button.disabled = true
    results.setAttribute('aria-busy', 'true')
    compare()
      .catch((error: unknown) => results.replaceChildren(make('p', 'error', describeError(error))))
      .finally(() => {
        button.disabled = false
        results.removeAttribute('aria-busy')
      })
  })
  reset()
}
