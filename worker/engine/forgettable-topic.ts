import type { Embedder } from '../embed/embedder'

/** A request's topic as the dense ranking takes it: its query vector and the share of it the model cannot read. */
export interface EmbeddedTopic {
  vector: Float32Array
  /** `Embedder.unknownShares` of the topic, which decides how far the dense ranking is trusted (`denseTrust`). */
  unknownShare: number
}

/**
 * The topic of a "forget that I …" request embedded as a query; undefined, unless `waitForModel`, while the model has
 * not loaded (the words alone rank it then, as for a context). The topic names what the user wants forgotten, so it
 * does not stay in the embedding cache, whether the embedding succeeded or not.
 */
export async function embedTopic(
  embedder: Embedder,
  topic: string,
  waitForModel: boolean,
): Promise<EmbeddedTopic | undefined> {
  let vector: Float32Array | undefined
  try {
    vector = waitForModel ? await embedder.embed([topic], 'query') : await embedder.embedIfLoaded([topic], 'query')
  } finally {
    await embedder.forgetCached([topic], 'query')
  }
  return vector && { vector, unknownShare: (await embedder.unknownShares([topic]))[0] }
}
