import MiniSearch, { type SearchOptions } from 'minisearch'
import { indexTerm, queryTerm } from '../src/core/english-terms'
import type { Sentence } from '../src/types'

/** A scored row of a lexical search. */
export interface LexicalHit {
  sid: number
  score: number
}

type LexicalDocument = Pick<Sentence, 'sid' | 'text' | 'conversationId' | 'role'>

/**
 * BM25 over sentence texts (MiniSearch), in memory; rebuilt from the sentences table at open. The speaker
 * (`role`) is a second field, so a question that names a person ("What did Melanie paint?") prefers that
 * person's own sentences among those sharing its topic words.
 */
export class LexicalIndex {
  private readonly search_ = new MiniSearch<LexicalDocument>({
    idField: 'sid',
    fields: ['text', 'role'],
    storeFields: ['conversationId'],
    processTerm: indexTerm,
  })

  get size(): number {
    return this.search_.documentCount
  }

  has(sid: number): boolean {
    return this.search_.has(sid)
  }

  add(sentences: readonly Sentence[]): void {
    this.search_.addAll(sentences.map(({ sid, text, conversationId, role }) => ({ sid, text, conversationId, role })))
  }

  remove(sids: Iterable<number>): void {
    for (const sid of sids) if (this.search_.has(sid)) this.search_.discard(sid)
  }

  /**
   * Every sentence matching any content term of `query` (stop words dropped, all terms stemmed), best BM25 score
   * first (ties: older first). A query made only of stop words is searched with them, rather than not at all.
   */
  search(query: string, filter?: { conversationId?: string }): LexicalHit[] {
    const only = filter?.conversationId
    const scope: SearchOptions = only === undefined ? {} : { filter: (result) => result.conversationId === only }
    const hasContent = MiniSearch.getDefault('tokenize')(query).some((token: string) => queryTerm(token) !== null)
    const results = this.search_.search(query, { ...scope, processTerm: hasContent ? queryTerm : indexTerm })
    return results.map((r) => ({ sid: r.id as number, score: r.score })).sort((a, b) => b.score - a.score || a.sid - b.sid)
  }
}
