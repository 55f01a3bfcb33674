// The demo's logarithmic budget slider: every budget reachable, positions and budgets agree, readable numbers.
import { describe, expect, it } from 'vitest'
import { budgetAt, maxBudget, MIN_BUDGET, positionOf, SLIDER_STEPS } from '../../demo/budget-scale'

describe('budget scale', () => {
  it('spans the smallest budget to a little over the history, never under 2,000', () => {
    expect(maxBudget(0)).toBe(2000)
    expect(maxBudget(41_321)).toBe(49_600)
    const max = maxBudget(41_321)
    expect(budgetAt(0, max)).toBe(MIN_BUDGET)
    expect(budgetAt(SLIDER_STEPS, max)).toBe(max)
  })

  it('grows by the same factor per step, so small budgets get as much of the slider as large ones', () => {
    const max = maxBudget(100_000)
    const quarter = budgetAt(SLIDER_STEPS / 4, max)
    const half = budgetAt(SLIDER_STEPS / 2, max)
    const threeQuarters = budgetAt((3 * SLIDER_STEPS) / 4, max)
    // Equal factors up to the rounding to readable numbers.
    expect(Math.abs(half / quarter / (threeQuarters / half) - 1)).toBeLessThan(0.02)
    expect(half).toBeLessThan(max / 10)
  })

  it('rounds budgets to readable numbers and never goes backwards', () => {
    const max = maxBudget(60_000)
    let previous = 0
    for (let position = 0; position <= SLIDER_STEPS; position++) {
      const budget = budgetAt(position, max)
      expect(budget).toBeGreaterThanOrEqual(previous)
      expect(budget % (budget < 1000 ? 10 : budget < 10_000 ? 50 : 100)).toBe(0)
      previous = budget
    }
  })

  it('puts a budget back where the slider would show it', () => {
    const max = maxBudget(41_321)
    for (const position of [0, 1, 250, 500, 777, 1000])
      expect(Math.abs(positionOf(budgetAt(position, max), max) - position)).toBeLessThanOrEqual(2)
    expect(positionOf(1, max)).toBe(0)
    expect(positionOf(10 ** 9, max)).toBe(SLIDER_STEPS)
  })
})
