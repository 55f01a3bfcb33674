import type { ForgetSentence } from '../../src/history-types'
import { addedAtKnown, sentencesGoneFrom } from './message-copies'
import { MirrorNotes } from './mirror-notes'
import { writeToMirror } from './mirror-writes'
import { type ReplayedMessage, replayedForget, type SyncedForget } from './forget-replay'
import {
  type Leaf,
  latestWrite,
  mergedMessage,
  type SyncedMessage,
  type SyncedPin,
  type SyncedSummary,
} from './merge-rules'
import { PinRecords } from './pin-records'
import {
  type MirrorChange,
  type MirrorDatabase,
  type MirrorDocument,
  type MirrorEntry,
  type LocalHistory,
  type ReplicaSide,
  SETTLED,
  type TravellingSummary,
} from './replica-side'
import { SummaryRecords } from './summary-records'
import { KEY_CHECK_ID, type SyncDocument, type SyncDocuments, type SyncKind } from './sync-document'

export type { LocalHistory, MirrorDatabase } from './replica-side'

/**
 * One memory's side of sync (docs/sync-design.md, "Two databases, one truth"): the Sift store stays the truth, and the
 * mirror (a PouchDB database the replication engine copies to and from the server) holds one sealed document per
 * message. A round brings the two together: what arrived in the mirror since the last round is applied to the store,
 * then the store's messages that the mirror lacks, or holds with sentences the store has since forgotten, are written
 * to it, and the mirror's messages the store no longer has are deleted there. Any forget, by any selector, thus
 * reaches the mirror as a deletion or a shorter message without the forget having to say what it removed, and a
 * round interrupted anywhere is repeated whole by the next one.
 */

export class Replica {
  private readonly entries = new Map<string, MirrorEntry>()
  private readonly documentIds = new Map<string, string>()
  private seenSeq = 0
  /** Forgets by scope made here since the last round, to write as `forget` documents. */
  private readonly scopeForgets: SyncedForget[] = []
  /** The revision this device last wrote from its store, by document id (`writeLocal`). */
  private readonly written = new Map<string, string>()
  /** Whether the mirror took in a deletion or a rewrite since it was last compacted: their old bodies are still in it. */
  private replacedSinceCompaction = false
  /** Messages a forget by scope kept from being stored here when they arrived: their deletion is this device's to send. */
  private readonly heldBack = new Set<string>()
  /**
   * Messages a forget by id or by sentence named since they were last looked at: one the store lost by it and the mirror
   * never held (stored and forgotten between two rounds) gets a deletion of its own, for the copies other devices hold
   * under the same id (the same backup imported on both).
   */
  private readonly forgottenByName = new Set<string>()
  /** `clearedStore` was called since the last round (and `clearing` could not say so in the mirror). */
  private cleared = false
  /** The applied marker, the clears asked for, and when the adds not yet in the mirror began. */
  readonly notes: MirrorNotes

  private readonly pins: PinRecords
  private readonly summaries: SummaryRecords

  constructor(
    private readonly mirror: MirrorDatabase,
    private readonly documents: SyncDocuments,
    private readonly local: LocalHistory,
  ) {
    this.notes = new MirrorNotes(mirror)
    const side: ReplicaSide = {
      entries: this.entries,
      written: this.written,
      documents,
      local,
      documentIdOf: (kind, id) => this.documentIdOf(kind, id),
      write: (writes) => this.write(writes),
    }
    this.pins = new PinRecords(side)
    this.summaries = new SummaryRecords(side)
  }

  /** The store was cleared: the next round sends every message's deletion (`memory.clear` forgets everything). */
  clearedStore(): void {
    this.cleared = true
  }

  /**
   * A forget by conversation, `before` or `after` is about to be made here: its record, for the devices apart now, is
   * written to the mirror before the store forgets, so that a page closed at once still sends it.
   */
  async recordScopeForget(forget: SyncedForget): Promise<void> {
    await this.write([await this.documents.seal('forget', crypto.randomUUID(), forget)])
  }

  /** A forget by id or by sentence is about to be made here, of these messages (`forgottenByName`). */
  forgettingByName(messageIds: readonly string[]): void {
    for (const id of messageIds) this.forgottenByName.add(id)
  }

  /** A forget by scope whose record `recordScopeForget` could not write: written at the next round instead. */
  forgotByScope(forget: SyncedForget): void {
    this.scopeForgets.push(forget)
  }

  /**
   * One round: the mirror read, its arrivals applied to the store, the store's changes written to the mirror. True
   * when it wrote a deletion, a rewrite or a settling there: once pushed, the server holds an old body to compact away.
   */
  async round(): Promise<boolean> {
    const settled = await this.readMirror()
    const marker = await this.notes.applied()
    // Taken before the read: an add or a clear begun after it is the next round's.
    const storedFrom = await this.notes.takeStoredFrom()
    const clears = await this.notes.clearsRequested()
    const clearedHere = this.cleared
    this.cleared = false
    // Whether a forget (or a clear) has removed messages since the last round, as of the store read at `revision`:
    // the messages and the revision are read together, so a forget made after the read is the next round's.
    const forgotSince = (revision: number) =>
      clearedHere || clears > marker.clears || marker.revision === undefined || revision > marker.revision
    let { messages, forgetRevision } = await this.local.snapshot()
    // Messages the mirror holds that the store lost with no forget since the last round (its database deleted or
    // repaired on its own, the mirror kept) are taken back, as everything else in the mirror, instead of being sent
    // as deletions to every device.
    const lost = !forgotSince(forgetRevision) && (await this.missingFrom(messages, marker.seq))
    if (lost) this.written.clear()
    const applied = lost ? 0 : marker.seq
    if (await this.applyArrivals(messages, applied, storedFrom))
      ({ messages, forgetRevision } = await this.local.snapshot())
    await this.pins.applyArrivals(messages, applied)
    await this.summaries.applyArrivals(messages, applied)
    await this.notes.saveApplied({ seq: this.seenSeq, revision: marker.revision, clears: marker.clears })
    const replacedMessages = await this.writeLocal(messages, forgotSince(forgetRevision), storedFrom)
    // Only now: were the round cut off before its deletions were written, the next one still counts the forget.
    await this.notes.saveApplied({ seq: this.seenSeq, revision: forgetRevision, clears })
    await this.notes.storedWritten(storedFrom)
    const replacedPins = await this.pins.write(messages)
    const replacedSummaries = await this.summaries.write()
    if (this.replacedSinceCompaction) {
      await this.mirror.compact()
      this.replacedSinceCompaction = false
    }
    return settled || replacedMessages || replacedPins || replacedSummaries
  }

