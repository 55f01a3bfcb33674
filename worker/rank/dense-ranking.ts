import type { RankedList } from './ranked-list'
import type { DenseScores } from '../index/vector/vector-index'
import type { ScoredSid } from '../index/scored-sid'

/** Entries sorted in the first extension of the prefix; each later extension sorts four times as many. */
const FIRST_CHUNK = 256
/** Score buckets for counting ranks: about one entry per bucket at 65K sentences. */
const RANK_BUCKETS = 1 << 16

/**
 * The dense ranking of one scan's scores — by score, then raw similarity, then older sid (the order of a stable
 * sort of the raw ranking by penalised score) — without sorting all of it: the prefix the caller reaches is
 * selected in growing chunks from the stored scores (no rescan), and the rank of any other entry is counted.
 */
export class DenseRanking implements RankedList {
  private order = new Int32Array(0)
  private sorted = 0
  private buckets: { bucketOf: Int32Array; above: Int32Array; count: number } | undefined

  constructor(readonly scores: DenseScores) {}

  get length(): number {
    return this.scores.count
  }

  /** Whether entry a (a position in the scores) ranks above entry b. */
  better(a: number, b: number): boolean {
    const { score, raw, sids } = this.scores
    return (
      score[a] > score[b] || (score[a] === score[b] && (raw[a] > raw[b] || (raw[a] === raw[b] && sids[a] < sids[b])))
    )
  }

  /** The scores position ranked `rank` (0-based), or -1 past the end. */
  positionAt(rank: number): number {
    if (rank >= this.length) return -1
    while (rank >= this.sorted) this.extend()
    return this.order[rank]
  }

  at(position: number): ScoredSid | undefined {
    const at = this.positionAt(position)
    return at < 0 ? undefined : { sid: this.scores.sids[at], score: this.scores.score[at] }
  }

  scoreOf(sid: number): number | undefined {
    const at = this.scores.positionOf(sid)
    return at < 0 ? undefined : this.scores.score[at]
  }

  /**
   * The 0-based rank of each of `positions`, without sorting all n entries: entries are counted into buckets whose
   * order follows the ranking (`rankBuckets`), so a target's rank is the count of entries in better buckets plus
   * those of its own bucket that beat it — found by binary-searching each entry among its bucket's targets.
   */
  ranksOf(positions: readonly number[]): Map<number, number> {
    const ranks = new Map<number, number>()
    if (positions.length === 0) return ranks
    const { length } = this
    const { bucketOf, above, count } = this.rankBuckets()
    // Targets best first, so each bucket's targets are one run [first[b], end[b]): a counting sort by bucket
    // (best bucket first), then the few targets sharing a bucket sorted among themselves.
    const unique = [...new Set(positions)]
    const perBucket = new Map<number, number[]>()
    for (const target of unique) {
      const bucket = bucketOf[target]
      const run = perBucket.get(bucket)
      if (run) run.push(target)
      else perBucket.set(bucket, [target])
    }
    const buckets = [...perBucket.keys()].sort((a, b) => b - a)
    const targets: number[] = []
    const first = new Int32Array(count)
    const end = new Int32Array(count)
    for (const bucket of buckets) {
      const run = perBucket.get(bucket)!
      if (run.length > 1) run.sort((a, b) => (this.better(a, b) ? -1 : 1))
      first[bucket] = targets.length
      for (const target of run) targets.push(target)
      end[bucket] = targets.length
    }
    const beaten = new Int32Array(targets.length)
    for (let i = 0; i < length; i++) {
      const bucket = bucketOf[i]
      let last = end[bucket]
      if (last === 0) continue
      let at = first[bucket]
      while (at < last) {
        const middle = (at + last) >>> 1
        if (this.better(i, targets[middle])) last = middle
        else at = middle + 1
      }
      if (at < end[bucket]) beaten[at]++
    }
    let rank = 0
    targets.forEach((target, k) => {
      const bucket = bucketOf[target]
      rank = k === first[bucket] ? above[bucket + 1] + beaten[k] : rank + beaten[k]
      ranks.set(target, rank)
    })
    return ranks
  }

