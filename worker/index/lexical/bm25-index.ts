import { grownArray } from '../../util/grown-array'
import { LEXICAL_TUNING, type LexicalTuning } from './lexical-tuning'

const NO_TERMS: FieldTerms = { terms: [], length: 0 }

/** Term frequencies are stored in 16 bits. */
const MAX_TF = 0xffff
/** Removed documents that trigger a compaction: this share of the slots (and at least `COMPACT_MIN`). */
const COMPACT_SHARE = 0.2
const COMPACT_MIN = 256

/** The postings of one term in one field: document slots (ascending) and term frequencies, with room to grow. */
interface PostingList {
  slots: Int32Array
  tfs: Uint16Array
  length: number
}

/** A compacted `Bm25Index` as typed arrays, for structured-clone storage (IndexedDB) without a JSON round trip. */
export interface SerializedBm25 {
  fieldCount: number
  /** Per document: its key, its group, its field lengths (`fieldCount` per document). */
  keys: Int32Array
  groups: Int32Array
  lengths: Float32Array
  /** Terms joined by newlines (a token never holds one). */
  terms: string
  /** Start of each (term, field) posting list in `slots`/`tfs`, term-major; one more entry than lists. */
  offsets: Int32Array
  slots: Int32Array
  tfs: Uint16Array
}

/** One field of a document as the index takes it: its terms (repeats kept) and its length for BM25's normalisation. */
export interface FieldTerms {
  terms: readonly string[]
  /** Distinct words of the field's text. */
  length: number
}

/** Unsorted matches of a search: document keys and their scores, `count` of them. */
export interface Bm25Matches {
  keys: Int32Array
  scores: Float64Array
  count: number
}

/**
 * An inverted index scored by BM25+ with MiniSearch's formula (k1, b and d from `LexicalTuning`, MiniSearch's
 * defaults; idf over live documents; field length = distinct words; per-field average length; a document's score
 * over OR-ed query terms is the sum of its per-term, per-field scores times the number of distinct query terms it
 * matches). Documents come analysed, as their fields' terms (`worker/text/text-analysis.ts`); they are integer keys
 * with an integer group (a conversation) to filter by. Postings live in typed arrays; removal leaves tombstones that searches
 * skip and a compaction clears once they are a sizeable share (and always before a snapshot, so a forgotten term is
 * never persisted).
 */
export class Bm25Index {
  private slotCount = 0
  private live = 0
  private dead = 0
  private keys: Int32Array = new Int32Array(64)
  private groups: Int32Array = new Int32Array(64)
  private alive: Uint8Array = new Uint8Array(64)
  private lengths: Float32Array
  private readonly totals: Float64Array
  /** Slot of each key (-1: none), indexed by key. */
  private slotOf: Int32Array = new Int32Array(64).fill(-1)
  private termIds = new Map<string, number>()
  private lists: (PostingList | undefined)[] = []
  private acc = new Float64Array(64)
  private matched = new Uint16Array(64)
  private seenIn = new Int32Array(64)
  private termMark = new Int32Array(64)
  private touched = new Int32Array(64)
  private searchSerial = 0
  private termSerial = 0

  constructor(readonly fieldCount: number) {
    this.lengths = new Float32Array(64 * fieldCount)
    this.totals = new Float64Array(fieldCount)
  }

  /** Live documents. */
  get size(): number {
    return this.live
  }

  has(key: number): boolean {
    return key < this.slotOf.length && this.slotOf[key] >= 0
  }

  /** The group of an indexed document; undefined when `key` is not indexed. */
  groupOf(key: number): number | undefined {
    return this.has(key) ? this.groups[this.slotOf[key]] : undefined
  }

  /** Indexes a document's fields (one per field) under `key` (a small non-negative integer: keys index an array), replacing any document with that key. */
  add(key: number, group: number, fields: readonly FieldTerms[]): void {
    if (this.has(key)) this.remove(key)
    if (key >= this.slotOf.length) this.slotOf = grownArray(this.slotOf, Math.max(key + 1, this.slotOf.length * 2), -1)
    const slot = this.slotCount++
    if (slot === this.keys.length) this.growSlots()
    this.keys[slot] = key
    this.groups[slot] = group
    this.alive[slot] = 1
    this.slotOf[key] = slot
    this.live++
    const F = this.fieldCount
    for (let f = 0; f < F; f++) {
      const { terms, length } = fields[f] ?? NO_TERMS
      this.lengths[slot * F + f] = length
      this.totals[f] += length
      const counts = new Map<string, number>()
      for (const term of terms) if (term) counts.set(term, (counts.get(term) ?? 0) + 1)
      for (const [term, tf] of counts) this.append(this.listFor(term, f), slot, Math.min(tf, MAX_TF))
    }
  }

