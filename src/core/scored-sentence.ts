import type { ContextItem, Sentence } from '../types'

/** A sentence as the packer and the renderer see it: where it sits in its conversation, and why it was picked. */
export interface ScoredSentence extends Sentence {
  /** Message position within its conversation (0-based): decides adjacency of message lines. */
  turn: number
  /** Its relevance score (`ContextItem.score`). */
  score: number
  /** Why it is in the context (`ContextItem.reason`). */
  reason: ContextItem['reason']
  /** Why a ranked candidate is there (`ContextItem.ranks`, `.fused`, `.query`); absent for the others. */
  ranks?: ContextItem['ranks']
  /** Its fusion score, `hybrid` only (`ContextItem.fused`). */
  fused?: number
  /** Which query found it (`ContextItem.query`). */
  query?: number
  /**
   * The message id of a later statement by the same speaker that supersedes this one (`ContextItem.supersededBy`):
   * rendered as a mark after the sentence (`SUPERSEDED_MARK`).
   */
  supersededBy?: string
}
