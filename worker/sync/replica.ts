import type { ForgetSentence } from '../../src/history-types'
import { type ReplayedMessage, replayedForget, type ScopeSelector, type SyncedForget } from './forget-replay'
import type { CurrentSummary, Summary } from '../../src/types'
import {
  type Leaf,
  latestWrite,
  mergedMessage,
  type SyncedMessage,
  type SyncedPin,
  type SyncedSummary,
} from './merge-rules'
import { KEY_CHECK_ID, type SyncDocument, type SyncDocuments } from './sync-document'

/**
 * One memory's side of sync (docs/sync-design.md, "Two databases, one truth"): the Sift store stays the truth, and the
 * mirror (a PouchDB database the replication engine copies to and from the server) holds one sealed document per
 * message. A round brings the two together: what arrived in the mirror since the last round is applied to the store,
 * then the store's messages that the mirror lacks, or holds with sentences the store has since forgotten, are written
 * to it, and the mirror's messages the store no longer has are deleted there. Any forget, by any selector, thus
 * reaches the mirror as a deletion or a shorter message without the forget having to say what it removed, and a
 * round interrupted anywhere is repeated whole by the next one.
 */

/** What a round reads and writes of the memory (the engine's side, worker/sync/sync-link.ts). */
export interface LocalHistory {
  /** Every stored message, with its sentence spans. */
  messages(): Promise<SyncedMessage[]>
  /** Stores messages that arrived, with their ids, conversations and timestamps; ids already stored are skipped. */
  addArrived(messages: readonly SyncedMessage[]): Promise<void>
  /** Forgets whole messages or sentences of them (`memory.forget`). */
  forget(selector: { ids: string[] } | { sentences: ForgetSentence[] }): Promise<unknown>
  /** The pinned messages' ids. */
  pinned(): Promise<string[]>
  /** Pins or unpins a stored message (`memory.pin`, `unpin`); a message not stored, or already so, is left alone. */
  setPinned(messageId: string, pinned: boolean): Promise<void>
  /** Every conversation's summary, current or dropped. */
  summaries(): Promise<Summary[]>
  /** Stores a summary written on another device unless one written or dropped later is here; false when its last message is not. */
  summaryArrived(summary: Omit<CurrentSummary, 'state'>): Promise<boolean>
  /** Clears a conversation's summary (`memory.clearSummary`). */
  clearSummary(conversationId: string): Promise<unknown>
  /** The messages a summary of `conversationId` through `through` covers, each with the length of its content now. */
  covered(conversationId: string, through: string): Promise<[id: string, length: number][]>
}

/**
 * A summary as synced: its write (`SyncedSummary`: text, dropped or cleared, and when), the message it runs through,
 * and the messages it covers as they were when it was written (id and length), so that a device where one of them was
 * forgotten since, in whole or in part, does not take in a summary that may repeat it.
 */
interface TravellingSummary extends SyncedSummary {
  conversationId: string
  through?: string
  covers?: [id: string, length: number][]
}

/**
 * The field that marks a leaf deleted by settling a conflict, not by a forget (its only content: the server learns
 * that two devices wrote the record while apart, which it sees from the revisions anyway).
 */
const SETTLED = 'settled'

/** A mirror document as the changes feed and `get` give it. */
interface MirrorDocument extends SyncDocument {
  _deleted?: boolean
  [SETTLED]?: 1
}

interface MirrorChange {
  id: string
  seq: number | string
  deleted?: boolean
  changes: { rev: string }[]
  doc?: MirrorDocument
}

/** What a round needs of the mirror: the parts of PouchDB's API it calls. */
export interface MirrorDatabase {
  changes(options: {
    since: number | string
    include_docs: true
    style: 'all_docs'
  }): Promise<{ results: MirrorChange[]; last_seq: number | string }>
  get(id: string, options?: { open_revs: 'all' }): Promise<unknown>
  put(document: object): Promise<unknown>
  bulkDocs(documents: object[]): Promise<unknown>
  compact(): Promise<unknown>
}

