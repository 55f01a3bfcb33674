import type { Sentence } from '../../../src/types'
import { detectLanguage, sentenceLanguages } from '../../text/language-detection'
import {
  contentTermCount,
  contentTermList,
  indexTerms,
  type Language,
  queryTerms,
  TermMemo,
  words,
} from '../../text/text-analysis'
import { grownArray } from '../../util/grown-array'
import { Interner } from '../../util/interner'
import type { ScoredSid } from '../scored-sid'
import { Bm25Index, type FieldTerms, type SerializedBm25 } from './bm25-index'
import { LEXICAL_TUNING, type LexicalTuning } from './lexical-tuning'
import { SentenceLanguages, type SerializedSentenceLanguages } from './sentence-languages'
import { TurnBlend } from './turn-blend'

/** The whole lexical index as typed arrays and strings, for structured-clone storage. */
export interface SerializedLexicalIndex {
  sentences: SerializedBm25
  /** Turn documents, keyed by the sid of their first sentence. */
  turns: SerializedBm25
  conversations: string[]
  /** Per turn document, in the order of `turns.keys`: its message id and how many sentences it has. */
  turnMessageIds: string[]
  turnSizes: Int32Array
  /** The turns' sentence ids, concatenated in that order. */
  turnSids: Int32Array
  /** By sid: content words of the sentence (`contentTermCount`, at most 254) plus one; 0 for sids not indexed. */
  contentTerms: Uint8Array
  /** The language each sentence was analysed in. */
  languages: SerializedSentenceLanguages
}

/** A text's terms and length as one BM25 field. */
function field(text: string, language: Language | undefined, memo: TermMemo): FieldTerms {
  return { terms: indexTerms(text, language, memo), length: new Set(words(text)).size }
}

/**
 * BM25 over sentence texts (`Bm25Index`), in memory; restored from a snapshot at open. The speaker (`role`) is a
 * second field, so a question that names a person ("What did Melanie paint?") prefers that person's own sentences
 * among those sharing its topic words. Each message is also indexed as one document (its turn, keyed by its first
 * sentence's sid), blended into its sentences' scores (`LexicalTuning.turnShare`). Each sentence's words are
 * analysed in its own language, detected when it is indexed (`sentenceLanguages`: a message may switch languages),
 * and a request in the language it is detected in, preferring the languages of the history it asks about.
 */
export class LexicalIndex {
  private sentences = new Bm25Index(2)
  private turns = new Bm25Index(2)
  /** Conversation ids as the numbers the BM25 indexes group documents by; one is let go with its last sentence. */
  private readonly conversations = new Interner()
  /** Indexed sentences per conversation number: at 0 the conversation's id is forgotten. */
  private sentencesIn: number[] = []
  /**
   * Turn bookkeeping in sid-indexed arrays (a turn's key is its first sid), so a snapshot loads without building
   * maps: each sentence's turn key (-1: none), and each turn's sentence ids as a span of `members` (count 0: none).
   */
  private turnOf: Int32Array = new Int32Array(0)
  private turnStart: Int32Array = new Int32Array(0)
  private turnCount: Int32Array = new Int32Array(0)
  private members: Int32Array = new Int32Array(64)
  private membersLength = 0
  /** Message id of each turn, by turn key; and its inverse, built on the first add after a load. */
  private messageOfTurn: (string | undefined)[] = []
  /**
   * By sid: content words of each indexed sentence plus one (0: unknown), for the dense ranking's short-sentence
   * prior. Counted while the text is at hand and stored in the snapshot, so the first ranking after open need not
   * re-read every text.
   */
  private contentTerms: Uint8Array = new Uint8Array(0)
  private turnOfMessage: Map<string, number> | undefined = new Map()
  /** The language each sentence was analysed in. */
  private languages = new SentenceLanguages()
  /** The terms of the words indexed, remembered until a forget. */
  private readonly memo = new TermMemo()
  private readonly blend = new TurnBlend()
  /** Counts `add` and `remove` calls: search results computed at one revision hold until the next. */
  private changes = 0

  /**
   * @param languagesOf Each sentence's language, given one message's sentences in order (`sentenceLanguages`);
   *   another only to measure what detection costs (bench:perf's `--only lexical`).
   */
  constructor(private readonly languagesOf: typeof sentenceLanguages = sentenceLanguages) {}

