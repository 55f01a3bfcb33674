import { create, insertMultiple, search, type AnyOrama } from '@orama/orama'
import { STOP_WORDS } from '../../../worker/text/english'
import type { PeerBuild, PeerDocument, PeerIndex } from './peer-index'

/** Documents per `insertMultiple` call: large enough to amortise the call, small enough to check the deadline often. */
const INSERT_CHUNK = 1000

/**
 * Cosine below which Orama drops a vector hit. Its default 0.8 drops every neighbour of a typical
 * sentence-embedding query (top-50 cosines here are about 0.4–0.7). Vector mode uses 0, which cuts nothing.
 * Hybrid mode cannot: Orama 3.1 normalises with `Math.max.apply` over every hit, which overflows the call stack
 * near 100K hits, so hybrid uses 0.15 (above most unrelated pairs, ≈ 0.1); the hybrid recall shows what it costs.
 */
const VECTOR_SIMILARITY = 0
const HYBRID_SIMILARITY = 0.15

/**
 * Orama (in memory): BM25 full-text plus brute-force cosine vectors, searched in `hybrid` mode (its default
 * 0.5/0.5 weights) or `vector` mode, with Sift's English stop words (as Sift drops them from queries; without
 * them a request's "the"/"in" match every document). Orama only accepts plain arrays as vectors (and keeps them in its
 * document store), so each vector is handed over as one.
 */
export async function oramaPeer(dim: number): Promise<PeerIndex> {
  const db: AnyOrama = create({
    schema: { text: 'string', embedding: `vector[${dim}]` } as const,
    components: { tokenizer: { stopWords: [...STOP_WORDS] } },
  })
  return {
    name: 'orama',
    modes: ['hybrid', 'vector'],
    async insert(documents: readonly PeerDocument[], deadline: number): Promise<PeerBuild> {
      const started = performance.now()
      let inserted = 0
      while (inserted < documents.length && performance.now() < deadline) {
        const chunk = documents.slice(inserted, inserted + INSERT_CHUNK)
        await insertMultiple(
          db,
          chunk.map((d) => ({ id: String(d.index), text: d.text, embedding: Array.from(d.vector) })),
          INSERT_CHUNK,
        )
        inserted += chunk.length
      }
      return { inserted, ms: performance.now() - started, complete: inserted === documents.length }
    },
    async search(mode, text, vector, k) {
      const results =
        mode === 'hybrid'
          ? await search(db, {
              mode: 'hybrid',
              term: text,
              vector: { value: vector, property: 'embedding' },
              similarity: HYBRID_SIMILARITY,
              limit: k,
            })
          : await search(db, {
              mode: 'vector',
              vector: { value: vector, property: 'embedding' },
              similarity: VECTOR_SIMILARITY,
              limit: k,
            })
      return results.hits.map((hit) => Number(hit.id))
    },
    async dispose() {},
  }
}