/** What the mirror holds for one document id, as last read. */
interface MirrorEntry {
  seq: number
  rev: string
  deleted: boolean
  /** The message it carries; absent for a deletion or a document that is not a message this key opens. */
  message?: SyncedMessage
  /** The pin it carries (a message's pinned state, and when it was written). */
  pin?: SyncedPin & { messageId: string }
  /** The forget by scope it carries, for the devices that were apart when it was made. */
  forget?: SyncedForget
  /** The summary it carries. */
  summary?: TravellingSummary
}

/** The mirror's `_local` document (never replicated) that says how far the store has taken in the mirror's changes. */
const APPLIED_ID = '_local/sift-applied'

export class Replica {
  private readonly entries = new Map<string, MirrorEntry>()
  private readonly documentIds = new Map<string, string>()
  private seenSeq = 0
  /** Forgets by scope made here since the last round, to write as `forget` documents. */
  private readonly scopeForgets: SyncedForget[] = []
  /** Summary documents waiting for a message they cover to arrive here, by document id. */
  private readonly waitingSummaries = new Set<string>()
  /** Pin documents whose message has not arrived here yet, by document id: applied once it has. */
  private readonly waitingPins = new Set<string>()
  /** The revision this device last wrote from its store, by document id (`writeLocal`). */
  private readonly written = new Map<string, string>()
  /** Whether the mirror took in a deletion or a rewrite since it was last compacted: their old bodies are still in it. */
  private replacedSinceCompaction = false

  constructor(
    private readonly mirror: MirrorDatabase,
    private readonly documents: SyncDocuments,
    private readonly local: LocalHistory,
  ) {}

  /** A forget by conversation, `before` or `after` made here: written at the next round for the devices apart now. */
  forgotByScope(selector: ScopeSelector, at: number): void {
    this.scopeForgets.push({ selector, at })
  }

  /**
   * One round: the mirror read, its arrivals applied to the store, the store's changes written to the mirror. True
   * when it wrote a deletion or a rewrite there: once pushed, the server holds an old body to compact away.
   */
  async round(): Promise<boolean> {
    await this.readMirror()
    const applied = await this.appliedSeq()
    let messages = await this.local.messages()
    if (await this.applyArrivals(messages, applied)) messages = await this.local.messages()
    await this.applyPinArrivals(messages, applied)
    await this.applySummaryArrivals(messages, applied)
    await this.saveApplied(this.seenSeq)
    const replacedMessages = await this.writeLocal(messages)
    const replacedPins = await this.writePins(messages)
    const replacedSummaries = await this.writeSummaries()
    if (this.replacedSinceCompaction) {
      await this.mirror.compact()
      this.replacedSinceCompaction = false
    }
    return replacedMessages || replacedPins || replacedSummaries
  }

  /** Takes in the mirror's changes since the last read, settling every document two devices changed while apart. */
  private async readMirror(): Promise<void> {
    for (;;) {
      const { results, last_seq } = await this.mirror.changes({
        since: this.seenSeq,
        include_docs: true,
        style: 'all_docs',
      })
      let settled = false
      for (const change of results) {
        if (change.id === KEY_CHECK_ID || change.id.startsWith('_')) continue
        if (change.changes.length > 1 && (await this.settleLeaves(change))) settled = true
        else this.entries.set(change.id, await this.entryOf(change))
        // A first revision replaced nothing; any later one (a deletion, a rewrite, a settling) left an old body.
        if (!change.changes.every((leaf) => leaf.rev.startsWith('1-'))) this.replacedSinceCompaction = true
      }
      this.seenSeq = Number(last_seq)
      // A settled document's writes are new changes: read them before the round goes on.
      if (!settled) return
    }
  }

  private async entryOf(change: MirrorChange): Promise<MirrorEntry> {
    const rev = change.doc?._rev ?? change.changes[0].rev
    const entry: MirrorEntry = { seq: Number(change.seq), rev, deleted: change.deleted === true }
    if (entry.deleted || change.doc === undefined) return entry
    const opened = await this.documents.open(change.doc)
    if (opened?.kind === 'message') entry.message = opened.record as SyncedMessage
    if (opened?.kind === 'pin') entry.pin = { ...(opened.record as SyncedPin), messageId: opened.id }
    if (opened?.kind === 'forget') entry.forget = opened.record as SyncedForget
    if (opened?.kind === 'summary') entry.summary = opened.record as TravellingSummary
    return entry
  }

