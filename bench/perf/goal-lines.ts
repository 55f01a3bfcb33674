import type { GoalLine, ScaleRow } from './perf-goals'

const number = (value: number) =>
  value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value >= 1 ? value.toFixed(2) : value.toFixed(3)
const amount = (value: number | undefined, unit: string) =>
  value === undefined || Number.isNaN(value)
    ? '—'
    : unit === 'bytes'
      ? `${(value / 1e6).toFixed(1)} MB`
      : unit === '/s'
        ? `${number(value)} sentences/s`
        : `${number(value)} ${unit}`
const times = (ratio: number | undefined) => (ratio === undefined ? '—' : `${number(ratio)}×`)

/** The goal block `bench:perf` prints: figure, its peer or floor, the ratio, the goal, and whether it is met. */
export function goalLines(goals: readonly GoalLine[]): string[] {
  if (goals.length === 0) return []
  const lines = ['Goals (issue 32), each a ratio of two figures of this run:']
  for (const g of goals) {
    const verdict = g.met === undefined ? 'not measured' : g.met ? 'met' : 'NOT met'
    lines.push(
      `  ${g.figure}: ${amount(g.value, g.unit)} ÷ ${amount(g.reference, g.unit)} (${g.against}) = ${times(g.ratio)}; goal ${g.goal.side === 'at least' ? '≥' : '≤'} ${g.goal.bound}×: ${verdict}${g.note ? ` (${g.note})` : ''}`,
    )
  }
  return lines
}

/** The large-size section: each figure at the base size and at the large size, and large ÷ base. */
export function scaleLines(scale: { base: number; large: number; rows: readonly ScaleRow[] } | undefined): string[] {
  if (!scale) return []
  const { base, large, rows } = scale
  const lines = [`Scale: ${large.toLocaleString('en-US')} sentences beside ${base.toLocaleString('en-US')}, same run:`]
  for (const r of rows)
    lines.push(
      `  ${r.figure.padEnd(46)} ${amount(r.base, r.unit).padEnd(20)} ${amount(r.large, r.unit).padEnd(20)} ${times(r.ratio)}`,
    )
  lines.push(
    '  (engine worker JS memory: measureUserAgentSpecificMemory of the product engine worker after the cold start’s first context)',
  )
  return lines
}
