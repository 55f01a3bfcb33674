// Figures of a soak run (bench/soak/run.ts): latency drift over the run, the integrity checks, and the table.
import { percentile } from '../shared/latency-summary'
import type { QueryRecord } from './soak-page'

export interface LatencyWindow {
  calls: number
  p50: number
  p95: number
}

export interface HeapFigures {
  /** Main-thread JS heap of each page after a forced collection (CDP `Runtime.getHeapUsage`), bytes. */
  pagesStart: number[]
  pagesEnd: number[]
  /** The pages and their workers (`performance.measureUserAgentSpecificMemory`), bytes; absent when not answered. */
  userAgentStart?: number
  userAgentEnd?: number
}

export interface SoakReport {
  date: string
  sentencesTarget: number
  sentencesAdded: number
  messagesAdded: number
  bursts: number
  forgets: number
  wallSeconds: number
  /** From the first add to `indexed()` resolving after the last: stored and embedded. */
  ingestSeconds: number
  sentencesPerSecond: number
  /** Every rejected call, by `method:code`. */
  errors: Record<string, number>
  errorCount: number
  /** Acknowledged and not forgotten, yet missing from the `full` context or from the raw `messages` store. */
  lostFromContext: number
  lostFromStore: number
  /** Forgotten (forget resolved 1), yet still in the `full` context or the raw store. */
  forgottenPresentInContext: number
  forgottenPresentInStore: number
  /** `stats().messages` minus what the run expects to be stored. */
  statsMessagesDelta: number
  /** forget({ id }) of a stored message that resolved with a count other than 1. */
  forgetMiscounts: number
  queries: number
  degradedQueries: number
  firstFifth: LatencyWindow
  lastFifth: LatencyWindow
  all: LatencyWindow
  byBudget: Record<string, LatencyWindow>
  heap: HeapFigures
  backend: string
  denseIndex: string
  lastFailure?: string
}

function latencyWindow(records: readonly QueryRecord[]): LatencyWindow {
  const ms = records.map((r) => r.ms)
  return { calls: ms.length, p50: percentile(ms, 50), p95: percentile(ms, 95) }
}

/** p50/p95 of the calls started in the first and in the last fifth of [start, end], and over all. */
export function latencyDrift(
  records: readonly QueryRecord[],
  start: number,
  end: number,
): Pick<SoakReport, 'firstFifth' | 'lastFifth' | 'all' | 'byBudget'> {
  const fifth = (end - start) / 5
  const byBudget: Record<string, LatencyWindow> = {}
  for (const budget of [...new Set(records.map((r) => r.budget))].sort((a, b) => a - b))
    byBudget[budget] = latencyWindow(records.filter((r) => r.budget === budget))
  return {
    firstFifth: latencyWindow(records.filter((r) => r.at >= start && r.at < start + fifth)),
    lastFifth: latencyWindow(records.filter((r) => r.at >= end - fifth && r.at <= end)),
    all: latencyWindow(records),
    byBudget,
  }
}

/** Ids of `expected` missing from `present`, and ids of `gone` found in it. */
export function compareIds(
  present: readonly string[],
  expected: Iterable<string>,
  gone: Iterable<string>,
): { lost: string[]; stillPresent: string[] } {
  const have = new Set(present)
  return { lost: [...expected].filter((id) => !have.has(id)), stillPresent: [...gone].filter((id) => have.has(id)) }
}

const mib = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${(bytes / 1048576).toFixed(1)} MiB`)
const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(0)} ms` : 'n/a')
const growth = (start: number | undefined, end: number | undefined) =>
  start === undefined || end === undefined
    ? 'n/a'
    : `${end >= start ? '+' : ''}${((end - start) / 1048576).toFixed(1)} MiB`

export function soakTable(report: SoakReport): string {
  const rows: [string, string][] = [
    [
      'sentences stored (target)',
      `${report.sentencesAdded} (${report.sentencesTarget}) in ${report.messagesAdded} messages, ${report.bursts} bursts`,
    ],
    ['forgets', String(report.forgets)],
    [
      'ingest (stored + embedded)',
      `${report.ingestSeconds.toFixed(1)} s, ${report.sentencesPerSecond.toFixed(1)} sentences/s`,
    ],
    ['wall time', `${report.wallSeconds.toFixed(1)} s`],
    ['errors (must be 0)', report.errorCount === 0 ? '0' : `${report.errorCount}: ${JSON.stringify(report.errors)}`],
    ['acknowledged lost: full context / raw store (must be 0)', `${report.lostFromContext} / ${report.lostFromStore}`],
    [
      'forgotten still present: full context / raw store (must be 0)',
      `${report.forgottenPresentInContext} / ${report.forgottenPresentInStore}`,
    ],
    ['stats().messages minus expected', String(report.statsMessagesDelta)],
    ['forget({ id }) not resolving 1', String(report.forgetMiscounts)],
    ['buildContext calls (degraded to lexical)', `${report.queries} (${report.degradedQueries})`],
    [
      'buildContext p50 / p95, first fifth',
      `${ms(report.firstFifth.p50)} / ${ms(report.firstFifth.p95)} (${report.firstFifth.calls} calls)`,
    ],
    [
      'buildContext p50 / p95, last fifth',
      `${ms(report.lastFifth.p50)} / ${ms(report.lastFifth.p95)} (${report.lastFifth.calls} calls)`,
    ],
    ['buildContext p50 / p95, whole run', `${ms(report.all.p50)} / ${ms(report.all.p95)}`],
    ...Object.entries(report.byBudget).map(([budget, w]): [string, string] => [
      `  budget ${budget}`,
      `${ms(w.p50)} / ${ms(w.p95)} (${w.calls} calls)`,
    ]),
    [
      'page heaps start → end (CDP, main threads)',
      report.heap.pagesStart
        .map(
          (start, i) => `${mib(start)} → ${mib(report.heap.pagesEnd[i])} (${growth(start, report.heap.pagesEnd[i])})`,
        )
        .join('; '),
    ],
    [
      'pages + workers start → end (measureUserAgentSpecificMemory)',
      `${mib(report.heap.userAgentStart)} → ${mib(report.heap.userAgentEnd)} (${growth(report.heap.userAgentStart, report.heap.userAgentEnd)})`,
    ],
    ['backend, dense index', `${report.backend}, ${report.denseIndex}`],
    ['last background failure', report.lastFailure ?? 'none'],
  ]
  const width = Math.max(...rows.map(([label]) => label.length))
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n')
}
