import { decodeWordNeighbours, type WordNeighbours } from '../../src/core/query-expansion'
import type { EngineHost } from '../hosts/engine-host'

/** The word-neighbour table, relative to `localModelPath` (built by `npm run setup`, shipped with the package). */
export const WORD_NEIGHBOURS_FILE = 'word-neighbours/en-20k.bin'

/**
 * The word-neighbour table `hybrid` takes stand-ins for a request's unused words from, or undefined when the file
 * cannot be read: contexts are then built without stand-ins, exactly as before they existed, rather than failing.
 */
export async function loadWordNeighbours(host: Pick<EngineHost, 'readModelFile'>, localModelPath: string): Promise<WordNeighbours | undefined> {
  try {
    return decodeWordNeighbours(await host.readModelFile(localModelPath, WORD_NEIGHBOURS_FILE))
  } catch {
    return undefined
  }
}
