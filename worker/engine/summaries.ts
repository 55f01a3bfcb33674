import { SiftError } from '../../src/errors'
import type { ExportedSummary, Summary } from '../../src/types'
import type { CatalogMessage, SentenceCatalog } from '../index/sentence-catalog'
import { describe } from '../input/message-input'
import { summaryKey, type DroppedSummaryRecord, type SummaryRecord } from '../store/records'
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
 * The conversation summaries (`Memory.setSummary`): one slot per conversation, in the store's `meta` rows (the text
 * sealed in an encrypted memory), read once and then held here. Every change runs in the engine's write queue; a
 * forget drops the summaries it covers inside its own write (worker/store/summary-rows.ts) and tells this cache.
 */
export class Summaries {
  private rows: Promise<Map<string, Row>> | undefined

  constructor(private readonly parts: SummaryParts) {}

  set(conversationId: unknown, text: unknown, options: unknown): Promise<void> {
    const id = toConversationId('setSummary', conversationId)
    if (typeof text !== 'string' || text.trim() === '')
      throw invalid(`setSummary: text must be a non-empty string, got ${describe(text)}.`)
    if (text.length > this.parts.maxChars)
      throw invalid(
        `setSummary: the text has ${text.length} characters, over maxMessageChars (${this.parts.maxChars}); shorten it.`,
      )
    const through = (options as { through?: unknown } | undefined)?.through
    if (typeof through !== 'string' || through === '')
      throw invalid(
        `setSummary: options.through must be the id of the last message the summary covers, got ${describe(through)}.`,
      )
    this.parts.assertOpen()
    return this.parts.writes.run(async () => {
      this.parts.assertOpen()
      const message = this.parts.catalog.message(through)
      if (!message || message.conversationId !== id)
        throw invalid(`setSummary: no message with id "${through}" is stored in the conversation "${id}".`)
      const record = summaryRecord(message, text, Date.now())
      const rows = await this.loaded()
      await this.parts.store.saveSummary(record)
      rows.set(id, record)
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

  /** A forget dropped these conversations' summaries in its write: read their rows again. */
  forgotten(conversations: readonly string[]): void {
    if (conversations.length > 0) this.rows = undefined
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

  private loaded(): Promise<Map<string, Row>> {
    this.rows ??= this.parts.store.summaries().then((rows) => new Map(rows.map((row) => [row.conversationId, row])))
    this.rows.catch(() => (this.rows = undefined))
    return this.rows
  }
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

function toConversationId(method: string, conversationId: unknown): string {
  if (typeof conversationId !== 'string')
    throw invalid(`${method}: conversationId must be a string, got ${describe(conversationId)}.`)
  return conversationId
}

function invalid(message: string): SiftError {
  return new SiftError('INVALID_INPUT', message)
}