  /**
   * A document with several leaves (a conflict: two devices changed it while apart) is settled by the merge rules
   * (`mergedMessage`: a deletion wins, and a sentence forgotten in any leaf is forgotten): the winner is rewritten or
   * deleted and every other leaf deleted with the settled mark, the same way on every device. A settled leaf is no
   * forget, so it takes no part in a later settling; a leaf deleted by a forget does, once. False when it needs no write.
   */
  private async settleLeaves(change: MirrorChange): Promise<boolean> {
    const read = (await this.mirror.get(change.id, { open_revs: 'all' })) as { ok?: MirrorDocument }[]
    const documents = read.flatMap((result) => (result.ok && result.ok[SETTLED] !== 1 ? [result.ok] : []))
    if (documents.length < 2) return false
    const leaves: Leaf<unknown>[] = []
    let kind: string | undefined
    let id = ''
    for (const document of documents) {
      const opened = document._deleted ? undefined : await this.documents.open(document)
      // A leaf this key cannot open, or of another kind, is not Sift's to settle: leave it as the engine picked it.
      if (!document._deleted && (opened === undefined || (kind !== undefined && opened.kind !== kind))) return false
      if (opened) [kind, id] = [opened.kind, opened.id]
      leaves.push({ rev: document._rev!, deleted: document._deleted === true, value: opened?.record })
    }
    const winnerRev = change.doc?._rev ?? leaves[0].rev
    const writes: object[] = leaves
      .filter((leaf) => leaf.rev !== winnerRev)
      .map((leaf) => ({ _id: change.id, _rev: leaf.rev, _deleted: true, [SETTLED]: 1 }))
    if (kind === 'pin' || kind === 'summary') {
      // The latest pin or unpin, or summary write, stands; a pin deleted with its message is deleted everywhere.
      const latest = latestWrite(leaves as Leaf<SyncedPin | SyncedSummary>[])
      if (latest === undefined || leaves.some((leaf) => leaf.deleted))
        writes.push({ _id: change.id, _rev: winnerRev, _deleted: true })
      else writes.push({ ...(await this.documents.seal(kind, id, latest.value)), _rev: winnerRev })
    } else {
      const merged = mergedMessage(leaves as Leaf<SyncedMessage>[], winnerRev)
      if (merged === undefined) writes.push({ _id: change.id, _rev: winnerRev, _deleted: true })
      else writes.push({ ...(await this.sealed(merged)), _rev: winnerRev })
    }
    await this.mirror.bulkDocs(writes)
    return true
  }

  /**
   * Applies to the store what arrived in the mirror after `applied`: a deletion forgets the message, a message the
   * store lacks is stored, and one the store holds with sentences the arrival no longer has loses them. True when the
   * store changed.
   */
  private async applyArrivals(messages: readonly SyncedMessage[], applied: number): Promise<boolean> {
    const stored = await this.byDocumentId(messages)
    const forgottenIds: string[] = []
    const forgottenSentences: ForgetSentence[] = []
    const arrived: SyncedMessage[] = []
    const forgets = [...this.entries.values()].flatMap((entry) =>
      entry.forget && !entry.deleted ? [entry.forget] : [],
    )
    for (const [documentId, entry] of this.entries) {
      // A revision this device wrote from its store is no arrival: the store may have changed since (a forget), and
      // taking it in again would undo that change.
      if (entry.seq <= applied || this.written.get(documentId) === entry.rev) continue
      const mine = stored.get(documentId)
      if (entry.deleted) {
        if (mine) forgottenIds.push(mine.id)
      } else if (entry.message) {
        // A message a forget by scope took while it was on its way (stored before that forget was made) stays out.
        if (!mine && !forgets.some((forget) => replayedForget(forget, [addedAtKnown(entry.message!)]).length > 0))
          arrived.push(entry.message)
        else if (mine) forgottenSentences.push(...sentencesGoneFrom(mine, entry.message))
      } else if (entry.forget) {
        forgottenIds.push(...replayedForget(entry.forget, this.storedSince(stored)))
      }
    }
    if (forgottenIds.length > 0) await this.local.forget({ ids: forgottenIds })
    if (forgottenSentences.length > 0) await this.local.forget({ sentences: forgottenSentences })
    // In the order they were said, so that a new device numbers them (`seq`) as the devices that wrote them did.
    arrived.sort((a, b) => a.timestamp - b.timestamp)
    if (arrived.length > 0) await this.local.addArrived(arrived)
    return forgottenIds.length + forgottenSentences.length + arrived.length > 0
  }

