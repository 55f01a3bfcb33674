import type { Table } from 'dexie'
import { decodeWhole, deleteBlocks, putBlockRecords, residualRecords, touchedBlocks } from './block-records'
import type { MessageRecord } from './message-record'
import { pinnedIds, type RecordCodec } from './record-codec'
import { sameWrites, type Rewrite, type SameWrite } from './rewrite'
import type { SiftDatabase } from './schema'
import { nextRevision } from './forget-revision'
import { isSealed, type MetaRecord, type StoredMessageRecord, type StoredPinsRecord } from './stored-records'
import { dropCoveredSummaries, earliestPlaces, type MessagePlace } from './summary-rows'
import { removeFromBlock, type VectorBlock } from './vector-block'

/** What a forget removed, so the in-memory indexes can follow. */
export interface ForgetResult {
  /** The messages removed whole. */
  messageIds: string[]
  /** Every sentence removed: those of the messages removed whole, and those removed from `redacted`. */
  sids: number[]
  /** The messages that lost some of their sentences (`forget({ sentences })`), as they are stored now. */
  redacted: MessageRecord[]
  /** The conversations whose summary went with them (`dropCoveredSummaries`). */
  droppedSummaries: string[]
  /** Where the earliest message each conversation lost (whole or some of its sentences) stood (`earliestPlaces`). */
  earliest: MessagePlace[]
  /** The forget revision this forget moved the memory to (`ForgetRevisionRecord`); none when it removed nothing. */
  revision?: number
}

/** The object stores of the database (`SiftDatabase`'s tables). */
export type TableName = {
  [K in keyof SiftDatabase]: SiftDatabase[K] extends Table ? K : never
}[keyof SiftDatabase]

/** The kinds of row `meta` holds: one row each, and one summary row per conversation (`summary:<id>`). */
export type MetaRowKind = MetaRecord['key'] extends infer Key
  ? Key extends `summary:${string}`
    ? 'summary'
    : Key
  : never

/** The kind of a `meta` row by its key; `undefined` for a key Sift never writes. */
export function metaRowKind(key: string): MetaRowKind | undefined {
  if (key.startsWith('summary:')) return 'summary'
  // Every other kind, so that a row added to `MetaRecord` is a type error here until it is named.
  const kinds = { state: true, encryption: true, pins: true, revision: true } satisfies Record<
    Exclude<MetaRowKind, 'summary'>,
    true
  >
  return Object.keys(kinds).find((kind): kind is MetaRowKind => kind === key)
}

/** What one forget's write removes from the messages: the part each selector decides (forget-messages.ts, forget-sentences.ts). */
export interface MessageRemoval {
  /** The messages removed whole. */
  deleted: string[]
  /** The messages that keep some of their sentences, as they are now, and as they are stored (`encoded`). */
  redacted: MessageRecord[]
  encoded: readonly StoredMessageRecord[]
  /** Every sentence removed, increasing. */
  sids: number[]
  /** Where each message the forget touched stood: the summaries that cover one go. */
  places: MessagePlace[]
}

/** What the write is based on besides the messages, read in the forget's transaction: one field per step that reads. */
interface DerivedBasis {
  /** The vector blocks that may hold a removed sentence, by their sid ranges. */
  vectorBlocks: Awaited<ReturnType<typeof touchedBlocks>>
  /** The pins row as stored (sealed in an encrypted memory). */
  pins: StoredPinsRecord | undefined
}

/** What the steps that rewrite records prepared (decoded and encoded, outside any transaction for a sealed memory). */
interface DerivedWrites {
  vectorBlocks: { rewritten: Awaited<ReturnType<RecordCodec['encodeBlock']>>[]; emptied: number[] }
  /** The pins row without the messages removed whole; none when it named none of them. */
  pins: StoredPinsRecord | undefined
}

/** One forget's write, as each step sees it. */
interface ForgetWrite {
  removal: MessageRemoval
  prepared: DerivedWrites
}

/**
 * One structure the database keeps that may hold something of a message, where it is kept, and what a forget does to
 * it inside its own write (`write`), or why a forget leaves it as it is (`kept`). worker/engine/forget-cascade.ts
 * names each of these beside what the engine holds of it in memory; tests/engine/forget-cascade.test.ts checks that
 * every object store and every kind of `meta` row is one's.
 */
export type StoredForget = {
  name: string
  /** What of a message it holds. */
  holds: string
  tables: readonly TableName[]
  metaRows: readonly MetaRowKind[]
} & (
  | { write: (db: SiftDatabase, forget: ForgetWrite) => Promise<Partial<ForgetResult> | undefined> }
  | { kept: string }
)

/**
 * The stored part of the forget cascade, in the order the forget's write runs it: everything below is written in
 * that one transaction, so no crash or failed write can leave one part forgotten and another not.
 */
