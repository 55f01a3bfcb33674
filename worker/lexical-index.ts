import MiniSearch, { type Options, type SearchOptions } from 'minisearch'
import { indexTerm, queryTerm } from '../src/core/english-terms'
import type { Sentence } from '../src/types'

/** A scored row of a lexical search. */
export interface LexicalHit {
  sid: number
  score: number
}

type LexicalDocument = Pick<Sentence, 'text' | 'conversationId' | 'role'> & { id: number | string }

/**
 * Share of a sentence's lexical score that comes from its whole turn (all its message's sentences as one BM25
 * document); the rest is the sentence's own BM25. A question's words are often spread over a turn ("researching"
 * in one sentence, "adoption agencies" in the next), and the turn is what holds the answer.
 */
export const TURN_SHARE = 0.5

const searchOptions = (): Options<LexicalDocument> => ({
  idField: 'id',
  fields: ['text', 'role'],
  storeFields: ['conversationId'],
  processTerm: indexTerm,
})

/**
 * BM25 over sentence texts (MiniSearch), in memory; rebuilt from the sentences table at open. The speaker
 * (`role`) is a second field, so a question that names a person ("What did Melanie paint?") prefers that
 * person's own sentences among those sharing its topic words. Each message is also indexed as one document
 * (its turn), blended into its sentences' scores (`TURN_SHARE`).
 */
export class LexicalIndex {
  private readonly sentences = new MiniSearch<LexicalDocument>(searchOptions())
  private readonly turns = new MiniSearch<LexicalDocument>(searchOptions())
  /** Sentence ids of each indexed turn, in message order. */
  private readonly turnSids = new Map<string, number[]>()
  private readonly turnOf = new Map<number, string>()

  get size(): number {
    return this.sentences.documentCount
  }

  has(sid: number): boolean {
    return this.sentences.has(sid)
  }

  add(sentences: readonly Sentence[]): void {
    this.sentences.addAll(sentences.map(({ sid, text, conversationId, role }) => ({ id: sid, text, conversationId, role })))
    const byMessage = new Map<string, Sentence[]>()
    for (const sentence of sentences) byMessage.set(sentence.messageId, [...(byMessage.get(sentence.messageId) ?? []), sentence])
    for (const [messageId, parts] of byMessage) {
      if (this.turns.has(messageId)) this.discardTurn(messageId)
      parts.sort((a, b) => a.index - b.index)
      const { conversationId, role } = parts[0]
      this.turns.add({ id: messageId, text: parts.map((p) => p.text).join(' '), conversationId, role })
      this.turnSids.set(messageId, parts.map((p) => p.sid))
      for (const part of parts) this.turnOf.set(part.sid, messageId)
    }
  }

  /** Removes sentences; a turn document goes as soon as any of its sentences does (forget removes whole messages). */
  remove(sids: Iterable<number>): void {
    for (const sid of sids) {
      if (this.sentences.has(sid)) this.sentences.discard(sid)
      const messageId = this.turnOf.get(sid)
      if (messageId !== undefined && this.turns.has(messageId)) this.discardTurn(messageId)
      this.turnOf.delete(sid)
    }
  }

  /**
   * Every sentence matching any content term of `query` (stop words dropped, all terms stemmed), or in a turn that
   * does, best blended BM25 score first (ties: older first). A query made only of stop words is searched with
   * them, rather than not at all.
   */
  search(query: string, filter?: { conversationId?: string }): LexicalHit[] {
    const only = filter?.conversationId
    const scope: SearchOptions = only === undefined ? {} : { filter: (result) => result.conversationId === only }
    const hasContent = MiniSearch.getDefault('tokenize')(query).some((token: string) => queryTerm(token) !== null)
    const options: SearchOptions = { ...scope, processTerm: hasContent ? queryTerm : indexTerm }
    const scores = new Map<number, number>()
    for (const r of this.sentences.search(query, options)) scores.set(r.id as number, (1 - TURN_SHARE) * r.score)
    for (const r of this.turns.search(query, options)) {
      for (const sid of this.turnSids.get(r.id as string) ?? []) {
        if (this.sentences.has(sid)) scores.set(sid, (scores.get(sid) ?? 0) + TURN_SHARE * r.score)
      }
    }
    return [...scores].map(([sid, score]) => ({ sid, score })).sort((a, b) => b.score - a.score || a.sid - b.sid)
  }

  /** Sentences of `conversationId` sharing a content term with `text`, by their own BM25 (no turn blend), best first. */
  similarSentences(text: string, conversationId: string): LexicalHit[] {
    return this.sentences.search(text, { filter: (result) => result.conversationId === conversationId, processTerm: queryTerm }).map((r) => ({ sid: r.id as number, score: r.score }))
  }

  private discardTurn(messageId: string): void {
    this.turns.discard(messageId)
    this.turnSids.delete(messageId)
  }

  /** The whole index as plain data, for `fromJSON`: persisted so that open need not re-index every sentence. */
  toJSON() {
    return { sentences: this.sentences.toJSON(), turns: this.turns.toJSON(), turnSids: [...this.turnSids] }
  }

  static fromJSON(json: ReturnType<LexicalIndex['toJSON']>): LexicalIndex {
    const index = new LexicalIndex()
    Object.assign(index, { sentences: MiniSearch.loadJS(json.sentences, searchOptions()), turns: MiniSearch.loadJS(json.turns, searchOptions()) })
    for (const [messageId, sids] of json.turnSids) {
      index.turnSids.set(messageId, sids)
      for (const sid of sids) index.turnOf.set(sid, messageId)
    }
    return index
  }
}
