/**
 * Keeps the k best (score, key) pairs seen, in a binary min-heap whose root is the worst kept pair: O(n log k) over
 * n offers instead of sorting all n. A key is whatever the caller ranks (a sid, a list, a position). Ties rank the
 * lower key (for sids, the older sentence) first, so results are deterministic.
 */
export class TopK {
  private readonly scores: Float64Array
  private readonly keys: Float64Array
  private size = 0

  constructor(private readonly k: number) {
    this.scores = new Float64Array(k)
    this.keys = new Float64Array(k)
  }

  /** The score a new pair must beat to get in (−Infinity while not full). */
  get threshold(): number {
    return this.size < this.k ? -Infinity : this.scores[0]
  }

  offer(score: number, key: number): void {
    if (this.k === 0) return
    if (this.size < this.k) {
      this.scores[this.size] = score
      this.keys[this.size] = key
      this.siftUp(this.size++)
    } else if (this.worse(this.scores[0], this.keys[0], score, key)) {
      this.scores[0] = score
      this.keys[0] = key
      this.siftDown(0)
    }
  }

  /** The kept pairs, best first. */
  sorted(): { key: number; score: number }[] {
    const out: { key: number; score: number }[] = []
    for (let i = 0; i < this.size; i++) out.push({ key: this.keys[i], score: this.scores[i] })
    return out.sort((a, b) => b.score - a.score || a.key - b.key)
  }

  /** Whether pair a ranks below pair b. */
  private worse(scoreA: number, keyA: number, scoreB: number, keyB: number): boolean {
    return scoreA < scoreB || (scoreA === scoreB && keyA > keyB)
  }

  private siftUp(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!this.worse(this.scores[i], this.keys[i], this.scores[parent], this.keys[parent])) return
      this.swap(i, parent)
      i = parent
    }
  }

  private siftDown(i: number): void {
    for (;;) {
      const left = 2 * i + 1
      const right = left + 1
      let worst = i
      if (left < this.size && this.worse(this.scores[left], this.keys[left], this.scores[worst], this.keys[worst]))
        worst = left
      if (right < this.size && this.worse(this.scores[right], this.keys[right], this.scores[worst], this.keys[worst]))
        worst = right
      if (worst === i) return
      this.swap(i, worst)
      i = worst
    }
  }

  private swap(a: number, b: number): void {
    const score = this.scores[a]
    this.scores[a] = this.scores[b]
    this.scores[b] = score
    const key = this.keys[a]
    this.keys[a] = this.keys[b]
    this.keys[b] = key
  }
}
