import { TopK } from './top-k'
import type { VectorBlock } from './vector-block'

/** A scored row of a search. */
export interface VectorHit {
  sid: number
  score: number
}

/**
 * All sentence vectors in one contiguous Float32Array (rows × dim, grown by doubling), so a query is a
 * cache-friendly dot-product scan. Rows are unordered: removal moves the last row into the hole.
 */
export class VectorIndex {
  private vectors: Float32Array
  private sids: Float64Array
  private conversations: Int32Array
  private rows = 0
  private readonly rowOf = new Map<number, number>()
  private readonly conversationKeys = new Map<string, number>()

  constructor(readonly dim: number, capacity = 1024) {
    this.vectors = new Float32Array(capacity * dim)
    this.sids = new Float64Array(capacity)
    this.conversations = new Int32Array(capacity)
  }

  get size(): number {
    return this.rows
  }

  has(sid: number): boolean {
    return this.rowOf.has(sid)
  }

  /** Adds stored blocks; `conversationOf` tells each sid's conversation (rows whose sentence is unknown are skipped). */
  addBlocks(blocks: readonly VectorBlock[], conversationOf: (sid: number) => string | undefined): void {
    for (const block of blocks) this.add(Array.from(block.sids), block.vectors, conversationOf)
  }

  add(sids: readonly number[], vectors: Float32Array, conversationOf: (sid: number) => string | undefined): void {
    const { dim } = this
    sids.forEach((sid, i) => {
      const conversationId = conversationOf(sid)
      if (conversationId === undefined || this.rowOf.has(sid)) return
      this.ensureCapacity(this.rows + 1)
      const row = this.rows++
      this.vectors.set(vectors.subarray(i * dim, (i + 1) * dim), row * dim)
      this.sids[row] = sid
      this.conversations[row] = this.conversationKey(conversationId)
      this.rowOf.set(sid, row)
    })
  }

  remove(sids: Iterable<number>): void {
    const { dim } = this
    for (const sid of sids) {
      const row = this.rowOf.get(sid)
      if (row === undefined) continue
      this.rowOf.delete(sid)
      const last = --this.rows
      if (row !== last) {
        this.vectors.copyWithin(row * dim, last * dim, (last + 1) * dim)
        this.sids[row] = this.sids[last]
        this.conversations[row] = this.conversations[last]
        this.rowOf.set(this.sids[row], row)
      }
    }
  }

  /** The k rows with the highest dot product with `query` (cosine for normalised vectors), best first; optionally only one conversation's. */
  search(query: Float32Array, k: number, filter?: { conversationId?: string }): VectorHit[] {
    const { dim, vectors, sids, conversations } = this
    let only = -1
    if (filter?.conversationId !== undefined) {
      const key = this.conversationKeys.get(filter.conversationId)
      if (key === undefined) return []
      only = key
    }
    const top = new TopK(Math.min(k, this.rows))
    for (let row = 0; row < this.rows; row++) {
      if (only >= 0 && conversations[row] !== only) continue
      const dot = dotRow(vectors, row * dim, query, dim)
      if (dot >= top.threshold) top.offer(dot, sids[row])
    }
    return top.sorted()
  }

  private conversationKey(conversationId: string): number {
    let key = this.conversationKeys.get(conversationId)
    if (key === undefined) {
      key = this.conversationKeys.size
      this.conversationKeys.set(conversationId, key)
    }
    return key
  }

  private ensureCapacity(rows: number): void {
    if (rows <= this.sids.length) return
    const capacity = Math.max(rows, this.sids.length * 2)
    const vectors = new Float32Array(capacity * this.dim)
    vectors.set(this.vectors.subarray(0, this.rows * this.dim))
    const sids = new Float64Array(capacity)
    sids.set(this.sids.subarray(0, this.rows))
    const conversations = new Int32Array(capacity)
    conversations.set(this.conversations.subarray(0, this.rows))
    this.vectors = vectors
    this.sids = sids
    this.conversations = conversations
  }
}

/** Dot product of one stored row with the query; four independent sums let the CPU overlap the multiply-adds. */
function dotRow(vectors: Float32Array, base: number, query: Float32Array, dim: number): number {
  let s0 = 0
  let s1 = 0
  let s2 = 0
  let s3 = 0
  let d = 0
  for (; d + 3 < dim; d += 4) {
    s0 += vectors[base + d] * query[d]
    s1 += vectors[base + d + 1] * query[d + 1]
    s2 += vectors[base + d + 2] * query[d + 2]
    s3 += vectors[base + d + 3] * query[d + 3]
  }
  for (; d < dim; d++) s0 += vectors[base + d] * query[d]
  return s0 + s1 + (s2 + s3)
}
