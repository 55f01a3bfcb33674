import { describe, expect, it } from 'vitest'
import { perfGoals, scaleRows, type SizeFigures } from '../../bench/perf/perf-goals'

// Figures chosen so that every ratio differs from its inverse and from its neighbours' (a swapped ratio is caught).
const figures: Record<number, SizeFigures> = {
  100000: {
    hybrid: { p50: 20, p95: 40 },
    dense: { p50: 2, p95: 10 },
    oramaHybrid: { p50: 100, p95: 160 },
    mememo: { p50: 8, p95: 20 },
    openMs: 900,
    coldStartMs: 1200,
    rawReadMs: 1000,
    loadSeconds: 200,
    loadSentencesPerSecond: 500,
    engineWorkerBytes: 130e6,
    codesBytes: 60e6,
    lexicalBytes: 40e6,
  },
  1000000: {
    hybrid: { p50: 60, p95: 200 },
    dense: { p50: 4, p95: 12 },
    openMs: 9000,
    coldStartMs: 15000,
    rawReadMs: 10000,
    loadSeconds: 2200,
    loadSentencesPerSecond: 450,
    engineWorkerBytes: 700e6,
    codesBytes: 300e6,
    lexicalBytes: 200e6,
  },
}

const byFigure = (lines: ReturnType<typeof perfGoals>) =>
  Object.fromEntries(lines.map((l) => [l.figure, { ratio: l.ratio, met: l.met }]))

describe('perfGoals', () => {
  it('computes every ratio the issue names, the right way round, with its met flag', () => {
    expect(byFigure(perfGoals(figures, 100000, 1000000))).toEqual({
      'Orama hybrid p50 ÷ Sift hybrid p50 at 100,000': { ratio: 5, met: true },
      'Orama hybrid p95 ÷ Sift hybrid p95 at 100,000': { ratio: 4, met: false },
      'MeMemo HNSW p50 ÷ Sift dense p50 at 100,000': { ratio: 4, met: true },
      'MeMemo HNSW p95 ÷ Sift dense p95 at 100,000': { ratio: 2, met: false },
      'Sift hybrid p50 ÷ Sift dense p50 at 100,000': { ratio: 10, met: false },
      'Sift hybrid p95 ÷ Sift dense p95 at 100,000': { ratio: 4, met: true },
      'cold start to the first context ÷ raw read of the records at 100,000': { ratio: 1.2, met: true },
      'cold start to the first context ÷ raw read of the records at 1,000,000': { ratio: 1.5, met: false },
      'Sift hybrid p95 at 1,000,000 ÷ at 100,000': { ratio: 5, met: false },
      'engine worker memory ÷ (int8 codes + lexical index) at 100,000': { ratio: 1.3, met: true },
      'engine worker memory ÷ (int8 codes + lexical index) at 1,000,000': { ratio: 1.4, met: false },
    })
  })

  it('leaves a goal unmet-and-unknown when a figure is missing, and the large-size goals out without a large size', () => {
    const withoutPeers = { 100000: { ...figures[100000], mememo: undefined } }
    const lines = perfGoals(withoutPeers, 100000)
    expect(lines.map((l) => l.figure)).toHaveLength(7)
    const mememo = lines.filter((l) => l.figure.startsWith('MeMemo'))
    expect(mememo.map((l) => [l.ratio, l.met])).toEqual([
      [undefined, undefined],
      [undefined, undefined],
    ])
  })

  it('says when a peer searched fewer rows than the size (its build stopped at the time limit)', () => {
    const partial = { 100000: { ...figures[100000], mememoRows: 67000, oramaRows: 100000 } }
    const notes = perfGoals(partial, 100000).map((l) => l.note)
    expect(notes.slice(0, 4)).toEqual([
      undefined,
      undefined,
      'MeMemo held 67,000 rows: its build stopped at the time limit',
      'MeMemo held 67,000 rows: its build stopped at the time limit',
    ])
  })
})

describe('scaleRows', () => {
  it('puts the large size beside the base with large ÷ base', () => {
    const rows = Object.fromEntries(scaleRows(figures, 100000, 1000000).map((r) => [r.figure, r.ratio]))
    expect(rows['hybrid p95']).toBe(5)
    expect(rows['open (createMemory resolved)']).toBe(10)
    expect(rows['load, time to reach the size (add + indexed)']).toBe(11)
    expect(rows['load rate of the last step']).toBe(0.9)
    expect(rows['engine worker JS memory']).toBeCloseTo(700 / 130)
  })
})