  /**
   * Takes in the mirror's changes since the last read, settling every document two devices changed while apart. True
   * when it settled one: the losing leaves' bodies, on the server too once pushed, are then old revisions to compact.
   */
  private async readMirror(): Promise<boolean> {
    let settledAny = false
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
      if (!settled) return settledAny
      settledAny = true
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
  private async applyArrivals(
    messages: readonly SyncedMessage[],
    applied: number,
    storedFrom: number | undefined,
  ): Promise<boolean> {
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
        if (!mine && forgets.some((forget) => replayedForget(forget, [addedAtKnown(entry.message!)]).length > 0))
          this.heldBack.add(documentId)
        else if (!mine) arrived.push(entry.message)
        else forgottenSentences.push(...sentencesGoneFrom(mine, entry.message))
      } else if (entry.forget) {
        forgottenIds.push(...replayedForget(entry.forget, this.storedSince(stored, storedFrom)))
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
   * holds with sentences the store has forgotten, and a deletion of each message a forget took from the store. The round
   * then compacts the mirror, so that what was deleted or rewritten leaves its files.
   */
  private async writeLocal(
    messages: readonly SyncedMessage[],
    forgotSince: boolean,
    storedFrom: number | undefined,
  ): Promise<boolean> {
    const stored = await this.byDocumentId(messages)
    const writes: object[] = []
    for (const [documentId, mine] of stored) {
      const entry = this.entries.get(documentId)
      const behind =
        entry === undefined ||
        entry.deleted ||
        (entry.message !== undefined && sentencesGoneFrom(entry.message, mine).length > 0)
      // New to the mirror: stored by an add or import begun at `storedFrom` at the earliest, or in an earlier session.
      const addedAt = entry?.message?.addedAt ?? storedFrom ?? Date.now()
      if (behind) writes.push({ ...(await this.sealed({ ...mine, addedAt })), ...(entry ? { _rev: entry.rev } : {}) })
    }
    for (const forget of this.scopeForgets.splice(0))
      writes.push(await this.documents.seal('forget', crypto.randomUUID(), forget))
    for (const id of this.forgottenByName) {
      const documentId = await this.documentIdOf('message', id)
      // Held by the mirror: its copy is deleted or rewritten as any message's. Still stored: not forgotten yet (the
      // forget lands after this round read the store), or only some of its sentences, which the next round writes.
      if (this.entries.has(documentId)) this.forgottenByName.delete(id)
      else if (!stored.has(documentId)) {
        writes.push({ _id: documentId, _deleted: true })
        this.forgottenByName.delete(id)
      }
    }
    for (const [documentId, entry] of this.entries) {
      if (entry.deleted || entry.message === undefined || stored.has(documentId)) continue
      // Gone from the store by a forget (or held back by one when it arrived); else it is taken back (`round`).
      if (forgotSince || this.heldBack.has(documentId))
        writes.push({ _id: documentId, _rev: entry.rev, _deleted: true })
    }
    return this.write(writes)
  }

  /**
   * The stored messages with when each was first stored in the memory (`addedAt`): the mirror's date, or for one new
   * since the last round, when the add or import that stored it began (`storedFrom`).
   */
  private *storedSince(stored: Map<string, SyncedMessage>, storedFrom: number | undefined): Iterable<ReplayedMessage> {
    for (const [documentId, mine] of stored) {
      const addedAt = this.entries.get(documentId)?.message?.addedAt ?? storedFrom
      // Neither: stored in an earlier session and not written to the mirror then, so dated by no forget here.
      if (addedAt !== undefined) yield { ...mine, addedAt }
    }
  }

  /** Writes to the mirror (`writeToMirror`), noting each revision written; true when one replaced an older one. */
  private async write(writes: object[]): Promise<boolean> {
    if (writes.length === 0) return false
    await writeToMirror(this.mirror, writes, this.written)
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
  private async documentIdOf(kind: SyncKind, id: string): Promise<string> {
    const key = `${kind}:${id}`
    let documentId = this.documentIds.get(key)
    if (documentId === undefined) {
      documentId = await this.documents.documentId(kind, id)
      this.documentIds.set(key, documentId)
    }
    return documentId
  }

  /**
   * Whether a message the store held is missing from `messages`: one the mirror holds live that the store took in
   * (by `applied`) or sent itself, and no forget by scope holds back. An arrival not applied yet is not missing: taken
   * for a lost store, it would make every record an arrival again, and a pin undone here since the last round would
   * come back from the mirror's older copy.
   */
  private async missingFrom(messages: readonly SyncedMessage[], applied: number): Promise<boolean> {
    const stored = await this.byDocumentId(messages)
    for (const [documentId, entry] of this.entries) {
      if (entry.deleted || !entry.message || stored.has(documentId) || this.heldBack.has(documentId)) continue
      if (entry.seq <= applied || this.written.get(documentId) === entry.rev) return true
    }
    return false
  }
}