  /**
   * Buckets in ranking order, computed once per scan: equal-width score ranges, except that the entries whose
   * penalised score was floored at 0 (often most of a large history) get buckets of their own, split by raw
   * similarity — their order within the tie — so no bucket holds more than a handful of entries.
   */
  private rankBuckets(): { bucketOf: Int32Array; above: Int32Array; count: number } {
    if (this.buckets) return this.buckets
    const { length } = this
    const { score, raw } = this.scores
    const floored = (i: number) => score[i] === 0 && raw[i] > 0
    // Three bands, worst first: negative scores, the floored tie (by raw), positive scores.
    const band = new Uint8Array(length)
    const low = [Infinity, Infinity, Infinity]
    const high = [-Infinity, -Infinity, -Infinity]
    const sizes = [0, 0, 0]
    for (let i = 0; i < length; i++) {
      const b = floored(i) ? 1 : score[i] > 0 ? 2 : 0
      const key = b === 1 ? raw[i] : score[i]
      band[i] = b
      sizes[b]++
      if (key < low[b]) low[b] = key
      if (key > high[b]) high[b] = key
    }
    const counts = sizes.map((size) =>
      size === 0 ? 0 : Math.max(1, Math.round((RANK_BUCKETS * size) / Math.max(1, length))),
    )
    const offsets = [0, counts[0], counts[0] + counts[1]]
    const count = offsets[2] + counts[2]
    const bucketOf = new Int32Array(length)
    const above = new Int32Array(count + 1)
    for (let i = 0; i < length; i++) {
      const b = band[i]
      const key = b === 1 ? raw[i] : score[i]
      const width = high[b] > low[b] ? (counts[b] - 1) / (high[b] - low[b]) : 0
      above[(bucketOf[i] = offsets[b] + Math.floor((key - low[b]) * width))]++
    }
    for (let b = count - 1; b >= 0; b--) above[b] += above[b + 1]
    this.buckets = { bucketOf, above, count }
    return this.buckets
  }

  /** Sorts the next chunk: the best entries ranked below the current prefix, selected with a bounded heap. */
  private extend(): void {
    const want = Math.min(this.length - this.sorted, Math.max(FIRST_CHUNK, this.sorted * 3))
    const boundary = this.sorted > 0 ? this.order[this.sorted - 1] : -1
    const heap = new Int32Array(want)
    let size = 0
    // The heap's root is its worst entry.
    const siftDown = (start: number) => {
      for (let i = start; ; ) {
        const left = 2 * i + 1
        let worst = i
        if (left < size && this.better(heap[worst], heap[left])) worst = left
        if (left + 1 < size && this.better(heap[worst], heap[left + 1])) worst = left + 1
        if (worst === i) return
        ;[heap[i], heap[worst]] = [heap[worst], heap[i]]
        i = worst
      }
    }
    for (let i = 0; i < this.length; i++) {
      if (boundary >= 0 && !this.better(boundary, i)) continue
      if (size < want) {
        heap[size] = i
        for (let c = size++; c > 0 && this.better(heap[(c - 1) >> 1], heap[c]); c = (c - 1) >> 1)
          [heap[c], heap[(c - 1) >> 1]] = [heap[(c - 1) >> 1], heap[c]]
      } else if (this.better(i, heap[0])) {
        heap[0] = i
        siftDown(0)
      }
    }
    const chunk = Array.from(heap.subarray(0, size)).sort((a, b) => (this.better(a, b) ? -1 : 1))
    const order = new Int32Array(this.sorted + chunk.length)
    order.set(this.order.subarray(0, this.sorted))
    order.set(chunk, this.sorted)
    this.order = order
    this.sorted += chunk.length
  }
}
