// The budget slider's scale. A history of 40,000 characters makes 1% a few hundred characters and 100% the whole
// history; on a linear slider the interesting small budgets would share a few pixels. The slider is logarithmic:
// each step multiplies the budget by the same factor, so 200 → 400 is as far as 10,000 → 20,000.

/** Slider positions from the smallest to the largest budget. */
export const SLIDER_STEPS = 1000
/** The smallest budget the slider offers: one or two sentences with their label. */
export const MIN_BUDGET = 100

/** The largest budget the slider offers: a little over the history (labels and dates add to it), at least 2,000. */
export function maxBudget(historyChars: number): number {
  return Math.max(2000, Math.ceil((historyChars * 1.2) / 100) * 100)
}

/** The budget at a slider position (0 … SLIDER_STEPS), rounded to a number people read easily. */
export function budgetAt(position: number, max: number): number {
  const raw = MIN_BUDGET * (max / MIN_BUDGET) ** (position / SLIDER_STEPS)
  const unit = raw < 1000 ? 10 : raw < 10_000 ? 50 : 100
  return Math.min(max, Math.max(MIN_BUDGET, Math.round(raw / unit) * unit))
}

/** The slider position nearest a budget (clamped to the slider's ends). */
export function positionOf(budget: number, max: number): number {
  const clamped = Math.min(max, Math.max(MIN_BUDGET, budget))
  return Math.round((Math.log(clamped / MIN_BUDGET) / Math.log(max / MIN_BUDGET)) * SLIDER_STEPS)
}
