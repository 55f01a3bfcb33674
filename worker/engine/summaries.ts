import { SiftError } from '../../src/errors'
import type { ExportedSummary, Summary } from '../../src/types'
import type { CatalogMessage, SentenceCatalog } from '../index/sentence-catalog'
import { toConversationId, toSummaryRequest } from '../input/summary-input'
import type { ForgetResult } from '../store/store'
import { summaryKey, type DroppedSummaryRecord, type SummaryRecord } from '../store/records'
import { covers, type MessagePlace } from '../store/summary-rows'
import type { EngineStore } from './open-parts'
import type { WriteQueue } from './write-queue'

/** What summaries read and write: the store's summary rows, the catalog that says which messages exist, the write queue. */
export interface SummaryParts {
  store: EngineStore
  catalog: SentenceCatalog
  writes: WriteQueue
  /** Throws `CLOSED` (or the store's superseded error) once the memory cannot be used. */
  assertOpen: () => void
  /** `MemoryOptions.maxMessageChars`: a summary is no longer than a message may be. */
  maxChars: number
}

/** The summaries a context of a scope holds, and the conversations in it whose summary a forget dropped. */
export interface ScopeSummaries {
  /** Oldest first (by where each ends in time order). */
  current: SummaryRecord[]
  dropped: string[]
}

type Row = SummaryRecord | DroppedSummaryRecord

/**
 * How many forgets back `asOf` is checked precisely: a summary is written in the seconds after its turns were read, and
 * a read older than this many forgets is taken as one that a forget may have reached.
 */
const KEPT_FORGETS = 1000

/**
 * The conversation summaries (`Memory.setSummary`): one slot per conversation, in the store's `meta` rows (the text
 * sealed in an encrypted memory), read once and then held here. Every change runs in the engine's write queue; a
 * forget drops the summaries it covers inside its own write (worker/store/summary-rows.ts) and tells this cache.
 */
export class Summaries {
  private rows: Promise<Map<string, Row>> | undefined
  /** What each of the latest forgets this engine ran removed (`ForgetResult.earliest`), by revision, oldest first. */
  private readonly forgets = new Map<number, KnownForget>()

  constructor(private readonly parts: SummaryParts) {}

  /**
   * Stores a summary, or, with `asOf`, stores it dropped when a forget since that revision may have removed something
   * it covers (`forgottenSince`), decided in the transaction that writes it.
   */
  set(conversationId: unknown, text: unknown, options: unknown): Promise<void> {
    const request = toSummaryRequest(conversationId, text, options, this.parts.maxChars)
    const { through, asOf } = request
    const id = request.conversationId
    this.parts.assertOpen()
    return this.parts.writes.run(async () => {
      this.parts.assertOpen()
      const message = this.parts.catalog.message(through)
      if (!message || message.conversationId !== id)
        throw invalid(`setSummary: no message with id "${through}" is stored in the conversation "${id}".`)
      const record = summaryRecord(message, request.text, Date.now())
      const rows = await this.loaded()
      const stale =
        asOf === undefined
          ? () => this.forgottenSinceStored(message.seq, record)
          : (revision: number) => this.forgottenSince(asOf, revision, record)
      rows.set(id, await this.parts.store.saveSummary(record, stale))
    })
  }

  async get(conversationId: unknown): Promise<Summary | undefined> {
    const id = toConversationId('summary', conversationId)
    this.parts.assertOpen()
    const row = (await this.loaded()).get(id)
    return row && toSummary(row)
  }

  clear(conversationId: unknown): Promise<boolean> {
    const id = toConversationId('clearSummary', conversationId)
    this.parts.assertOpen()
    return this.parts.writes.run(async () => {
      this.parts.assertOpen()
      const rows = await this.loaded()
      const had = await this.parts.store.deleteSummary(id)
      rows.delete(id)
      return had
    })
  }

  /** An import stored these summaries' messages: each is set where its conversation has no current summary. */
  async imported(summaries: readonly ExportedSummary[]): Promise<void> {
    if (summaries.length === 0) return
    await this.parts.writes.run(async () => {
      const rows = await this.loaded()
      for (const { conversationId, text, through, setAt } of summaries) {
        const message = this.parts.catalog.message(through)
        const existing = rows.get(conversationId)
        if (!message || (existing && 'text' in existing)) continue
        const record = summaryRecord(message, text, setAt)
        await this.parts.store.saveSummary(record)
        rows.set(conversationId, record)
      }
    })
  }