  /**
   * Writes the store's state to the mirror: a message it lacks (or holds deleted, when the store has it again) or
   * holds with sentences the store has forgotten, and a deletion of each message the store no longer holds. The round
   * then compacts the mirror, so that what was deleted or rewritten leaves its files.
   */
  private async writeLocal(messages: readonly SyncedMessage[]): Promise<boolean> {
    const stored = await this.byDocumentId(messages)
    const writes: object[] = []
    for (const [documentId, mine] of stored) {
      const entry = this.entries.get(documentId)
      const behind =
        entry === undefined ||
        entry.deleted ||
        (entry.message !== undefined && sentencesGoneFrom(entry.message, mine).length > 0)
      const addedAt = entry?.message?.addedAt ?? Date.now()
      if (behind) writes.push({ ...(await this.sealed({ ...mine, addedAt })), ...(entry ? { _rev: entry.rev } : {}) })
    }
    for (const forget of this.scopeForgets.splice(0))
      writes.push(await this.documents.seal('forget', crypto.randomUUID(), forget))
    for (const [documentId, entry] of this.entries) {
      if (entry.deleted || entry.message === undefined || stored.has(documentId)) continue
      writes.push({ _id: documentId, _rev: entry.rev, _deleted: true })
    }
    return this.write(writes)
  }

  /** The stored messages that the mirror holds, with when each was first stored there (`addedAt`). */
  private *storedSince(stored: Map<string, SyncedMessage>): Iterable<ReplayedMessage> {
    for (const [documentId, mine] of stored) {
      const addedAt = this.entries.get(documentId)?.message?.addedAt
      // Not in the mirror yet: stored here since the last round, after any forget that arrives now.
      if (addedAt !== undefined) yield { ...mine, addedAt }
    }
  }

  /**
   * Pins and unpins what arrived after `applied`, for the messages the store holds; a pin of a message that has not
   * arrived yet waits for it (`waitingPins`).
   */
  private async applyPinArrivals(messages: readonly SyncedMessage[], applied: number): Promise<void> {
    const held = new Set(messages.map((message) => message.id))
    const pinned = new Set(await this.local.pinned())
    for (const [documentId, entry] of this.entries) {
      const pin = entry.pin
      const arrived = entry.seq > applied && this.written.get(documentId) !== entry.rev
      if (!pin || entry.deleted || !(arrived || this.waitingPins.has(documentId))) continue
      if (!held.has(pin.messageId)) {
        this.waitingPins.add(documentId)
        continue
      }
      this.waitingPins.delete(documentId)
      if (pinned.has(pin.messageId) !== pin.pinned) await this.local.setPinned(pin.messageId, pin.pinned)
    }
  }

  /**
   * Writes the store's pins to the mirror, one document per message ever pinned: pinned, or unpinned (a write with
   * its time, so that a pin and an unpin made apart end as the later one), or deleted once its message is.
   */
  private async writePins(messages: readonly SyncedMessage[]): Promise<boolean> {
    const held = new Set(messages.map((message) => message.id))
    const pinned = new Set(await this.local.pinned())
    const byMessage = new Map<string, [string, MirrorEntry]>()
    for (const [documentId, entry] of this.entries)
      if (entry.pin) byMessage.set(entry.pin.messageId, [documentId, entry])
    const writtenAt = Date.now()
    const writes: object[] = []
    for (const messageId of pinned) {
      const known = byMessage.get(messageId)?.[1]
      if (known && !known.deleted && known.pin?.pinned) continue
      const document = await this.documents.seal('pin', messageId, { pinned: true, writtenAt })
      writes.push({ ...document, ...(known ? { _rev: known.rev } : {}) })
    }
    for (const [messageId, [documentId, entry]] of byMessage) {
      if (entry.deleted || this.waitingPins.has(documentId)) continue
      if (!held.has(messageId)) {
        // Deleted with its message; a message merely not arrived yet keeps its pin.
        const message = this.entries.get(await this.documentIdOf('message', messageId))
        if (message?.deleted) writes.push({ _id: documentId, _rev: entry.rev, _deleted: true })
      } else if (entry.pin?.pinned && !pinned.has(messageId)) {
        const document = await this.documents.seal('pin', messageId, { pinned: false, writtenAt })
        writes.push({ ...document, _rev: entry.rev })
      }
    }
    return this.write(writes)
  }

