import { CATEGORY_NAMES, type RecallSummary } from './recall-tally'

/** Results keyed by strategy, then budget (as a string, like the JSON output). */
export type RecallResults = Record<string, Record<string, RecallSummary>>

const percent = (share: number): string => `${(share * 100).toFixed(1)}%`

/** A fixed-width text table: one row per strategy × budget; per-category columns are any-evidence recall. */
export function renderRecallTable(results: RecallResults, defaultStrategy: string): string {
  const categories = Object.values(CATEGORY_NAMES)
  const header = ['strategy', 'budget', 'any', 'all', 'chars', 'fill', 'n', ...categories]
  const rows = [header]
  for (const [strategy, byBudget] of Object.entries(results)) {
    const label = strategy === defaultStrategy ? `${strategy}*` : strategy
    for (const [budget, summary] of Object.entries(byBudget)) {
      rows.push([
        label,
        budget,
        percent(summary.anyEvidence),
        percent(summary.allEvidence),
        Math.round(summary.meanChars).toString(),
        summary.meanFill.toFixed(2),
        summary.n.toString(),
        ...categories.map((name) => (summary.byCategory[name] ? percent(summary.byCategory[name].anyEvidence) : '-')),
      ])
    }
  }
  const widths = header.map((_, column) => Math.max(...rows.map((row) => row[column].length)))
  const lines = rows.map((row) =>
    row.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  '),
  )
  lines.splice(1, 0, widths.map((width) => '-'.repeat(width)).join('  '))
  return `${lines.join('\n')}\n* = default strategy; any/all = questions with at least one / every evidence turn in the context; category columns = any\n`
}