  get size(): number {
    return this.sentences.size
  }

  /** Changes with every `add` and `remove`, so callers can tell whether what they derived from searches is still current. */
  get revision(): number {
    return this.changes
  }

  has(sid: number): boolean {
    return this.sentences.has(sid)
  }

  /** `contentTermCount` of an indexed sentence's text (capped at 254); undefined for a sid never indexed. */
  contentTermCountOf(sid: number): number | undefined {
    const stored = sid < this.contentTerms.length ? this.contentTerms[sid] : 0
    return stored === 0 ? undefined : stored - 1
  }

  add(sentences: readonly Sentence[]): void {
    this.changes++
    const byMessage = new Map<string, Sentence[]>()
    let maxSid = -1
    for (const sentence of sentences) {
      maxSid = Math.max(maxSid, sentence.sid)
      const parts = byMessage.get(sentence.messageId)
      if (parts) parts.push(sentence)
      else byMessage.set(sentence.messageId, [sentence])
    }
    this.ensureSids(maxSid + 1)
    const turnOfMessage = this.messageTurns()
    for (const [messageId, parts] of byMessage) {
      parts.sort((a, b) => a.index - b.index)
      const languages = this.languagesOf(parts.map((part) => part.text))
      const turnTerms: string[] = []
      const turnWords = new Set<string>()
      parts.forEach((sentence, i) => {
        const language = languages[i]
        const group = this.conversations.intern(sentence.conversationId)
        const replaced = this.sentences.groupOf(sentence.sid)
        if (replaced !== undefined) this.languages.remove(sentence.sid, replaced)
        const text = field(sentence.text, language, this.memo)
        this.sentences.add(sentence.sid, group, [text, field(sentence.role, language, this.memo)])
        this.languages.set(sentence.sid, group, language)
        this.sentencesIn[group] = (this.sentencesIn[group] ?? 0) + 1
        if (replaced !== undefined) this.sentenceLeft(replaced)
        this.contentTerms[sentence.sid] = Math.min(254, contentTermCount(sentence.text, language)) + 1
        turnTerms.push(...text.terms)
        for (const word of words(sentence.text)) turnWords.add(word)
      })
      const previous = turnOfMessage.get(messageId)
      if (previous !== undefined) this.discardTurn(previous)
      const { conversationId, role, sid: key } = parts[0]
      const turn = { terms: turnTerms, length: turnWords.size }
      this.turns.add(key, this.conversations.intern(conversationId), [turn, field(role, languages[0], this.memo)])
      turnOfMessage.set(messageId, key)
      this.messageOfTurn[key] = messageId
      if (this.membersLength + parts.length > this.members.length)
        this.members = grownArray(this.members, 2 * (this.membersLength + parts.length))
      this.turnStart[key] = this.membersLength
      this.turnCount[key] = parts.length
      for (const part of parts) {
        this.members[this.membersLength++] = part.sid
        this.turnOf[part.sid] = key
      }
    }
  }

  /**
   * Removes sentences; a turn document goes as soon as any of its sentences does (forget removes whole messages), and
   * a conversation's id with its last sentence. Both BM25 indexes are compacted at once, so no word that only
   * removed sentences had stays in their vocabularies, and the remembered terms are let go of.
   */
  remove(sids: Iterable<number>): void {
    this.changes++
    for (const sid of sids) {
      const group = this.sentences.groupOf(sid)
      if (group !== undefined && this.sentences.remove(sid)) {
        this.languages.remove(sid, group)
        this.sentenceLeft(group)
      }
      if (sid >= this.turnOf.length) continue
      const key = this.turnOf[sid]
      if (key >= 0) this.discardTurn(key)
      this.turnOf[sid] = -1
    }
    this.sentences.compact()
    this.turns.compact()
    this.memo.forget()
  }

  /** The language `sid`'s sentence was analysed in; undefined when it could not be told, or for a sid not indexed. */
  languageOf(sid: number): Language | undefined {
    return this.languages.languageOf(sid)
  }

  /** The languages of `conversationId`'s sentences (of every conversation when undefined) a request is likely in, most used first. */
  likelyLanguages(conversationId: string | undefined): Language[] {
    const group = this.groupOf(conversationId)
    if (group === null) return []
    return this.languages.likelyIn(group === undefined ? undefined : [group])
  }