  /**
   * Takes in the summaries that arrived after `applied` (or waited for their messages): a summary whose covered
   * messages are all here as they were when it was written is stored (`summaryArrived`, the later write standing); one
   * that covers a message forgotten here, or a sentence of one, is not; a clear clears an older summary here. A summary
   * dropped elsewhere needs nothing: the forget that dropped it arrives too and drops it here.
   */
  private async applySummaryArrivals(messages: readonly SyncedMessage[], applied: number): Promise<void> {
    const held = new Map(messages.map((message) => [message.id, message.content.length]))
    const local = new Map((await this.local.summaries()).map((summary) => [summary.conversationId, summary]))
    for (const [documentId, entry] of this.entries) {
      const summary = entry.summary
      const arrived = entry.seq > applied && this.written.get(documentId) !== entry.rev
      if (!summary || entry.deleted || !(arrived || this.waitingSummaries.has(documentId))) continue
      this.waitingSummaries.delete(documentId)
      const here = local.get(summary.conversationId)
      if (summary.text !== undefined && summary.through !== undefined) {
        const coverage = await this.coverage(summary.covers ?? [], held)
        if (coverage === 'waiting') this.waitingSummaries.add(documentId)
        if (coverage !== 'whole') continue
        const { conversationId, text, through, writtenAt: setAt } = summary
        // Taken in: a clear of it here is then this device's to send (`writeSummaries`).
        if (await this.local.summaryArrived({ conversationId, text, through, setAt }))
          this.written.set(documentId, entry.rev)
        else this.waitingSummaries.add(documentId)
      } else if (!summary.dropped && here?.state === 'current' && here.setAt < summary.writtenAt) {
        await this.local.clearSummary(summary.conversationId)
      }
    }
  }

  /**
   * Whether the messages a summary covers are here as it saw them: `whole`; `forgotten` when one is gone (its document
   * deleted, or held back by a forget by scope) or shorter here (a sentence forgotten); `waiting` when one has not
   * arrived yet, or is longer here (the forget of a sentence of it on its way).
   */
  private async coverage(
    covers: readonly [string, number][],
    held: Map<string, number>,
  ): Promise<'whole' | 'forgotten' | 'waiting'> {
    let waiting = false
    for (const [id, length] of covers) {
      const here = held.get(id)
      if (here === length) continue
      if (here === undefined) {
        const entry = this.entries.get(await this.documentIdOf('message', id))
        if (entry !== undefined) return 'forgotten'
        waiting = true
      } else if (here < length) return 'forgotten'
      else waiting = true
    }
    return waiting ? 'waiting' : 'whole'
  }

  /**
   * Writes the store's summaries to the mirror, one document per conversation: a current one with what it covers, a
   * dropped one as dropped, and a clear (a summary this device wrote that the store no longer has) as a write of its
   * own, so that the latest write stands wherever two devices wrote apart.
   */
  private async writeSummaries(): Promise<boolean> {
    const local = new Map((await this.local.summaries()).map((summary) => [summary.conversationId, summary]))
    const byConversation = new Map<string, [string, MirrorEntry]>()
    for (const [documentId, entry] of this.entries)
      if (entry.summary && !entry.deleted) byConversation.set(entry.summary.conversationId, [documentId, entry])
    const writes: object[] = []
    const seal = async (conversationId: string, summary: TravellingSummary, known: MirrorEntry | undefined) =>
      writes.push({
        ...(await this.documents.seal('summary', conversationId, summary)),
        ...(known ? { _rev: known.rev } : {}),
      })
    for (const [conversationId, here] of local) {
      const known = byConversation.get(conversationId)?.[1]
      const writtenAt = here.state === 'current' ? here.setAt : here.droppedAt
      if (known?.summary && known.summary.writtenAt >= writtenAt) continue
      if (here.state === 'dropped') await seal(conversationId, { conversationId, writtenAt, dropped: true }, known)
      else {
        const covers = await this.local.covered(conversationId, here.through)
        await seal(conversationId, { conversationId, writtenAt, text: here.text, through: here.through, covers }, known)
      }
    }
    for (const [conversationId, [documentId, entry]] of byConversation) {
      if (local.has(conversationId) || entry.summary?.text === undefined) continue
      // Cleared here: only a summary this device wrote or took in, not one still waiting for its messages.
      if (this.written.get(documentId) !== entry.rev || this.waitingSummaries.has(documentId)) continue
      await seal(conversationId, { conversationId, writtenAt: Date.now() }, entry)
    }
    return this.write(writes)
  }