  /**
   * A summary written on another device of a synced memory (worker/sync/replica.ts): stored where this conversation has
   * none, or one written or dropped before it; false when its last message is not stored here. The sync checked
   * that every message it covers is here as it was when it was written, so it holds no text forgotten here.
   */
  async arrived(summary: ExportedSummary): Promise<boolean> {
    return this.parts.writes.run(async () => {
      const rows = await this.loaded()
      const message = this.parts.catalog.message(summary.through)
      if (!message || message.conversationId !== summary.conversationId) return false
      const existing = rows.get(summary.conversationId)
      const existingAt = existing === undefined ? -Infinity : 'text' in existing ? existing.setAt : existing.droppedAt
      if (existingAt >= summary.setAt) return true
      const record = summaryRecord(message, summary.text, summary.setAt)
      await this.parts.store.saveSummary(record)
      rows.set(summary.conversationId, record)
      return true
    })
  }

  /** Every conversation's summary, current or dropped, for sync. */
  async listed(): Promise<Summary[]> {
    return [...(await this.loaded()).values()].map(toSummary)
  }

  /**
   * After a forget: the rows it dropped are read again, and what it removed is kept by revision (the earliest place
   * in each conversation), for `forgottenSince`.
   */
  forgotten({ droppedSummaries, earliest, revision }: ForgetResult): void {
    if (droppedSummaries.length > 0) this.rows = undefined
    if (revision === undefined) return
    // The newest message then: a forget with a seq at or past a message's ran after that message was stored.
    let atSeq = 0
    for (const message of this.parts.catalog.scope(undefined).messages) atSeq = Math.max(atSeq, message.seq)
    this.forgets.set(revision, { places: earliest, atSeq })
    // A Map iterates in insertion order: the first key is the oldest forget.
    if (this.forgets.size > KEPT_FORGETS) this.forgets.delete(this.forgets.keys().next().value!)
  }

  /** The summaries of `conversationId`'s scope (every conversation's when undefined). */
  async inScope(conversationId: string | undefined): Promise<ScopeSummaries> {
    const rows = [...(await this.loaded()).values()].filter(
      (row) => conversationId === undefined || row.conversationId === conversationId,
    )
    return {
      current: rows
        .filter((row): row is SummaryRecord => 'text' in row)
        .sort((a, b) => a.throughTimestamp - b.throughTimestamp || a.throughSeq - b.throughSeq),
      dropped: rows.filter((row) => !('text' in row)).map((row) => row.conversationId),
    }
  }

  /** The current summaries of every conversation, for an export. */
  async all(): Promise<SummaryRecord[]> {
    return (await this.inScope(undefined)).current
  }

  /**
   * Whether a forget after revision `asOf`, up to `revision` (the store's now), may have removed a message `summary`
   * covers. The forgets this engine ran are known by revision; any other (before it opened, or in another engine
   * during a handover between tabs) may have, and so may any forget when `asOf` is ahead of the memory (a revision of
   * another memory, or of this one before a `clear`).
   */
  private forgottenSince(asOf: number, revision: number, summary: SummaryRecord): boolean {
    if (asOf > revision) return true
    for (let next = asOf + 1; next <= revision; next++) {
      const forget = this.forgets.get(next)
      if (!forget || coveredBy(summary, forget)) return true
    }
    return false
  }

  /**
   * Without `asOf`: whether a forget this engine ran after the summary's last message (`throughSeq`) was stored
   * removed a message the summary covers. The app read that message, so its read cannot be older; a forget the app
   * read after is counted too (the summary is dropped where it may have been clean: `asOf` tells them apart).
   */
  private forgottenSinceStored(throughSeq: number, summary: SummaryRecord): boolean {
    for (const forget of this.forgets.values())
      if (forget.atSeq >= throughSeq && coveredBy(summary, forget)) return true
    return false
  }

  private loaded(): Promise<Map<string, Row>> {
    this.rows ??= this.parts.store.summaries().then((rows) => new Map(rows.map((row) => [row.conversationId, row])))
    this.rows.catch(() => (this.rows = undefined))
    return this.rows
  }
}

/** A forget this engine ran: the earliest place it removed in each conversation, and the newest seq stored then. */
interface KnownForget {
  places: readonly MessagePlace[]
  atSeq: number
}

/** Whether `forget` removed a message `summary` covers. */
function coveredBy(summary: SummaryRecord, forget: KnownForget): boolean {
  return forget.places.some((place) => place.conversationId === summary.conversationId && covers(summary, place))
}

/** The row of a summary that ends at `through`: its place in time order copied from the message, in clear. */
function summaryRecord(through: CatalogMessage, text: string, setAt: number): SummaryRecord {
  const { id, conversationId, timestamp, seq } = through
  return {
    key: summaryKey(conversationId),
    conversationId,
    through: id,
    throughTimestamp: timestamp,
    throughSeq: seq,
    setAt,
    text,
  }
}

function toSummary(row: Row): Summary {
  return 'text' in row
    ? { state: 'current', conversationId: row.conversationId, text: row.text, through: row.through, setAt: row.setAt }
    : { state: 'dropped', conversationId: row.conversationId, droppedAt: row.droppedAt }
}

function invalid(message: string): SiftError {
  return new SiftError('INVALID_INPUT', message)
}
