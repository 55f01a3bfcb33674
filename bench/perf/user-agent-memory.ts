import type { ColdStartResult } from './perf-results'

interface UserAgentMemory {
  bytes: number
  breakdown: { bytes: number; types: string[]; attribution: { url?: string; scope?: string }[] }[]
}

/**
 * `performance.measureUserAgentSpecificMemory()` (the bench page is cross-origin isolated, which it needs): the JS
 * memory of the page and of each of its workers, attributed by script URL; or why it could not be measured.
 */
export async function measureUserAgentMemory(): Promise<ColdStartResult['memory']> {
  const measure = (performance as Performance & { measureUserAgentSpecificMemory?: () => Promise<UserAgentMemory> })
    .measureUserAgentSpecificMemory
  if (!measure)
    return { unavailable: 'performance.measureUserAgentSpecificMemory is not available (needs cross-origin isolation)' }
  try {
    const result = await measure.call(performance)
    return {
      bytes: result.bytes,
      breakdown: result.breakdown
        .filter((b) => b.bytes > 0)
        .map((b) => ({
          bytes: b.bytes,
          types: b.types,
          url: b.attribution.map((a) => a.url ?? a.scope ?? '').join(' '),
        })),
    }
  } catch (error) {
    return { unavailable: String(error) }
  }
}