export const STORED_FORGET = [
  {
    name: 'messages',
    holds: 'the message: its text, sentence spans, role, conversation and time',
    tables: ['messages'],
    metaRows: [],
    async write(db, { removal }) {
      await db.messages.bulkDelete(removal.deleted)
      if (removal.encoded.length > 0) await db.messages.bulkPut([...removal.encoded])
      return undefined
    },
  },
  {
    name: 'lexical snapshot',
    holds: "the saved lexical index: the sentences' words and the conversations' ids",
    tables: ['lexicalSnapshots'],
    metaRows: [],
    // Deleted whole rather than rewritten: the engine saves a new one from its index once writes are quiet.
    async write(db) {
      await db.lexicalSnapshots.delete('lexical')
      return undefined
    },
  },
  {
    name: 'coarse lists',
    holds: "the saved coarse lists: centroids that are means over the sentences' vectors",
    tables: ['coarseLists'],
    metaRows: [],
    // Its centroids include the forgotten vectors; the engine saves re-centred ones.
    async write(db) {
      await db.coarseLists.delete('vectors')
      return undefined
    },
  },
  {
    name: 'vector blocks',
    holds: "each sentence's vector: its int8 codes and their residuals, by sid",
    tables: ['vectorBlocks', 'vectorResiduals'],
    metaRows: [],
    // Rewritten without the removed rows (compacted, not flagged); a block left empty is deleted.
    async write(db, { prepared }) {
      await putBlockRecords(db, prepared.vectorBlocks.rewritten)
      await deleteBlocks(db, prepared.vectorBlocks.emptied)
      return undefined
    },
  },
  {
    name: 'summary rows',
    holds: "a conversation's summary, which may repeat what a forgotten message said",
    tables: [],
    metaRows: ['summary'],
    // After the messages went: a conversation left without one loses its row (summary-rows.ts).
    async write(db, { removal }) {
      const earliest = earliestPlaces(removal.places)
      return { droppedSummaries: await dropCoveredSummaries(db, earliest), earliest }
    },
  },
  {
    name: 'pins row',
    holds: 'the ids of the pinned messages',
    tables: [],
    metaRows: ['pins'],
    async write(db, { prepared }) {
      if (prepared.pins) await db.meta.put(prepared.pins)
      return undefined
    },
  },
  {
    name: 'forget revision',
    holds: 'how many forgets removed anything: a count, nothing of a message',
    tables: [],
    metaRows: ['revision'],
    // Moved on in the same write, so a summary written from an older read can tell that a forget came since.
    write: async (db) => ({ revision: await nextRevision(db) }),
  },
  {
    name: 'state row',
    holds: 'counters, the model fingerprint and the embedding watermark: numbers, nothing of a message',
    tables: [],
    metaRows: ['state'],
    kept: 'a forgotten sid or seq is never handed out again, and the watermark counts a forgotten sentence as done',
  },
  {
    name: 'key check',
    holds: "an encrypted memory's key check: a fixed text sealed with the key, nothing of a message",
    tables: [],
    metaRows: ['encryption'],
    kept: 'it holds nothing a forget could remove',
  },
] as const satisfies readonly StoredForget[]

/** The names of the stored steps, which the engine's cascade refers to. */
export type StoredForgetName = (typeof STORED_FORGET)[number]['name']

/**
 * What a selector decides of a forget (which messages, and what of them): read in the forget's transaction, prepared
 * (decoded and encoded) outside it, and checked again before the write (`Rewrite`).
 */
export interface ForgetSelection<Basis, Prepared> {
  what: string
  read(): Promise<Basis>
  /** The sids the selected messages hold: the vector blocks that may hold one are read with them. */
  sids(basis: Basis): readonly number[]
  prepare(basis: Basis): Promise<Prepared>
  /** Whether the basis read again (`now`) still gives the prepared write, as far as the messages go. */
  unchanged(before: Basis, now: Basis): boolean
  /** Whether, read again, nothing is left to forget: nothing to misapply then, and nothing is written. */
  nothingLeft(now: Basis): boolean
  /** What the write removes from the messages; none when it removes nothing (and then writes nothing). */
  removal(now: Basis, prepared: Prepared): MessageRemoval | undefined
  /**
   * A vector block that does not decode: deleted whole when every message it may hold a row of goes whole (it is
   * never a reason to keep a forgotten row), or the codec's `damaged` error when kept sentences' vectors are in it.
   */
  undecodableBlock: 'delete' | 'refuse'
}

/**
 * A forget as one `Rewrite`: the selection's messages and every step of `STORED_FORGET` read, prepared and written
 * together, so the codec runs all of it in one write transaction (worker/store/rewrite.ts).
 */