  /** Removes a document (a tombstone until the next compaction); false when `key` is not indexed. */
  remove(key: number): boolean {
    if (!this.has(key)) return false
    const slot = this.slotOf[key]
    this.slotOf[key] = -1
    this.alive[slot] = 0
    for (let f = 0; f < this.fieldCount; f++) this.totals[f] -= this.lengths[slot * this.fieldCount + f]
    this.live--
    this.dead++
    if (this.dead >= COMPACT_MIN && this.dead >= COMPACT_SHARE * this.slotCount) this.compact()
    return true
  }

  /**
   * Every live document (of `group`, when given) matching any of `terms`, with its score under BM25+'s `constants`.
   * A term given twice counts twice. The arrays are reused by the next search: copy what must outlive it.
   */
  match(
    terms: readonly string[],
    group?: number,
    constants: Pick<LexicalTuning, 'bm25K1' | 'bm25B' | 'bm25D' | 'bm25LengthOffset'> = LEXICAL_TUNING,
  ): Bm25Matches {
    const { bm25K1: k1, bm25B: b, bm25D: d, bm25LengthOffset: offset } = constants
    const serial = ++this.searchSerial
    const F = this.fieldCount
    const { alive, groups, lengths, acc, matched, seenIn, termMark, touched } = this
    const filtered = group !== undefined
    const checkAlive = this.dead > 0
    let count = 0
    const multiplicity = new Map<string, number>()
    for (const term of terms) multiplicity.set(term, (multiplicity.get(term) ?? 0) + 1)
    for (const [term, times] of multiplicity) {
      const id = this.termIds.get(term)
      if (id === undefined) continue
      const mark = ++this.termSerial
      for (let f = 0; f < F; f++) {
        const list = this.lists[id * F + f]
        if (!list) continue
        const df = checkAlive ? liveCount(list, alive) : list.length
        if (df === 0) continue
        const idf = this.idf(df)
        const lengthScale = (k1 * b) / (this.totals[f] / this.live + offset)
        const base = k1 * (1 - b)
        const { slots, tfs, length } = list
        for (let j = 0; j < length; j++) {
          const slot = slots[j]
          if ((checkAlive && alive[slot] === 0) || (filtered && groups[slot] !== group)) continue
          const tf = tfs[j]
          const length = lengths[slot * F + f] + offset
          const score = times * idf * (d + (tf * (k1 + 1)) / (tf + base + lengthScale * length))
          if (seenIn[slot] !== serial) {
            seenIn[slot] = serial
            acc[slot] = 0
            matched[slot] = 0
            touched[count++] = slot
          }
          if (termMark[slot] !== mark) {
            termMark[slot] = mark
            matched[slot]++
          }
          acc[slot] += score
        }
      }
    }
    const keys = new Int32Array(count)
    const scores = new Float64Array(count)
    for (let i = 0; i < count; i++) {
      const slot = touched[i]
      keys[i] = this.keys[slot]
      scores[i] = acc[slot] * matched[slot]
    }
    return { keys, scores, count }
  }

  /** BM25's inverse document frequency of a term that `df` of the live documents hold: what `match` weighs it by. */
  idf(df: number): number {
    return Math.log(1 + (this.live - df + 0.5) / (df + 0.5))
  }

  /** Live documents whose `field` holds `term` (its document frequency, as the idf of `match` counts it). */
  documentFrequency(term: string, field: number): number {
    const list = this.postings(term, field)
    return list ? (this.dead > 0 ? liveCount(list, this.alive) : list.length) : 0
  }

  /** Calls `visit` with the key of each live document (of `group`, when given) whose `field` holds `term`. */
  forEachKeyWith(term: string, field: number, group: number | undefined, visit: (key: number) => void): void {
    const list = this.postings(term, field)
    if (!list) return
    const { alive, groups, keys } = this
    for (let j = 0; j < list.length; j++) {
      const slot = list.slots[j]
      if (alive[slot] === 1 && (group === undefined || groups[slot] === group)) visit(keys[slot])
    }
  }

  /** Drops removed documents from the postings (and terms left without any), renumbering slots in order. */
  compact(): void {
    if (this.dead === 0) return
    const F = this.fieldCount
    const newSlot = new Int32Array(this.slotCount).fill(-1)
    let next = 0
    for (let slot = 0; slot < this.slotCount; slot++) {
      if (this.alive[slot] === 0) continue
      newSlot[slot] = next
      this.keys[next] = this.keys[slot]
      this.groups[next] = this.groups[slot]
      this.alive[next] = 1
      this.lengths.copyWithin(next * F, slot * F, slot * F + F)
      this.slotOf[this.keys[next]] = next
      next++
    }
    this.alive.fill(0, next, this.slotCount)
    const termIds = new Map<string, number>()
    const lists: (PostingList | undefined)[] = []
    for (const [term, id] of this.termIds) {
      const kept: (PostingList | undefined)[] = []
      let any = false
      for (let f = 0; f < F; f++) {
        const list = this.lists[id * F + f]
        let length = 0
        if (list) {
          for (let j = 0; j < list.length; j++) {
            const slot = newSlot[list.slots[j]]
            if (slot < 0) continue
            list.slots[length] = slot
            list.tfs[length++] = list.tfs[j]
          }
          list.length = length
        }
        kept.push(length > 0 ? list : undefined)
        any ||= length > 0
      }
      if (!any) continue
      termIds.set(term, termIds.size)
      lists.push(...kept)
    }
    this.termIds = termIds
    this.lists = lists
    this.slotCount = next
    this.dead = 0
  }

