import { HNSW } from 'mememo'
import type { PeerBuild, PeerDocument, PeerIndex } from './peer-index'

/**
 * Documents per `bulkInsert` call. MeMemo's bulk path writes the nodes to IndexedDB first and keeps them in
 * memory while linking them into the graph; its single `insert` re-reads the whole neighbourhood from IndexedDB
 * for nearly every node (about 30 nodes/s here), so the bench uses bulk calls, checking the time limit between them.
 */
const INSERT_CHUNK = 1000

/**
 * MeMemo: HNSW whose nodes live in IndexedDB (its default `useIndexedDB: true`), m = 16, efConstruction = 100
 * (its defaults; queries use ef = efConstruction), cosine on normalised vectors. Dense only, so its nearest
 * equivalent of a request is the vector top-k.
 */
export async function mememoPeer(): Promise<PeerIndex> {
  const index = new HNSW({ distanceFunction: 'cosine-normalized', seed: 20240601, useIndexedDB: true })
  return {
    name: 'mememo',
    modes: ['vector'],
    async insert(documents: readonly PeerDocument[], deadline: number): Promise<PeerBuild> {
      const started = performance.now()
      let inserted = 0
      while (inserted < documents.length && performance.now() < deadline) {
        const chunk = documents.slice(inserted, inserted + INSERT_CHUNK)
        await index.bulkInsert(
          chunk.map((d) => String(d.index)),
          chunk.map((d) => Array.from(d.vector)),
        )
        inserted += chunk.length
      }
      return { inserted, ms: performance.now() - started, complete: inserted === documents.length }
    },
    async search(_mode, _text, vector, k) {
      const { keys } = await index.query(Array.from(vector), k)
      return keys.map(Number)
    },
    async dispose() {
      await index.clear()
    },
  }
}
