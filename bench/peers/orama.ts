import { create, insertMultiple, search, type AnyOrama } from '@orama/orama'
import type { PeerBuild, PeerDocument, PeerIndex } from './peer-index'

/** Documents per `insertMultiple` call: large enough to amortise the call, small enough to check the deadline often. */
const INSERT_CHUNK = 1000

/**
 * Cosine below which Orama drops a vector hit. Its default 0.8 drops every neighbour of a typical
 * sentence-embedding query (top-50 cosines here are about 0.5–0.7); 0 keeps all rows, and Orama 3.1's hybrid
 * search then overflows the call stack at 100K rows (a spread over every hit). 0.25 sits below the exact
 * top-50 of these vectors (the vector-mode recall shows whether it cut anything) and above unrelated pairs.
 */
const SIMILARITY = 0.25

/**
 * Orama (in memory): BM25 full-text plus brute-force cosine vectors, searched in `hybrid` mode (its default
 * 0.5/0.5 weights) or `vector` mode. Orama only accepts plain arrays as vectors (and keeps them in its
 * document store), so each vector is handed over as one.
 */
export async function oramaPeer(dim: number): Promise<PeerIndex> {
  const db: AnyOrama = create({ schema: { text: 'string', embedding: `vector[${dim}]` } as const })
  return {
    name: 'orama',
    modes: ['hybrid', 'vector'],
    async insert(documents: readonly PeerDocument[], deadline: number): Promise<PeerBuild> {
      const started = performance.now()
      let inserted = 0
      while (inserted < documents.length && performance.now() < deadline) {
        const chunk = documents.slice(inserted, inserted + INSERT_CHUNK)
        await insertMultiple(db, chunk.map((d) => ({ id: String(d.index), text: d.text, embedding: Array.from(d.vector) })), INSERT_CHUNK)
        inserted += chunk.length
      }
      return { inserted, ms: performance.now() - started, complete: inserted === documents.length }
    },
    async search(mode, text, vector, k) {
      const results =
        mode === 'hybrid'
          ? await search(db, { mode: 'hybrid', term: text, vector: { value: vector, property: 'embedding' }, similarity: SIMILARITY, limit: k })
          : await search(db, { mode: 'vector', vector: { value: vector, property: 'embedding' }, similarity: SIMILARITY, limit: k })
      return results.hits.map((hit) => Number(hit.id))
    },
    async dispose() {},
  }
}
