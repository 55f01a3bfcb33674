/** Vectors remembered across runs, keyed by the exact text embedded (prefix included) for one model fingerprint. */
export interface EmbeddingCache {
  get(text: string): Float32Array | undefined
  set(text: string, vector: Float32Array): void
  /** Persists what was set since the last flush. */
  flush(): Promise<void>
  /**
   * Drops the vectors of `texts` from memory and from wherever the cache persists them, so that a forgotten text can
   * no longer be confirmed by its key or recovered from its vector.
   */
  forget(texts: readonly string[]): Promise<void>
  /** Drops every vector, in memory and persisted (`memory.clear()`). */
  clear(): Promise<void>
}
