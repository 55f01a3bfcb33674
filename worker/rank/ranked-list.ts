import type { ScoredSid } from '../index/scored-sid'
/** One query's ranking, produced on demand: the packer usually stops after a few hundred of 100K entries. */
export interface RankedList {
  /** The entry at `position` (0-based), best first; undefined past the end. */
  at(position: number): ScoredSid | undefined
  /** The score `sid` has in this ranking, wherever it sits; undefined if it is not ranked. */
  scoreOf(sid: number): number | undefined
}

/** A ranking that is already a complete array, best first (lexical hits). */
export function listOf(hits: readonly ScoredSid[]): RankedList {
  let scores: Map<number, number> | undefined
  return {
    at: (position) => hits[position],
    scoreOf: (sid) => {
      scores ??= new Map(hits.map((h) => [h.sid, h.score]))
      return scores.get(sid)
    },
  }
}
