import type { Embedder } from '../embed/embedder'

/**
 * The topic of a "forget that I …" request embedded as a query. The topic names what the user wants forgotten, so it
 * does not stay in the embedding cache, whether the embedding succeeded or not.
 */
export async function embedTopic(embedder: Embedder, topic: string): Promise<Float32Array> {
  try {
    return await embedder.embed([topic], 'query')
  } finally {
    await embedder.forgetCached([topic], 'query')
  }
}
