import type { SyncedMessage } from './merge-rules'
import type { MirrorEntry, ReplicaSide, TravellingSummary } from './replica-side'

/**
 * Summaries as synced records: one document per conversation, the latest write (a summary, a drop, a clear) standing,
 * with the messages a summary covers, so that none lands where one of them was forgotten.
 */
export class SummaryRecords {
  /** Summary documents waiting for a message they cover to arrive here, by document id. */
  private readonly waiting = new Set<string>()

  constructor(private readonly side: ReplicaSide) {}

  /**
   * Takes in the summaries that arrived after `applied` (or waited for their messages): a summary whose covered
   * messages are all here as they were when it was written is stored (`summaryArrived`, the later write standing); one
   * that covers a message forgotten here, or a sentence of one, is not; a clear, or a drop by a forget elsewhere, clears
   * an older summary here.
   */
  async applyArrivals(messages: readonly SyncedMessage[], applied: number): Promise<void> {
    const held = new Map(messages.map((message) => [message.id, message.content.length]))
    const local = new Map((await this.side.local.summaries()).map((summary) => [summary.conversationId, summary]))
    for (const [documentId, entry] of this.side.entries) {
      const summary = entry.summary
      const arrived = entry.seq > applied && this.side.written.get(documentId) !== entry.rev
      if (!summary || entry.deleted || !(arrived || this.waiting.has(documentId))) continue
      this.waiting.delete(documentId)
      const here = local.get(summary.conversationId)
      if (summary.text !== undefined && summary.through !== undefined) {
        const coverage = await this.coverage(summary.covers ?? [], held)
        if (coverage === 'waiting') this.waiting.add(documentId)
        if (coverage !== 'whole') continue
        const { conversationId, text, through, writtenAt: setAt } = summary
        // Taken in: a clear of it here is then this device's to send (`writeSummaries`).
        if (await this.side.local.summaryArrived({ conversationId, text, through, setAt }))
          this.side.written.set(documentId, entry.rev)
        else this.waiting.add(documentId)
      } else if (here?.state === 'current' && here.setAt < summary.writtenAt) {
        // A clear, or a drop by a forget elsewhere: the forget arrives too, but a summary taken in here while it ran
        // (its coverage read before the forget's rewrite) would outlive it, holding what the forget removed.
        await this.side.local.clearSummary(summary.conversationId)
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
        const entry = this.side.entries.get(await this.side.documentIdOf('message', id))
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
  async write(): Promise<boolean> {
    const local = new Map((await this.side.local.summaries()).map((summary) => [summary.conversationId, summary]))
    const byConversation = new Map<string, [string, MirrorEntry]>()
    for (const [documentId, entry] of this.side.entries)
      if (entry.summary && !entry.deleted) byConversation.set(entry.summary.conversationId, [documentId, entry])
    const writes: object[] = []
    const seal = async (conversationId: string, summary: TravellingSummary, known: MirrorEntry | undefined) =>
      writes.push({
        ...(await this.side.documents.seal('summary', conversationId, summary)),
        ...(known ? { _rev: known.rev } : {}),
      })
    for (const [conversationId, here] of local) {
      const known = byConversation.get(conversationId)?.[1]
      const writtenAt = here.state === 'current' ? here.setAt : here.droppedAt
      if (known?.summary && known.summary.writtenAt >= writtenAt) continue
      if (here.state === 'dropped') await seal(conversationId, { conversationId, writtenAt, dropped: true }, known)
      else {
        const covers = await this.side.local.covered(conversationId, here.through)
        await seal(conversationId, { conversationId, writtenAt, text: here.text, through: here.through, covers }, known)
      }
    }
    for (const [conversationId, [documentId, entry]] of byConversation) {
      if (local.has(conversationId) || entry.summary?.text === undefined) continue
      // Cleared here: only a summary this device wrote or took in, not one still waiting for its messages.
      if (this.side.written.get(documentId) !== entry.rev || this.waiting.has(documentId)) continue
      await seal(conversationId, { conversationId, writtenAt: Date.now() }, entry)
    }
    return this.side.write(writes)
  }
}
