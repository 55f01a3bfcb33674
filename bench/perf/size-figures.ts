import { percentile } from '../shared/latency-summary'
import type { Percentiles, SizeFigures } from './perf-goals'
import type { ColdStartResult, LoadResult } from './perf-results'
import type { PerfRaw } from './perf-summary'

/** The summaries `perfReport` made of the run, keyed by size as a string. */
export interface SummarisedSizes {
  buildContext: Record<string, Percentiles>
  buildContextDense: Record<string, Percentiles>
  peers: Record<string, Record<string, Percentiles & { mode: string; built: number }>>
}

/** The size a load step was measured at: the size asked for, or the one reached when the time limit stopped it. */
export const measuredSize = (load: LoadResult): number => (load.timeLimited ? load.sentences : load.size)

/**
 * JS memory of the product's engine worker (the one `createMemory` starts, `worker/rpc/engine-worker.ts`) in a
 * measureUserAgentSpecificMemory result, found by its script's URL; undefined when not measured.
 */
export function engineWorkerBytes(memory: ColdStartResult['memory']): number | undefined {
  if (!('bytes' in memory)) return undefined
  const entries = memory.breakdown.filter((b) => /\/engine-worker[-.]/.test(b.url))
  return entries.length > 0 ? entries.reduce((sum, b) => sum + b.bytes, 0) : undefined
}

/** Each measured size's figures for perf-goals.ts, from the run's raw results and `perfReport`'s summaries. */
export function sizeFigures(raw: PerfRaw, summaries: SummarisedSizes): Record<number, SizeFigures> {
  const figures: Record<number, SizeFigures> = {}
  const at = (size: number) => {
    figures[size] ??= {}
    return figures[size]
  }
  const p50 = (values: number[]) => percentile(values, 50)
  let loadMs = 0
  for (const load of raw.loads) {
    loadMs += load.addMs + load.indexedMs
    const f = at(measuredSize(load))
    f.loadSeconds = loadMs / 1000
    f.loadSentencesPerSecond = load.added / ((load.addMs + load.indexedMs) / 1000)
  }
  for (const [size, s] of Object.entries(summaries.buildContext)) at(Number(size)).hybrid = pick(s)
  for (const [size, s] of Object.entries(summaries.buildContextDense)) at(Number(size)).dense = pick(s)
  for (const [size, p] of Object.entries(summaries.peers.orama ?? {}))
    if (p.mode === 'hybrid') Object.assign(at(Number(size)), { oramaHybrid: pick(p), oramaRows: p.built })
  for (const [size, p] of Object.entries(summaries.peers.mememo ?? {}))
    Object.assign(at(Number(size)), { mememo: pick(p), mememoRows: p.built })
  for (const c of raw.coldStarts) {
    const f = at(c.size)
    f.openMs = p50(c.runs.map((r) => r.openMs))
    f.coldStartMs = p50(c.runs.map((r) => r.totalMs))
    const floors = c.runs.flatMap((r) => (r.rawReadMs === undefined ? [] : [r.rawReadMs]))
    if (floors.length > 0) f.rawReadMs = p50(floors)
    f.engineWorkerBytes = engineWorkerBytes(c.memory)
  }
  for (const b of raw.indexBytes ?? []) {
    const f = at(b.size)
    f.codesBytes = b.codesBytes + b.scalesBytes
    f.lexicalBytes = b.lexicalBytes
  }
  return figures
}

const pick = ({ p50, p95 }: Percentiles): Percentiles => ({ p50, p95 })
