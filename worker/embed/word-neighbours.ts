import { decodeWordNeighbours, type WordNeighbours } from '../../src/core/query-expansion'
import type { EngineHost } from '../hosts/engine-host'

/** The word-neighbour table, relative to `localModelPath` (built by `npm run setup`, shipped with the package). */
export const WORD_NEIGHBOURS_FILE = 'word-neighbours/en-20k.bin'

/**
 * How long the table may take to arrive: `hybrid` requests wait for it, so a server that never answers must not hold
 * them up for good (the same bound as the check that the model's files are served).
 */
const READ_TIMEOUT_MS = 10_000

/**
 * The word-neighbour table `hybrid` takes stand-ins for a request's unused words from, or undefined when the file
 * cannot be read in time: contexts are then built without stand-ins, exactly as before they existed, rather than failing.
 */
export async function loadWordNeighbours(
  host: Pick<EngineHost, 'readModelFile'>,
  localModelPath: string,
  timeoutMs = READ_TIMEOUT_MS,
): Promise<WordNeighbours | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timedOut = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, timeoutMs, undefined)))
  try {
    const bytes = await Promise.race([host.readModelFile(localModelPath, WORD_NEIGHBOURS_FILE), timedOut])
    return bytes === undefined ? undefined : decodeWordNeighbours(bytes)
  } catch {
    return undefined
  } finally {
    clearTimeout(timer)
  }
}
