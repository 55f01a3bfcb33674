import type { ScoredSid } from '../scored-sid'
import type { Bm25Matches } from './bm25-index'

/** Where each turn's sentences are: `members[start[key] … start[key] + count[key])` are the sids of turn `key`. */
export interface TurnMembers {
  start: Int32Array
  count: Int32Array
  members: Int32Array
}

/**
 * A search's sentence scores blended with their turns' (`LexicalTuning.turnShare`): a sentence scores
 * `(1 - share) × its own BM25 + share × its turn's`, and a sentence whose turn matches is a hit even when its own
 * text is not. The scratch arrays, indexed by sid, are kept across searches (a serial marks which search set a slot),
 * so a search allocates only its hits.
 */
export class TurnBlend {
  private blended = new Float64Array(0)
  private blendSerial = new Int32Array(0)
  private blendOrder = new Int32Array(0)
  private searchSerial = 0

  /** The `limit` best blended hits, best first (ties: older first); `isSentence` says which turn members are indexed. */
  blend(
    own: Bm25Matches,
    turns: Bm25Matches,
    turnShare: number,
    layout: TurnMembers,
    isSentence: (sid: number) => boolean,
    sidBound: number,
    limit: number,
  ): ScoredSid[] {
    let slots = sidBound
    for (let i = 0; i < own.count; i++) slots = Math.max(slots, own.keys[i] + 1)
    if (slots > this.blended.length) this.resize(slots)
    const { blended, blendSerial, blendOrder } = this
    const serial = ++this.searchSerial
    let count = 0
    for (let i = 0; i < own.count; i++) {
      const sid = own.keys[i]
      blendSerial[sid] = serial
      blended[sid] = (1 - turnShare) * own.scores[i]
      blendOrder[count++] = sid
    }
    const { start, count: sizes, members } = layout
    for (let i = 0; i < turns.count; i++) {
      const share = turnShare * turns.scores[i]
      const key = turns.keys[i]
      for (let at = start[key], end = at + sizes[key]; at < end; at++) {
        const sid = members[at]
        if (blendSerial[sid] === serial) blended[sid] += share
        else if (isSentence(sid)) {
          blendSerial[sid] = serial
          blended[sid] = share
          blendOrder[count++] = sid
        }
      }
    }
    const order = bestFirst(blendOrder.subarray(0, count), blended, limit)
    const hits: ScoredSid[] = new Array(order.length)
    for (let i = 0; i < order.length; i++) hits[i] = { sid: order[i], score: blended[order[i]] }
    return hits
  }

  private resize(length: number): void {
    const capacity = Math.max(length, 2 * this.blended.length)
    this.blended = new Float64Array(capacity)
    this.blendSerial = new Int32Array(capacity)
    this.blendOrder = new Int32Array(capacity)
  }
}

/**
 * The `limit` best of `sids` by `score` (ties: smaller sid first), sorted. Above the limit, the cut-off score comes
 * from a native numeric sort of the scores alone, so only the kept ones are sorted with a comparator.
 */
function bestFirst(sids: Int32Array, score: ArrayLike<number>, limit: number): number[] {
  const byScore = (a: number, b: number) => score[b] - score[a] || a - b
  if (sids.length <= limit) return Array.from(sids).sort(byScore)
  const scores = new Float64Array(sids.length)
  for (let i = 0; i < sids.length; i++) scores[i] = score[sids[i]]
  const cutoff = scores.sort()[sids.length - limit]
  const kept: number[] = []
  const atCutoff: number[] = []
  for (let i = 0; i < sids.length; i++) {
    const value = score[sids[i]]
    if (value > cutoff) kept.push(sids[i])
    else if (value === cutoff) atCutoff.push(sids[i])
  }
  atCutoff.sort((a, b) => a - b)
  for (let i = 0; kept.length < limit && i < atCutoff.length; i++) kept.push(atCutoff[i])
  return kept.sort(byScore)
}
