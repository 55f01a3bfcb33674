import { create, insertMultiple, search, type AnyOrama } from '@orama/orama'
import type { PeerBuild, PeerDocument, PeerIndex } from './peer-index'

/** Documents per `insertMultiple` call: large enough to amortise the call, small enough to check the deadline often. */
const INSERT_CHUNK = 1000

/**
 * Orama (in memory): BM25 full-text plus brute-force cosine vectors, searched in `hybrid` mode (its default
 * 0.5/0.5 weights) or `vector` mode. The similarity threshold is 0, not Orama's default 0.8, which would
 * drop every neighbour of a typical sentence-embedding query; 0 cuts nothing from the top-k. Orama only accepts
 * plain arrays as vectors (and keeps them in its document store), so each vector is handed over as one.
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
          ? await search(db, { mode: 'hybrid', term: text, vector: { value: vector, property: 'embedding' }, similarity: 0, limit: k })
          : await search(db, { mode: 'vector', vector: { value: vector, property: 'embedding' }, similarity: 0, limit: k })
      return results.hits.map((hit) => Number(hit.id))
    },
    async dispose() {},
  }
}