export function forgetRewrite<Basis, Prepared>(
  db: SiftDatabase,
  codec: RecordCodec,
  selection: ForgetSelection<Basis, Prepared>,
): Rewrite<
  { selected: Basis; derived: DerivedBasis },
  Awaited<ReturnType<typeof residualRecords>>,
  { selected: Prepared; derived: DerivedWrites },
  ForgetResult
> {
  return {
    what: selection.what,
    tables: [db.messages, db.vectorBlocks, db.vectorResiduals, db.lexicalSnapshots, db.coarseLists, db.meta],
    async read() {
      const selected = await selection.read()
      const sids = selection.sids(selected)
      return { selected, derived: { vectorBlocks: await touchedBlocks(db, sids), pins: await pinsRow(db) } }
    },
    readMore: ({ derived }) => residualRecords(db, derived.vectorBlocks),
    async prepare({ selected, derived }, residuals) {
      const prepared = await selection.prepare(selected)
      const { sids, deleted } = selection.removal(selected, prepared) ?? { sids: [], deleted: [] }
      return {
        selected: prepared,
        derived: {
          vectorBlocks: await rewrittenBlocks(codec, derived.vectorBlocks, residuals, sids, selection.undecodableBlock),
          pins: await pinsWithout(codec, derived.pins, deleted),
        },
      }
    },
    unchanged: (before, now, sameWrite) =>
      selection.nothingLeft(now.selected) ||
      (selection.unchanged(before.selected, now.selected) && sameDerived(before.derived, now.derived, sameWrite)),
    async write(now, { selected, derived }) {
      const removal = selection.removal(now.selected, selected)
      if (!removal) return { messageIds: [], sids: [], redacted: [], droppedSummaries: [], earliest: [] }
      const result: ForgetResult = {
        messageIds: removal.deleted,
        sids: removal.sids,
        redacted: removal.redacted,
        droppedSummaries: [],
        earliest: [],
      }
      const forget = { removal, prepared: derived }
      for (const step of STORED_FORGET) if ('write' in step) Object.assign(result, await step.write(db, forget))
      return result
    },
  }
}

function pinsRow(db: SiftDatabase): Promise<StoredPinsRecord | undefined> {
  return db.meta.get('pins') as Promise<StoredPinsRecord | undefined>
}

/**
 * The touched blocks without the removed rows, encoded (`rewritten`: those that lost a row and kept one), and the
 * blocks left empty (`emptied`).
 */
async function rewrittenBlocks(
  codec: RecordCodec,
  touched: DerivedBasis['vectorBlocks'],
  residuals: Awaited<ReturnType<typeof residualRecords>>,
  sids: readonly number[],
  undecodable: ForgetSelection<unknown, unknown>['undecodableBlock'],
): Promise<DerivedWrites['vectorBlocks']> {
  const gone = new Set(sids)
  const decoded = await Promise.all(
    touched.map(async (record, i): Promise<VectorBlock | undefined> => {
      const block = await decodeWhole(codec, record, residuals[i])
      if (!block && undecodable === 'refuse') throw codec.damaged(`vector block ${record.blockId}`)
      return block
    }),
  )
  const rest = decoded.map((block) => block && removeFromBlock(block, gone))
  const rewritten = rest.flatMap((block, i) => (block && block !== decoded[i] ? [codec.encodeBlock(block)] : []))
  return {
    rewritten: await Promise.all(rewritten),
    emptied: touched.flatMap((record, i) => (rest[i] ? [] : [record.blockId])),
  }
}

/** The pins row without `deleted`, encoded; none when it pinned none of them (or does not decode: it pins none then). */
async function pinsWithout(
  codec: RecordCodec,
  row: StoredPinsRecord | undefined,
  deleted: readonly string[],
): Promise<StoredPinsRecord | undefined> {
  if (deleted.length === 0 || row === undefined) return undefined
  const gone = new Set(deleted)
  const ids = await codec.decodePins(row)
  return ids.some((id) => gone.has(id)) ? codec.encodePins(ids.filter((id) => !gone.has(id))) : undefined
}

/** Whether the blocks and the pins row read again are the writes read before. */
function sameDerived(before: DerivedBasis, now: DerivedBasis, sameWrite: SameWrite): boolean {
  return sameWrites(sameWrite, before.vectorBlocks, now.vectorBlocks) && samePinsRow(before.pins, now.pins)
}

/** Whether two reads of the pins row read the same write (a sealed row by its bytes, a plain one by its ids). */
function samePinsRow(before: StoredPinsRecord | undefined, now: StoredPinsRecord | undefined): boolean {
  if (before === undefined || now === undefined) return before === now
  if (isSealed(before) || isSealed(now))
    return isSealed(before) && isSealed(now) && sameBytes(before.sealed, now.sealed)
  const [a, b] = [pinnedIds(before.messageIds), pinnedIds(now.messageIds)]
  return a.length === b.length && a.every((id, i) => id === b[i])
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i])
}
