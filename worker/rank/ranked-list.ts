import type { ScoredSid } from '../index/scored-sid'
import type { ItemRanks } from '../../src/types'

/** An entry of a ranking: a sentence, its score there, and, in a fused ranking, its rank in each ranking fused. */
export interface RankedSid extends ScoredSid {
  ranks?: ItemRanks
}

/** One query's ranking, produced on demand: the packer usually stops after a few hundred of 100K entries. */
export interface RankedList {
  /** The entry at `position` (0-based), best first; undefined past the end. */
  at(position: number): RankedSid | undefined
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