  /** Writes to the mirror, noting each revision written from the store; true when one replaced an older one. */
  private async write(writes: object[]): Promise<boolean> {
    if (writes.length === 0) return false
    const results = (await this.mirror.bulkDocs(writes)) as { id?: string; rev?: string; ok?: boolean }[]
    for (const result of results) if (result.ok && result.id && result.rev) this.written.set(result.id, result.rev)
    const replaced = writes.some((write) => '_rev' in write)
    if (replaced) this.replacedSinceCompaction = true
    return replaced
  }

  private async sealed(message: SyncedMessage): Promise<SyncDocument> {
    const { id, conversationId, role, timestamp, content, spans, addedAt } = message
    return this.documents.seal('message', id, { id, conversationId, role, timestamp, content, spans, addedAt })
  }

  private async byDocumentId(messages: readonly SyncedMessage[]): Promise<Map<string, SyncedMessage>> {
    const byId = new Map<string, SyncedMessage>()
    for (const message of messages) byId.set(await this.documentIdOf('message', message.id), message)
    return byId
  }

  /** The document id of record `id` of `kind`, hashed once per session. */
  private async documentIdOf(kind: 'message' | 'pin', id: string): Promise<string> {
    const key = `${kind}:${id}`
    let documentId = this.documentIds.get(key)
    if (documentId === undefined) {
      documentId = await this.documents.documentId(kind, id)
      this.documentIds.set(key, documentId)
    }
    return documentId
  }

  private async appliedSeq(): Promise<number> {
    try {
      return Number(((await this.mirror.get(APPLIED_ID)) as { seq: number }).seq)
    } catch {
      return 0
    }
  }

  private async saveApplied(seq: number): Promise<void> {
    let rev: string | undefined
    try {
      rev = ((await this.mirror.get(APPLIED_ID)) as { _rev: string })._rev
    } catch {
      rev = undefined
    }
    await this.mirror.put({ _id: APPLIED_ID, ...(rev ? { _rev: rev } : {}), seq })
  }
}

/** A message as a replayed forget reads it; one written before `addedAt` was carried counts as stored at once. */
function addedAtKnown(message: SyncedMessage): ReplayedMessage {
  return { ...message, addedAt: message.addedAt ?? 0 }
}

/** The live sentences of a message: each non-empty span's text, at its offsets. */
function sentencesOf(message: SyncedMessage): { text: string; start: number; end: number }[] {
  const sentences = []
  for (let slot = 0; slot < message.spans.length / 2; slot++) {
    const start = message.spans[2 * slot]
    const end = message.spans[2 * slot + 1]
    if (start < end) sentences.push({ text: message.content.slice(start, end), start, end })
  }
  return sentences
}

/**
 * The sentences of `mine` that `other`, a copy of the same message, no longer has: a forget made where `other` was.
 * None when the two are the same text, or share no sentence (two different messages under one id, which no forget
 * made: neither is cut down to the other).
 */
function sentencesGoneFrom(mine: SyncedMessage, other: SyncedMessage): ForgetSentence[] {
  if (mine.content === other.content) return []
  const kept = new Set(sentencesOf(other).map((sentence) => sentence.text))
  const ours = sentencesOf(mine)
  if (!ours.some((sentence) => kept.has(sentence.text))) return []
  return ours
    .filter((sentence) => !kept.has(sentence.text))
    .map(({ start, end }) => ({ messageId: mine.id, start, end }))
}
