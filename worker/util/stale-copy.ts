/**
 * Items a saved copy of an index (the lexical snapshot, the coarse lists) may miss before it is written again: at
 * least `STALE_MIN`, and at least `STALE_SHARE` of all items. Open catches up on what the copy misses, while each
 * save rewrites the whole copy, so a chat adding one turn at a time must not trigger a save per turn.
 */
const STALE_MIN = 500
const STALE_SHARE = 0.02

/** Whether a saved copy that misses `missing` of `total` items is worth writing again. */
export function copyIsStale(missing: number, total: number): boolean {
  return missing > 0 && missing >= Math.max(STALE_MIN, STALE_SHARE * total)
}
