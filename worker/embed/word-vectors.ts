import { decodeWordVectors, type WordVectors } from '../../src/core/query-expansion'
import type { EngineHost } from '../hosts/engine-host'

/** The word-vector file, relative to `localModelPath` (written by `npm run setup`, shipped with the package). */
export const WORD_VECTORS_FILE = 'word-vectors/en-20k.bin'

/**
 * The word vectors `hybrid` widens a request's unused words with, or undefined when the file cannot be read: the
 * contexts are then built without that widening, exactly as before it existed, rather than failing.
 */
export async function loadWordVectors(host: Pick<EngineHost, 'readModelFile'>, localModelPath: string): Promise<WordVectors | undefined> {
  try {
    return decodeWordVectors(await host.readModelFile(localModelPath, WORD_VECTORS_FILE))
  } catch {
    return undefined
  }
}
