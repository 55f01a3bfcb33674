// Test oracle: the plain definition of the round-robin over several queries' rankings that `rankCandidates`
// produces lazily.

/**
 * Round-robin accumulation of several queries' rankings: the 1st of each list, then the 2nd of each, and so on;
 * a key already taken is skipped. So no single query monopolises the budget, whatever its list length.
 */
export function interleaveRankings<K>(rankings: readonly (readonly K[])[]): K[] {
  const taken = new Set<K>()
  const longest = Math.max(0, ...rankings.map((ranking) => ranking.length))
  for (let position = 0; position < longest; position++) {
    for (const ranking of rankings) {
      if (position < ranking.length) taken.add(ranking[position])
    }
  }
  return [...taken]
}
