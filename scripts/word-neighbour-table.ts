// The word-neighbour table's build step (`npm run setup`, scripts/build-word-neighbours.ts): which words count as close,
// and the file format the engine reads (`decodeWordNeighbours`, worker/embed/word-neighbours.ts).
import { WORD_NEIGHBOURS_MAGIC } from '../worker/embed/word-neighbours'

/** Cosine at which a word counts as a stand-in for another ("ceramics" → "pottery"): BENCHMARKS.md, "Recall". */
export const EXPANSION_SIMILARITY = 0.6

/** Neighbours kept per word: far more than the stand-ins a word gets, since most neighbours are words a history never uses. */
export const NEIGHBOURS_KEPT = 50

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

/** The file `decodeWordNeighbours` reads: [magic u32][count u32][edges u32][offsets u32 × (count + 1)][neighbours u16 × edges][words, UTF-8, one per line]. */
export function encodeWordNeighbours(
  words: readonly string[],
  table: { offsets: Uint32Array; neighbours: Uint16Array },
): Uint8Array {
  const text = new TextEncoder().encode(words.join('\n'))
  const tableBytes = 4 * table.offsets.length + 2 * table.neighbours.length
  const out = new Uint8Array(12 + tableBytes + text.length)
  const header = new DataView(out.buffer)
  header.setUint32(0, WORD_NEIGHBOURS_MAGIC, true)
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