  /** The language to analyse a request about `conversationId` in: as detected, preferring the history's languages. */
  requestLanguage(request: string, conversationId: string | undefined): Language | undefined {
    const likely = this.likelyLanguages(conversationId)
    return detectLanguage(request, likely) ?? likely[0]
  }

  /**
   * Every sentence matching any content term of `query` (stop words dropped, all terms stemmed) in `language`
   * (`requestLanguage` when not given), or in a turn that does, best blended BM25 score first (ties: older first).
   * A query made only of stop words is searched with them, rather than not at all. `limit` keeps only the best that
   * many (the same as slicing the full list), without sorting every weak match. Scored with `tuning`'s BM25
   * constants and turn share.
   */
  search(
    query: string,
    filter?: { conversationId?: string },
    limit = Infinity,
    tuning: LexicalTuning = LEXICAL_TUNING,
    language: Language | undefined = this.requestLanguage(query, filter?.conversationId),
  ): ScoredSid[] {
    const group = this.groupOf(filter?.conversationId)
    if (group === null) return []
    const terms = queryTerms(query, language)
    const own = this.sentences.match(terms, group, tuning)
    const turns = this.turns.match(terms, group, tuning)
    const layout = { start: this.turnStart, count: this.turnCount, members: this.members }
    return this.blend.blend(
      own,
      turns,
      tuning.turnShare,
      layout,
      (sid) => this.sentences.has(sid),
      this.turnOf.length,
      limit,
    )
  }

  /** Whether any sentence of `conversationId` is indexed; always true for all conversations (undefined). */
  hasConversation(conversationId: string | undefined): boolean {
    return this.groupOf(conversationId) !== null
  }

  /** Sids are below this: the length of an array indexed by sid that any indexed sentence fits. */
  get sidBound(): number {
    return this.turnOf.length
  }

  /** How many sentences' own texts hold `term` (a query term: stemmed). */
  sentenceFrequency(term: string): number {
    return this.sentences.documentFrequency(term, 0)
  }

  /** BM25's idf over sentence texts of a term that `df` sentences hold (`sentenceFrequency`). */
  sentenceIdf(df: number): number {
    return this.sentences.idf(df)
  }

  /**
   * Calls `visit` with each sentence (of `conversationId`, when given) whose own text holds `term`, then with each
   * sentence of a turn whose text holds it; a sentence may come twice, once for its text and once for its turn.
   */
  forEachSentenceHolding(term: string, conversationId: string | undefined, visit: (sid: number) => void): void {
    const group = this.groupOf(conversationId)
    if (group === null) return
    this.sentences.forEachKeyWith(term, 0, group, visit)
    this.turns.forEachKeyWith(term, 0, group, (key) => {
      for (let at = this.turnStart[key], end = at + this.turnCount[key]; at < end; at++) visit(this.members[at])
    })
  }

  /** Whether some sentence's text holds `term` (a query term: stemmed). */
  usesTerm(term: string): boolean {
    return this.sentenceFrequency(term) > 0
  }

  /**
   * Sentences of `conversationId` sharing a content term with `text` (analysed in `language`), by their own BM25 (no
   * turn blend), best first.
   */
  similarSentences(
    text: string,
    language: Language | undefined,
    conversationId: string,
    tuning: LexicalTuning = LEXICAL_TUNING,
  ): ScoredSid[] {
    const group = this.groupOf(conversationId)
    if (group === null) return []
    const { keys, scores, count } = this.sentences.match(contentTermList(text, language), group, tuning)
    const hits: ScoredSid[] = new Array(count)
    for (let i = 0; i < count; i++) hits[i] = { sid: keys[i], score: scores[i] }
    return hits.sort((a, b) => b.score - a.score || a.sid - b.sid)
  }

