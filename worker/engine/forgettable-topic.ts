import type { Embedder } from '../embed/embedder'

/**
 * The topic of a "forget that I …" request embedded as a query; undefined, unless `waitForModel`, while the model has
 * not loaded (the words alone rank it then, as for a context). The topic names what the user wants forgotten, so it
 * does not stay in the embedding cache, whether the embedding succeeded or not.
 */
export async function embedTopic(
  embedder: Embedder,
  topic: string,
  waitForModel: boolean,
): Promise<Float32Array | undefined> {
  try {
    return waitForModel ? await embedder.embed([topic], 'query') : await embedder.embedIfLoaded([topic], 'query')
  } finally {
    await embedder.forgetCached([topic], 'query')
  }
}
