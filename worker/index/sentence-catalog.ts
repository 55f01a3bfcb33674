import { compareTimeOrder } from '../../src/core/render-context'
import type { Sentence } from '../../src/types'
import { sentencesOf, type MessageRecord } from '../store/message-record'

/** A stored message as the catalog keeps it: position, size, and its sentences. */
export interface CatalogMessage {
  id: string
  seq: number
  conversationId: string
  role: string
  /** Epoch milliseconds: with `seq`, its place in time order. */
  timestamp: number
  chars: number
  sids: number[]
  /** Position (0-based) of the message within its conversation in time order; renumbered when messages come or go. */
  turn: number
}

/** One scope's history: all conversations, or one. */
export interface CatalogScope {
  /** In time order: by `timestamp`, then `seq` (the order of `add`). */
  messages: CatalogMessage[]
  /** Ascending (the order of `add`), which binary searches over sids rely on. */
  sids: number[]
  chars: number
  /** Whether a message ever arrived dated before one already in the scope: until then `sids` is in time order too. */
  reordered: boolean
  /** How many of the scope's messages each role has: who speaks in it (a request may name them). */
  roles: Map<string, number>
}

/**
 * The store's messages and sentences held in memory for fast context building: sentence lookup by sid,
 * chronological order per scope, and turn numbers. Mirrors the store: built from the message records at open
 * (sentences are spans of their message), updated after each commit.
 */
export class SentenceCatalog {
  /** Indexed by sid (sids are small increasing integers): an array read is several times cheaper than a Map lookup. */
  private readonly sentences: (Sentence | undefined)[] = []
  private sentenceTotal = 0
  /** Each sentence's message, by sid (for `turnOf`, read for every candidate of every request). */
  private readonly messageOfSid: (CatalogMessage | undefined)[] = []
  private readonly messages = new Map<string, CatalogMessage>()
  private readonly all: CatalogScope = emptyScope()
  private readonly conversations = new Map<string, CatalogScope>()

  get messageCount(): number {
    return this.messages.size
  }

  get sentenceCount(): number {
    return this.sentenceTotal
  }

  /**
   * Messages in increasing `seq` — the order the store assigns them, and so their sentences' sids increase too. One
   * dated before a message already in its scope is put in its place in time order.
   */
  add(messages: readonly MessageRecord[]): void {
    const outOfOrder = new Set<CatalogScope>()
    for (const message of messages) {
      const sentences = sentencesOf(message)
      const conversation = this.conversation(message.conversationId)
      const { id, seq, conversationId, role, timestamp } = message
      const entry: CatalogMessage = {
        id,
        seq,
        conversationId,
        role,
        timestamp,
        chars: message.content.length,
        sids: sentences.map((s) => s.sid),
        turn: conversation.messages.length,
      }
      this.messages.set(message.id, entry)
      for (const sentence of sentences) {
        if (this.sentences[sentence.sid] === undefined) this.sentenceTotal++
        this.sentences[sentence.sid] = sentence
        this.messageOfSid[sentence.sid] = entry
      }
      for (const scope of [this.all, conversation]) {
        const last = scope.messages.at(-1)
        if (last !== undefined && compareTimeOrder(last, entry) > 0) outOfOrder.add(scope)
        scope.messages.push(entry)
        scope.chars += entry.chars
        scope.roles.set(role, (scope.roles.get(role) ?? 0) + 1)
        for (const sid of entry.sids) scope.sids.push(sid)
      }
    }
    // One sort per batch, not an insertion per message: a whole history imported newest first costs n log n, not n².
    for (const scope of outOfOrder) {
      scope.reordered = true
      scope.messages.sort(compareTimeOrder)
      if (scope !== this.all) scope.messages.forEach((m, turn) => (m.turn = turn))
    }
  }