  /**
   * The whole index as typed arrays (forgotten sentences' terms compacted away, and only the conversations that still
   * have a sentence, renumbered in order): what `deserialize` loads.
   */
  serialize(): SerializedLexicalIndex {
    const conversations: string[] = []
    const renumbered = new Int32Array(this.sentencesIn.length)
    this.sentencesIn.forEach((count, group) => {
      if (count > 0) renumbered[group] = conversations.push(this.conversations.valueOf(group)!) - 1
    })
    const turns = this.turns.serialize()
    turns.groups = turns.groups.map((group) => renumbered[group])
    const turnMessageIds: string[] = []
    const turnSizes = new Int32Array(turns.keys.length)
    let total = 0
    turns.keys.forEach((key, i) => {
      turnMessageIds.push(this.messageOfTurn[key]!)
      turnSizes[i] = this.turnCount[key]
      total += this.turnCount[key]
    })
    const turnSids = new Int32Array(total)
    let at = 0
    for (const key of turns.keys) {
      turnSids.set(this.members.subarray(this.turnStart[key], this.turnStart[key] + this.turnCount[key]), at)
      at += this.turnCount[key]
    }
    const sentences = this.sentences.serialize()
    sentences.groups = sentences.groups.map((group) => renumbered[group])
    let sidEnd = 0
    for (let i = 0; i < sentences.keys.length; i++) sidEnd = Math.max(sidEnd, sentences.keys[i] + 1)
    const contentTerms = new Uint8Array(sidEnd)
    for (let sid = 0; sid < sidEnd; sid++) if (this.sentences.has(sid)) contentTerms[sid] = this.contentTerms[sid]
    const languages = this.languages.serialize(sidEnd, (sid) => this.sentences.has(sid))
    return { sentences, turns, conversations, turnMessageIds, turnSizes, turnSids, contentTerms, languages }
  }

  static deserialize(snapshot: SerializedLexicalIndex): LexicalIndex {
    const index = new LexicalIndex()
    index.sentences = Bm25Index.deserialize(snapshot.sentences)
    index.turns = Bm25Index.deserialize(snapshot.turns)
    for (const conversationId of snapshot.conversations) index.conversations.intern(conversationId)
    index.sentencesIn = snapshot.conversations.map(() => 0)
    for (const group of snapshot.sentences.groups) index.sentencesIn[group]++
    let maxSid = snapshot.contentTerms.length - 1
    for (const sid of snapshot.turnSids) maxSid = Math.max(maxSid, sid)
    index.ensureSids(maxSid + 1)
    index.contentTerms.set(snapshot.contentTerms)
    index.languages = SentenceLanguages.deserialize(snapshot.languages, (sid) => index.sentences.groupOf(sid))
    index.members = snapshot.turnSids
    index.membersLength = snapshot.turnSids.length
    index.turnOfMessage = undefined
    let at = 0
    snapshot.turns.keys.forEach((key, i) => {
      const count = snapshot.turnSizes[i]
      index.turnStart[key] = at
      index.turnCount[key] = count
      index.messageOfTurn[key] = snapshot.turnMessageIds[i]
      for (let end = at + count; at < end; at++) index.turnOf[snapshot.turnSids[at]] = key
    })
    return index
  }

  /** The group to search: undefined for all, null for a conversation with nothing indexed. */
  private groupOf(conversationId: string | undefined): number | undefined | null {
    if (conversationId === undefined) return undefined
    return this.conversations.numberOf(conversationId) ?? null
  }

  /** One sentence of conversation `group` less: its id is let go with the last one. */
  private sentenceLeft(group: number): void {
    if (--this.sentencesIn[group] === 0) this.conversations.forget(group)
  }

  private discardTurn(key: number): void {
    if (!this.turns.remove(key)) return
    this.turnCount[key] = 0
    this.turnOfMessage?.delete(this.messageOfTurn[key]!)
    this.messageOfTurn[key] = undefined
  }

  private messageTurns(): Map<string, number> {
    if (!this.turnOfMessage) {
      this.turnOfMessage = new Map()
      this.messageOfTurn.forEach((messageId, key) => {
        if (messageId !== undefined) this.turnOfMessage!.set(messageId, key)
      })
    }
    return this.turnOfMessage
  }

  /** Room in the sid-indexed arrays for sids below `length`. */
  private ensureSids(length: number): void {
    if (length <= this.turnOf.length) return
    const capacity = Math.max(length, 2 * this.turnOf.length)
    this.turnOf = grownArray(this.turnOf, capacity, -1)
    this.turnStart = grownArray(this.turnStart, capacity)
    this.turnCount = grownArray(this.turnCount, capacity)
    this.contentTerms = grownArray(this.contentTerms, capacity)
  }
}
