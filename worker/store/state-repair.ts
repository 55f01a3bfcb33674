import type { StoreState } from './records'
import { sentenceRange } from './record-check'
import { SCHEMA_VERSION, type SiftDatabase } from './schema'

/**
 * Whether the state row's counters fall behind the stored messages: the next message would then take a `seq`
 * already taken (a ConstraintError that would pass for a duplicate id) or a sid already given. Read through the
 * indexes' last keys, so a sound database costs open two lookups.
 */
export async function countersBehind(db: SiftDatabase, state: StoreState): Promise<boolean> {
  // Bounded above by Infinity: a record whose seq or firstSid is not a number (a foreign one) sorts after every number.
  const lastSeq = await db.messages.where('seq').below(Infinity).last()
  if (lastSeq !== undefined && (lastSeq.seq as number) >= state.nextSeq) return true
  const lastSid = await db.messages.where('firstSid').below(Infinity).last()
  const range = sentenceRange(lastSid)
  return range !== undefined && range.firstSid + range.count > state.nextSid
}

/**
 * The next block id no stored block has: `nextBlockId`, or past the last stored block if that is behind (the next
 * append would otherwise overwrite a block, and its vectors would be lost below the watermark, never re-embedded).
 */
export async function nextFreeBlockId(db: SiftDatabase, nextBlockId: number): Promise<number> {
  const lastBlockId = await db.vectorBlocks.orderBy(':id').lastKey()
  return typeof lastBlockId === 'number' && lastBlockId >= nextBlockId ? lastBlockId + 1 : nextBlockId
}

/**
 * A state row rebuilt from the messages, for a database whose row is missing, malformed or behind: counters past
 * every stored `seq` and sid, and no vectors (the caller clears them: which model made them, and how far they
 * reach, was in the row). Every record with a numeric `seq` counts, Sift's or not, since the `seq` index is unique.
 */
export async function rebuiltState(db: SiftDatabase, model: string): Promise<StoreState> {
  let nextSeq = 1
  let nextSid = 1
  await db.messages.each((record) => {
    // Typed as Sift's layouts, but the table may hold another app's records.
    const { seq }: { seq: unknown } = record
    if (Number.isSafeInteger(seq)) nextSeq = Math.max(nextSeq, (seq as number) + 1)
    // Plain or sealed: the sids are in clear either way.
    const range = sentenceRange(record)
    if (range) nextSid = Math.max(nextSid, range.firstSid + range.count)
  })
  return { key: 'state', schemaVersion: SCHEMA_VERSION, model, nextSeq, nextSid, nextBlockId: 1, embeddedThrough: 0 }
}
