import MiniSearch from 'minisearch'
import type { Sentence } from '../src/types'

/** A scored row of a lexical search. */
export interface LexicalHit {
  sid: number
  score: number
}

type LexicalDocument = Pick<Sentence, 'sid' | 'text' | 'conversationId'>

/** BM25 over sentence texts (MiniSearch), in memory; rebuilt from the sentences table at open. */
export class LexicalIndex {
  private readonly search_ = new MiniSearch<LexicalDocument>({
    idField: 'sid',
    fields: ['text'],
    storeFields: ['conversationId'],
  })

  get size(): number {
    return this.search_.documentCount
  }

  has(sid: number): boolean {
    return this.search_.has(sid)
  }

  add(sentences: readonly Sentence[]): void {
    this.search_.addAll(sentences.map(({ sid, text, conversationId }) => ({ sid, text, conversationId })))
  }

  remove(sids: Iterable<number>): void {
    for (const sid of sids) if (this.search_.has(sid)) this.search_.discard(sid)
  }

  /** Every sentence matching any term of `query`, best BM25 score first (ties: older first). */
  search(query: string, filter?: { conversationId?: string }): LexicalHit[] {
    const only = filter?.conversationId
    const results = this.search_.search(query, only === undefined ? {} : { filter: (result) => result.conversationId === only })
    return results.map((r) => ({ sid: r.id as number, score: r.score })).sort((a, b) => b.score - a.score || a.sid - b.sid)
  }
}
