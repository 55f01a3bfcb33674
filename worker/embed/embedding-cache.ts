/** Vectors remembered across runs, keyed by the exact text embedded (prefix included) for one model fingerprint. */
export interface EmbeddingCache {
  get(text: string): Float32Array | undefined
  set(text: string, vector: Float32Array): void
  /** Persists what was set since the last flush. */
  flush(): Promise<void>
}
