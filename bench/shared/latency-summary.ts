/** Median, 95th percentile and extremes of repeated measurements (nearest-rank percentiles). */
export interface LatencySummary {
  runs: number
  p50: number
  p95: number
  min: number
  max: number
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

export function summarize(values: readonly number[]): LatencySummary {
  return {
    runs: values.length,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    min: Math.min(...values),
    max: Math.max(...values),
  }
}

export function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length
}
