// Prints bench:perf's summary again from the JSON a run wrote (`--json OUT.json`), with today's summary code:
//   npx tsx bench/perf/report.ts OUT.json
// The figures are the run's own (its raw results); only the summary and the goal lines are computed again.
import { readFile } from 'node:fs/promises'
import { perfReport, type PerfRaw } from './perf-summary'
import { perfTable } from './perf-table'

const path = process.argv[2]
if (!path) {
  console.error('usage: npx tsx bench/perf/report.ts OUT.json (the --json file of a bench:perf run)')
  process.exit(2)
}
const saved = JSON.parse(await readFile(path, 'utf8')) as { raw: PerfRaw; meta: Record<string, unknown> }
console.log(perfTable(perfReport(saved.raw, saved.meta)))
