/** One document as every engine gets it: the same sentence text and the same vector. */
export interface PeerDocument {
  /** The sentence's 0-based index in the synthetic history; results are reported as these. */
  index: number
  text: string
  vector: Float32Array
}

/** How far a build got within its time limit. */
export interface PeerBuild {
  inserted: number
  ms: number
  /** False when the time limit stopped the build before every document was in. */
  complete: boolean
}

/** A peer engine reduced to what the benchmark compares: build from documents, then top-k for a request. */
export interface PeerIndex {
  readonly name: string
  /** The modes the peer supports: `hybrid` (text + vector) and/or `vector` (dense only). */
  readonly modes: readonly ('hybrid' | 'vector')[]
  /** Inserts `documents` (appending to what is already in), stopping once `deadline` (performance.now()) is passed. */
  insert(documents: readonly PeerDocument[], deadline: number): Promise<PeerBuild>
  /** Document indices of the top `k` for the request, best first. */
  search(mode: 'hybrid' | 'vector', text: string, vector: Float32Array, k: number): Promise<number[]>
  /** Frees what the peer holds (memory, IndexedDB). */
  dispose(): Promise<void>
}
