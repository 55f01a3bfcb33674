import type { AnswerResults, AnswerShares } from './answer-tally'
import { RANDOM_PACKING } from './multilingual-recall'
import { QUESTION_KINDS } from './multilingual-set'

const percent = (share: number | undefined): string => (share === undefined ? '-' : `${(share * 100).toFixed(1)}%`)

/**
 * The multilingual table: one row per language × strategy × budget, with any-evidence recall and the
 * answer-in-context rate over all questions and per kind, and, for updates, how often only the stale value is there.
 */
export function renderAnswerTable(results: AnswerResults, defaultStrategy: string): string {
  const header = ['language', 'strategy', 'budget', 'n', 'any', 'answer', ...QUESTION_KINDS, 'stale-only']
  const rows = [header]
  for (const [language, byStrategy] of Object.entries(results)) {
    // The baseline after the strategies, which keep the order they were run in.
    const strategies = Object.entries(byStrategy).sort(
      ([a], [b]) => Number(a === RANDOM_PACKING) - Number(b === RANDOM_PACKING),
    )
    for (const [strategy, byBudget] of strategies) {
      for (const [budget, summary] of Object.entries(byBudget)) {
        rows.push([
          language,
          strategy === defaultStrategy ? `${strategy}*` : strategy,
          budget,
          String(summary.n),
          percent(summary.anyEvidence),
          percent(summary.answerInContext),
          ...QUESTION_KINDS.map((kind) => percent((summary.byKind[kind] as AnswerShares | undefined)?.answerInContext)),
          percent(summary.byKind.update?.staleOnly),
        ])
      }
    }
  }
  const widths = header.map((_, column) => Math.max(...rows.map((row) => row[column].length)))
  const lines = rows.map((row) =>
    row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  '),
  )
  lines.splice(1, 0, widths.map((width) => '-'.repeat(width)).join('  '))
  return (
    `${lines.join('\n')}\n* = default strategy; any = questions with an evidence message in the context; answer and ` +
    'the kind columns = the answer string in ctx.text; stale-only = updates whose context holds the superseded value ' +
    'and not the answer; random = the sentences packed in a random order (mean of several draws)\n'
  )
}