  remove(messageIds: readonly string[]): void {
    const gone = messageIds.map((id) => this.messages.get(id)).filter((m): m is CatalogMessage => m !== undefined)
    if (gone.length === 0) return
    const goneIds = new Set(gone.map((m) => m.id))
    const goneSids = new Set(gone.flatMap((m) => m.sids))
    for (const message of gone) this.messages.delete(message.id)
    for (const sid of goneSids) {
      if (this.sentences[sid] === undefined) continue
      this.sentences[sid] = undefined
      this.messageOfSid[sid] = undefined
      this.sentenceTotal--
    }
    for (const [conversationId, scope] of [['', this.all] as const, ...this.conversations]) {
      scope.messages = scope.messages.filter((m) => !goneIds.has(m.id))
      scope.sids = scope.sids.filter((sid) => !goneSids.has(sid))
      scope.chars = scope.messages.reduce((sum, m) => sum + m.chars, 0)
      scope.roles = new Map()
      for (const m of scope.messages) scope.roles.set(m.role, (scope.roles.get(m.role) ?? 0) + 1)
      if (scope !== this.all) scope.messages.forEach((m, turn) => (m.turn = turn))
      if (scope !== this.all && scope.messages.length === 0) this.conversations.delete(conversationId)
    }
  }

  /**
   * Messages that lost some of their sentences (`forget({ sentences })`), as stored now: the removed sentences go, the
   * others keep their sids with their new offsets, and the message its place in time order.
   */
  replace(messages: readonly MessageRecord[]): void {
    for (const message of messages) {
      const entry = this.messages.get(message.id)
      if (!entry) continue
      const sentences = sentencesOf(message)
      const kept = new Set(sentences.map((s) => s.sid))
      const gone = new Set(entry.sids.filter((sid) => !kept.has(sid)))
      for (const sid of gone) {
        if (this.sentences[sid] === undefined) continue
        this.sentences[sid] = undefined
        this.messageOfSid[sid] = undefined
        this.sentenceTotal--
      }
      for (const sentence of sentences) this.sentences[sentence.sid] = sentence
      const shrunk = entry.chars - message.content.length
      entry.chars = message.content.length
      entry.sids = sentences.map((s) => s.sid)
      for (const scope of [this.all, this.conversation(message.conversationId)]) {
        scope.chars -= shrunk
        scope.sids = scope.sids.filter((sid) => !gone.has(sid))
      }
    }
  }

  get(sid: number): Sentence | undefined {
    return this.sentences[sid]
  }

  /** The stored message of `id`, if there is one. */
  message(id: string): CatalogMessage | undefined {
    return this.messages.get(id)
  }

  /** The whole history, or one conversation's (empty if unknown). */
  scope(conversationId?: string): CatalogScope {
    if (conversationId === undefined) return this.all
    return this.conversations.get(conversationId) ?? emptyScope()
  }

  /** Sids greater than `sid`, oldest first, at most `limit` of them. */
  sidsAbove(sid: number, limit = Infinity): number[] {
    const { sids } = this.all
    const low = countAtMost(sids, sid)
    return sids.slice(low, low + Math.min(limit, sids.length))
  }

  /** Position (0-based) of the sentence's message within its conversation, in time order. */
  turnOf(sentence: Sentence): number {
    const message = this.messageOfSid[sentence.sid]
    if (message !== undefined && message.seq === sentence.seq) return message.turn
    const { messages } = this.scope(sentence.conversationId)
    let low = 0
    let high = messages.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (compareTimeOrder(messages[middle], sentence) < 0) low = middle + 1
      else high = middle
    }
    return low
  }

  private conversation(conversationId: string): CatalogScope {
    let scope = this.conversations.get(conversationId)
    if (!scope) {
      scope = emptyScope()
      this.conversations.set(conversationId, scope)
    }
    return scope
  }
}

function emptyScope(): CatalogScope {
  return { messages: [], sids: [], chars: 0, reordered: false, roles: new Map() }
}

/** How many of the ascending `values` are > limit: e.g. the sentences above a watermark. */
export function countAbove(values: readonly number[], limit: number): number {
  return values.length - countAtMost(values, limit)
}

/** How many of the ascending `values` are ≤ limit (a binary search). */
export function countAtMost(values: readonly number[], limit: number): number {
  let low = 0
  let high = values.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (values[middle] <= limit) low = middle + 1
    else high = middle
  }
  return low
}
