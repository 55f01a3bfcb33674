/**
 * Issue 32's goals, each a ratio of two figures of one `bench:perf` run: Sift against its peer (Orama, MeMemo), its
 * floor (a raw read of the records open reads; the bytes of its own indexes) or itself at a smaller size. Pure: the
 * figures in (`SizeFigures`, from perf-summary.ts by `sizeFigures`), the goal lines out.
 */

/** p50 and p95 of one latency, ms. */
export interface Percentiles {
  p50: number
  p95: number
}

/** What one size of a run measured that a goal reads; any may be missing (a step failed, a peer did not run). */
export interface SizeFigures {
  /** buildContext inside the worker, without the query embedding. */
  hybrid?: Percentiles
  dense?: Percentiles
  /** Orama's hybrid search and MeMemo's HNSW search over the same texts and vectors, inside their worker. */
  oramaHybrid?: Percentiles
  mememo?: Percentiles
  /** Rows each peer held when searched: fewer than the size when its build stopped at the time limit. */
  oramaRows?: number
  mememoRows?: number
  /** p50 of the cold start's repeats: `createMemory` to resolved, to the first context, and the raw read of the store. */
  openMs?: number
  coldStartMs?: number
  rawReadMs?: number
  /** Seconds the loads took to bring the store to this size (add + indexed, every step so far), and this step's rate. */
  loadSeconds?: number
  loadSentencesPerSecond?: number
  /** The product engine worker's JS memory after the cold start's first context (measureUserAgentSpecificMemory). */
  engineWorkerBytes?: number
  /** The int8 codes (with their scales) and the saved lexical index, as stored (index-bytes.ts). */
  codesBytes?: number
  lexicalBytes?: number
}

/** One goal: `ratio` = `value` ÷ `reference`, met when it is on the goal's side of `bound`. */
export interface GoalLine {
  figure: string
  value?: number
  reference?: number
  against: string
  unit: 'ms' | 'bytes'
  ratio?: number
  /** 'at least': the ratio must reach `bound` (a speed-up over a peer); 'at most': stay within it (a cost). */
  goal: { side: 'at least' | 'at most'; bound: number }
  /** Undefined when a figure is missing. */
  met?: boolean
  /** What qualifies the ratio: a peer searched over fewer rows than Sift. */
  note?: string
}

/** Issue 32's bounds (its "What to reach"). */
export const GOALS = {
  /** Orama's hybrid time ÷ Sift's hybrid time at 100K, at p50 and at p95. */
  hybridOverOrama: 5,
  /** MeMemo's HNSW time ÷ Sift's dense time at 100K. */
  denseOverMememo: 3,
  /** Sift's hybrid time ÷ its dense time. */
  hybridWithinDense: 5,
  /** Cold start to the first context ÷ the raw read of the same records. */
  coldStartOverFloor: 1.3,
  /** hybrid p95 at the large size ÷ at 100K. */
  hybridP95Growth: 4,
  /** The engine worker's memory ÷ (int8 codes + the lexical index's own size), at the large size. */
  workerOverIndexes: 1.3,
}

function line(
  figure: string,
  value: number | undefined,
  against: string,
  reference: number | undefined,
  unit: GoalLine['unit'],
  goal: GoalLine['goal'],
): GoalLine {
  const known = value !== undefined && reference !== undefined && reference > 0 && value > 0
  const ratio = known ? value / reference : undefined
  const met = ratio === undefined ? undefined : goal.side === 'at least' ? ratio >= goal.bound : ratio <= goal.bound
  return { figure, value, reference, against, unit, ratio, goal, met }
}

const withNote = (goal: GoalLine, note: string | undefined): GoalLine => (note ? { ...goal, note } : goal)
const atLeast = (bound: number) => ({ side: 'at least' as const, bound })
const atMost = (bound: number) => ({ side: 'at most' as const, bound })
const count = (n: number) => n.toLocaleString('en-US')

/**
 * The goals at the peers' size `base` (100,000 in the issue) and, when the run has one, at its largest size `large`
 * against `base`. A speed-up goal's ratio is the peer's time over Sift's (above 1: Sift is faster); a cost goal's is
 * Sift's figure over its reference (below the bound: met).
 */
