import { describe, expect, it } from 'vitest'
import { renderRecallTable } from '../../bench/recall/recall-report'
import { RecallTally, foundEvidence } from '../../bench/recall/recall-tally'

describe('foundEvidence', () => {
  it('keeps the evidence ids present in the context, in evidence order', () => {
    expect(foundEvidence(['a', 'b', 'c'], ['c', 'x', 'a', 'a'])).toEqual(['a', 'c'])
    expect(foundEvidence(['a'], [])).toEqual([])
  })
})

describe('RecallTally', () => {
  it('counts any/all evidence recall overall and per category, and averages size', () => {
    const tally = new RecallTally()
    tally.record({ category: 1, evidence: ['a', 'b'] }, ['a'], 100, 0.5)
    tally.record({ category: 1, evidence: ['a', 'b'] }, ['a', 'b'], 300, 1)
    tally.record({ category: 4, evidence: ['c'] }, [], 200, 0.75)
    tally.record({ category: 7, evidence: ['c'] }, ['c'], 200, 0.75)
    const summary = tally.summary()
    expect(summary).toMatchObject({ anyEvidence: 0.75, allEvidence: 0.5, n: 4, meanChars: 200, meanFill: 0.75 })
    expect(summary.byCategory).toEqual({
      'multi-hop': { anyEvidence: 1, allEvidence: 0.5, n: 2 },
      'single-hop': { anyEvidence: 0, allEvidence: 0, n: 1 },
      'category-7': { anyEvidence: 1, allEvidence: 1, n: 1 },
    })
  })

  it('refuses a question without evidence and summarises nothing as zeros', () => {
    const tally = new RecallTally()
    expect(() => tally.record({ category: 1, evidence: [] }, [], 0, 0)).toThrow(/without evidence/)
    expect(tally.summary()).toEqual({ anyEvidence: 0, allEvidence: 0, n: 0, meanChars: 0, meanFill: 0, byCategory: {} })
  })
})

describe('renderRecallTable', () => {
  it('prints one aligned row per strategy × budget and marks the default', () => {
    const tally = new RecallTally()
    tally.record({ category: 2, evidence: ['a'] }, ['a'], 1900, 0.95)
    const summary = tally.summary()
    const table = renderRecallTable({ hybrid: { 2000: summary, 8000: summary }, head: { 2000: summary } }, 'hybrid')
    const lines = table.trimEnd().split('\n')
    expect(lines[0]).toMatch(
      /^strategy\s+budget\s+any\s+all\s+chars\s+fill\s+n\s+multi-hop\s+temporal\s+open-domain\s+single-hop$/,
    )
    expect(lines.slice(2, 5).map((line) => line.split(/\s+/))).toEqual([
      ['hybrid*', '2000', '100.0%', '100.0%', '1900', '0.95', '1', '-', '100.0%', '-', '-'],
      ['hybrid*', '8000', '100.0%', '100.0%', '1900', '0.95', '1', '-', '100.0%', '-', '-'],
      ['head', '2000', '100.0%', '100.0%', '1900', '0.95', '1', '-', '100.0%', '-', '-'],
    ])
    expect(new Set(lines.slice(0, 5).map((line) => line.length)).size).toBe(1)
  })
})
