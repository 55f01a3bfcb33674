/**
 * Keeps the k best (score, sid) pairs seen, in a binary min-heap whose root is the worst kept pair:
 * O(n log k) over n offers instead of sorting all n. Ties rank the lower sid (older sentence) first, so results are deterministic.
 */
export class TopK {
  private readonly scores: Float64Array
  private readonly sids: Float64Array
  private size = 0

  constructor(private readonly k: number) {
    this.scores = new Float64Array(k)
    this.sids = new Float64Array(k)
  }

  /** The score a new pair must beat to get in (−Infinity while not full). */
  get threshold(): number {
    return this.size < this.k ? -Infinity : this.scores[0]
  }

  offer(score: number, sid: number): void {
    if (this.k === 0) return
    if (this.size < this.k) {
      this.scores[this.size] = score
      this.sids[this.size] = sid
      this.siftUp(this.size++)
    } else if (this.worse(this.scores[0], this.sids[0], score, sid)) {
      this.scores[0] = score
      this.sids[0] = sid
      this.siftDown(0)
    }
  }

  /** Best first. */
  sorted(): { sid: number; score: number }[] {
    const out: { sid: number; score: number }[] = []
    for (let i = 0; i < this.size; i++) out.push({ sid: this.sids[i], score: this.scores[i] })
    return out.sort((a, b) => b.score - a.score || a.sid - b.sid)
  }

  /** Whether pair a ranks below pair b. */
  private worse(scoreA: number, sidA: number, scoreB: number, sidB: number): boolean {
    return scoreA < scoreB || (scoreA === scoreB && sidA > sidB)
  }

  private siftUp(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!this.worse(this.scores[i], this.sids[i], this.scores[parent], this.sids[parent])) return
      this.swap(i, parent)
      i = parent
    }
  }

  private siftDown(i: number): void {
    for (;;) {
      const left = 2 * i + 1
      const right = left + 1
      let worst = i
      if (left < this.size && this.worse(this.scores[left], this.sids[left], this.scores[worst], this.sids[worst])) worst = left
      if (right < this.size && this.worse(this.scores[right], this.sids[right], this.scores[worst], this.sids[worst])) worst = right
      if (worst === i) return
      this.swap(i, worst)
      i = worst
    }
  }

  private swap(a: number, b: number): void {
    const score = this.scores[a]
    this.scores[a] = this.scores[b]
    this.scores[b] = score
    const sid = this.sids[a]
    this.sids[a] = this.sids[b]
    this.sids[b] = sid
  }
}