export function perfGoals(figures: Readonly<Record<number, SizeFigures>>, base: number, large?: number): GoalLine[] {
  const at = figures[base] ?? {}
  // Each latency goal at p50 and at p95: [figure, its reference, goal, the peer's rows].
  const latencyGoals: [string, Percentiles | undefined, string, Percentiles | undefined, GoalLine['goal'], number?][] =
    [
      ['Orama hybrid', at.oramaHybrid, 'Sift hybrid', at.hybrid, atLeast(GOALS.hybridOverOrama), at.oramaRows],
      ['MeMemo HNSW', at.mememo, 'Sift dense', at.dense, atLeast(GOALS.denseOverMememo), at.mememoRows],
      ['Sift hybrid', at.hybrid, 'Sift dense', at.dense, atMost(GOALS.hybridWithinDense)],
    ]
  const lines: GoalLine[] = []
  for (const [name, value, against, reference, goal, peerRows] of latencyGoals)
    for (const p of ['p50', 'p95'] as const)
      lines.push(
        withNote(
          line(
            `${name} ${p} ÷ ${against} ${p} at ${count(base)}`,
            value?.[p],
            `${against} ${p}`,
            reference?.[p],
            'ms',
            goal,
          ),
          peerRows !== undefined && peerRows < base
            ? `${name.split(' ')[0]} held ${count(peerRows)} rows: its build stopped at the time limit`
            : undefined,
        ),
      )
  for (const size of large === undefined ? [base] : [base, large]) {
    const f = figures[size] ?? {}
    lines.push(
      line(
        `cold start to the first context ÷ raw read of the records at ${count(size)}`,
        f.coldStartMs,
        'raw-read floor',
        f.rawReadMs,
        'ms',
        atMost(GOALS.coldStartOverFloor),
      ),
    )
  }
  if (large === undefined) return lines
  const big = figures[large] ?? {}
  lines.push(
    line(
      `Sift hybrid p95 at ${count(large)} ÷ at ${count(base)}`,
      big.hybrid?.p95,
      `hybrid p95 at ${count(base)}`,
      at.hybrid?.p95,
      'ms',
      atMost(GOALS.hybridP95Growth),
    ),
  )
  for (const size of [base, large]) {
    const f = figures[size] ?? {}
    const indexes =
      f.codesBytes !== undefined && f.lexicalBytes !== undefined ? f.codesBytes + f.lexicalBytes : undefined
    lines.push(
      line(
        `engine worker memory ÷ (int8 codes + lexical index) at ${count(size)}`,
        f.engineWorkerBytes,
        'int8 codes + lexical index',
        indexes,
        'bytes',
        atMost(GOALS.workerOverIndexes),
      ),
    )
  }
  return lines
}

/** One row of the scale section: a figure at `base` and at the large size, and large ÷ base. */
export interface ScaleRow {
  figure: string
  unit: 'ms' | 's' | 'bytes' | '/s'
  base?: number
  large?: number
  ratio?: number
}

/** The large size beside `base`: load, open, cold start, buildContext and memory, each with large ÷ base. */
export function scaleRows(figures: Readonly<Record<number, SizeFigures>>, base: number, large: number): ScaleRow[] {
  const a = figures[base] ?? {}
  const b = figures[large] ?? {}
  const row = (figure: string, unit: ScaleRow['unit'], pick: (f: SizeFigures) => number | undefined): ScaleRow => {
    const x = pick(a)
    const y = pick(b)
    return { figure, unit, base: x, large: y, ratio: x !== undefined && y !== undefined && x > 0 ? y / x : undefined }
  }
  return [
    row('load, time to reach the size (add + indexed)', 's', (f) => f.loadSeconds),
    row('load rate of the last step', '/s', (f) => f.loadSentencesPerSecond),
    row('open (createMemory resolved)', 'ms', (f) => f.openMs),
    row('cold start to the first context', 'ms', (f) => f.coldStartMs),
    row('raw read of the records', 'ms', (f) => f.rawReadMs),
    row('hybrid p50', 'ms', (f) => f.hybrid?.p50),
    row('hybrid p95', 'ms', (f) => f.hybrid?.p95),
    row('dense p50', 'ms', (f) => f.dense?.p50),
    row('dense p95', 'ms', (f) => f.dense?.p95),
    row('engine worker JS memory', 'bytes', (f) => f.engineWorkerBytes),
    row('int8 codes + scales', 'bytes', (f) => f.codesBytes),
    row('lexical index (serialised)', 'bytes', (f) => f.lexicalBytes),
  ]
}
