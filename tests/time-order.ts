/** The messages in the order a memory treats as chronological: by timestamp, ties by the order of add. */
export function inTimeOrder<T extends { timestamp: number }>(added: readonly T[]): T[] {
  return added
    .map((m, i) => ({ m, i }))
    .sort((a, b) => a.m.timestamp - b.m.timestamp || a.i - b.i)
    .map(({ m }) => m)
}
