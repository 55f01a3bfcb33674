import { type SentenceSlots, withoutSentences } from '../store/sentence-removal'

/**
 * How a device settles a record that two devices changed while apart (docs/sync-design.md, "Merging"): pure rules,
 * the same on every device, so every device ends with the same record whichever order the changes arrived in. The
 * replication engine keeps every concurrent revision of a document as a leaf (CouchDB's conflicts); these rules say
 * which one stands.
 */

/** One leaf of a document's revision tree, opened: its revision, whether it is a deletion, and its record. */
export interface Leaf<T> {
  rev: string
  deleted: boolean
  /** The record; absent for a deletion. */
  value?: T
}

/** A message as synced: its stored form less what each device numbers for itself (`seq`, sids). */
export interface SyncedMessage extends SentenceSlots {
  conversationId: string
  role: string
  timestamp: number
  /**
   * When a device first stored it in the synced memory (epoch milliseconds, that device's clock), for a forget by
   * scope replayed elsewhere (`replayedForget`); absent on a message of the store not written to sync yet.
   */
  addedAt?: number
}

/**
 * A conversation's summary as synced: its text; or a dropped marker, when a forget took the text it summed up; or
 * neither, when the app cleared it. A clear is a write with its time, not a deletion, so that it is ordered against
 * the writes made while apart.
 */
export interface SyncedSummary {
  /** When it was written, dropped or cleared, epoch milliseconds, as the writing device's clock read it. */
  writtenAt: number
  text?: string
  dropped?: boolean
}

/**
 * A message's leaves merged: a forget wins over any concurrent change, so a deleted leaf deletes the message; else
 * each sentence stands only if it stands in every leaf (a sentence forgotten on one device is forgotten everywhere),
 * starting from the leaf the replication engine picked as the winner (`winnerRev`). Undefined: the message is gone
 * (deleted, or every sentence forgotten somewhere).
 */
export function mergedMessage(leaves: readonly Leaf<SyncedMessage>[], winnerRev: string): SyncedMessage | undefined {
  if (leaves.some((leaf) => leaf.deleted || leaf.value === undefined)) return undefined
  const winner = leaves.find((leaf) => leaf.rev === winnerRev) ?? leaves[0]
  let merged: SyncedMessage | undefined = winner?.value
  for (const leaf of leaves) {
    if (merged === undefined) return undefined
    if (leaf === winner) continue
    const other = leaf.value!
    // Copies of one message share its slots; one that does not (another text under the same id) is not merged in.
    if (other.spans.length !== merged.spans.length) continue
    const gone = emptySlots(other).filter((slot) => !emptySlots(merged!).includes(slot))
    if (gone.length === 0) continue
    const spans = merged.spans
    merged = withoutSentences(
      merged,
      gone.map((slot) => ({ start: spans[2 * slot], end: spans[2 * slot + 1] })),
    ).record
  }
  return merged
}

/** A message's pin as synced: pinned or not, and since when; an unpin is a write, ordered like a pin. */
export interface SyncedPin {
  writtenAt: number
  pinned: boolean
}

/**
 * A summary's or a pin's leaves merged: the latest write stands (a drop or a clear of a summary and an unpin are
 * writes, so a summary dropped by a forget beats every summary written before that forget, and a pin and an unpin
 * made apart end as the later of the two), ties by revision, so every device picks the same one. Deletions take no
 * part (such a record is deleted only with its conversation or message); undefined when every leaf is one.
 */
export function latestWrite<T extends { writtenAt: number }>(leaves: readonly Leaf<T>[]): Leaf<T> | undefined {
  let latest: Leaf<T> | undefined
  for (const leaf of leaves) {
    if (leaf.deleted || leaf.value === undefined) continue
    if (
      latest === undefined ||
      leaf.value.writtenAt > latest.value!.writtenAt ||
      (leaf.value.writtenAt === latest.value!.writtenAt && leaf.rev > latest.rev)
    )
      latest = leaf
  }
  return latest
}

/** The slots of a message whose sentence was forgotten: its empty spans. */
function emptySlots({ spans }: SentenceSlots): number[] {
  const empty: number[] = []
  for (let slot = 0; slot < spans.length / 2; slot++) if (spans[2 * slot] === spans[2 * slot + 1]) empty.push(slot)
  return empty
}