  /** The index as typed arrays (compacted first): what `deserialize` loads. */
  serialize(): SerializedBm25 {
    this.compact()
    const F = this.fieldCount
    const offsets = new Int32Array(this.lists.length + 1)
    for (let i = 0; i < this.lists.length; i++) offsets[i + 1] = offsets[i] + (this.lists[i]?.length ?? 0)
    const total = offsets[this.lists.length]
    const slots = new Int32Array(total)
    const tfs = new Uint16Array(total)
    this.lists.forEach((list, i) => {
      if (!list) return
      slots.set(list.slots.subarray(0, list.length), offsets[i])
      tfs.set(list.tfs.subarray(0, list.length), offsets[i])
    })
    return {
      fieldCount: F,
      keys: this.keys.slice(0, this.slotCount),
      groups: this.groups.slice(0, this.slotCount),
      lengths: this.lengths.slice(0, this.slotCount * F),
      terms: [...this.termIds.keys()].join('\n'),
      offsets,
      slots,
      tfs,
    }
  }

  static deserialize(snapshot: SerializedBm25): Bm25Index {
    const F = snapshot.fieldCount
    const index = new Bm25Index(F)
    const n = snapshot.keys.length
    const capacity = Math.max(64, n)
    index.keys = grownArray(snapshot.keys, capacity)
    index.groups = grownArray(snapshot.groups, capacity)
    index.lengths = grownArray(snapshot.lengths, capacity * F)
    index.alive = new Uint8Array(capacity).fill(1, 0, n)
    index.resizeScratch(capacity)
    index.slotCount = n
    index.live = n
    let maxKey = 0
    for (let slot = 0; slot < n; slot++) maxKey = Math.max(maxKey, snapshot.keys[slot])
    index.slotOf = new Int32Array(Math.max(64, maxKey + 1)).fill(-1)
    for (let slot = 0; slot < n; slot++) index.slotOf[snapshot.keys[slot]] = slot
    for (let i = 0; i < n * F; i++) index.totals[i % F] += snapshot.lengths[i]
    const terms = snapshot.terms === '' ? [] : snapshot.terms.split('\n')
    terms.forEach((term, id) => index.termIds.set(term, id))
    const { offsets } = snapshot
    index.lists = new Array(terms.length * F)
    for (let i = 0; i < terms.length * F; i++) {
      const start = offsets[i]
      const end = offsets[i + 1]
      if (end > start)
        index.lists[i] = {
          slots: snapshot.slots.subarray(start, end),
          tfs: snapshot.tfs.subarray(start, end),
          length: end - start,
        }
    }
    return index
  }

  private postings(term: string, field: number): PostingList | undefined {
    const id = this.termIds.get(term)
    return id === undefined ? undefined : this.lists[id * this.fieldCount + field]
  }

  private listFor(term: string, field: number): PostingList {
    let id = this.termIds.get(term)
    if (id === undefined) {
      id = this.termIds.size
      this.termIds.set(term, id)
    }
    const at = id * this.fieldCount + field
    let list = this.lists[at]
    if (!list) this.lists[at] = list = { slots: new Int32Array(2), tfs: new Uint16Array(2), length: 0 }
    return list
  }

  private append(list: PostingList, slot: number, tf: number): void {
    if (list.length === list.slots.length) {
      list.slots = grownArray(list.slots, list.length * 2)
      list.tfs = grownArray(list.tfs, list.length * 2)
    }
    list.slots[list.length] = slot
    list.tfs[list.length++] = tf
  }

  private growSlots(): void {
    const capacity = this.keys.length * 2
    this.keys = grownArray(this.keys, capacity)
    this.groups = grownArray(this.groups, capacity)
    this.alive = grownArray(this.alive, capacity)
    this.lengths = grownArray(this.lengths, capacity * this.fieldCount)
    this.resizeScratch(capacity)
  }

  private resizeScratch(capacity: number): void {
    this.acc = new Float64Array(capacity)
    this.matched = new Uint16Array(capacity)
    this.seenIn = new Int32Array(capacity)
    this.termMark = new Int32Array(capacity)
    this.touched = new Int32Array(capacity)
  }
}

function liveCount(list: PostingList, alive: Uint8Array): number {
  let count = 0
  for (let j = 0; j < list.length; j++) count += alive[list.slots[j]]
  return count
}
