import type { Embedder } from '../embed/embedder'
import { requestEmbeddingError } from './model-failure'

/**
 * The topic of a "forget that I …" request embedded as a query, or undefined when the model cannot embed it: as for a
 * context, the words still find what to forget (`strictRanking` rejects instead). The topic names what the user wants
 * forgotten, so it does not stay in the embedding cache either way.
 */
export async function embedTopic(
  embedder: Embedder,
  topic: string,
  strictRanking: boolean,
): Promise<Float32Array | undefined> {
  try {
    return await embedder.embed([topic], 'query')
  } catch (error) {
    if (strictRanking) throw requestEmbeddingError(error)
    return undefined
  } finally {
    await embedder.forgetCached([topic], 'query')
  }
}
