import type { Table } from 'dexie'
import type { SiftError } from '../../src/errors'
import type { SiftDatabase } from './schema'
import type { StoredVectorBlock } from './stored-records'

/**
 * An operation that rewrites records from what it read (appending vectors, forgetting, quantising float32 blocks), as
 * steps that a codec runs (`RecordCodec.rewrite`): `read` what the write is based on and `readMore` what else preparing
 * it needs, `prepare` the write (decoding and encoding), and `write` it, given the basis as the write's transaction
 * reads it. Every step but `prepare` runs inside a transaction on `tables`.
 */
export interface Rewrite<Basis, Inputs, Prepared, Result> {
  /** What the operation does, for `changedMeanwhile`: "store the embeddings". */
  what: string
  tables: Table[]
  read(): Promise<Basis>
  readMore(basis: Basis): Promise<Inputs>
  prepare(basis: Basis, inputs: Inputs): Promise<Prepared>
  /** Whether the basis read again (`now`) still gives the prepared write; `sameWrite` compares a block record. */
  unchanged(before: Basis, now: Basis, sameWrite: SameWrite): boolean
  write(basis: Basis, prepared: Prepared): Promise<Result>
}

/** Whether two reads of a block record read the same write, so that a write prepared from the first may replace it. */
export type SameWrite = (before: StoredVectorBlock, now: StoredVectorBlock) => boolean

/** Runs a `Rewrite` for some codec. */
export type RewriteRunner = <Basis, Inputs, Prepared, Result>(
  db: SiftDatabase,
  rewrite: Rewrite<Basis, Inputs, Prepared, Result>,
) => Promise<Result>

/**
 * Every step in one read-write transaction, possible only where `prepare` awaits nothing but the microtask queue (a
 * plain memory: no WebCrypto). Nothing can change between reading and writing then, so no check is needed and no
 * write is refused: two engines writing to one database (a worker replaced while its engine still finishes a write,
 * tabs without Web Locks) are serialised by IndexedDB, as a plain memory always was.
 */
export const inOneTransaction: RewriteRunner = (db, rewrite) =>
  db.transaction('rw', rewrite.tables, async () => {
    const basis = await rewrite.read()
    const prepared = await rewrite.prepare(basis, await rewrite.readMore(basis))
    return rewrite.write(basis, prepared)
  })

/**
 * `read` and `readMore` in one transaction, `prepare` outside it (WebCrypto cannot run inside an IndexedDB transaction,
 * which commits while it waits), and `write` in a second one that first reads the basis again and refuses the write
 * (`changedMeanwhile`) unless it is unchanged. The engine runs its writes one at a time, so that only happens when
 * another engine writes to the same database: the write is then refused, not misapplied.
 */
export function inTwoTransactions(sameWrite: SameWrite, changedMeanwhile: (what: string) => SiftError): RewriteRunner {
  return async (db, rewrite) => {
    const { basis, inputs } = await db.transaction('r', rewrite.tables, async () => {
      const read = await rewrite.read()
      return { basis: read, inputs: await rewrite.readMore(read) }
    })
    const prepared = await rewrite.prepare(basis, inputs)
    return db.transaction('rw', rewrite.tables, async () => {
      const now = await rewrite.read()
      if (!rewrite.unchanged(basis, now, sameWrite)) throw changedMeanwhile(rewrite.what)
      return rewrite.write(now, prepared)
    })
  }
}

/** Whether each block record read before is, read again now, the same write (or missing both times). */
export function sameWrites(
  sameWrite: SameWrite,
  before: readonly (StoredVectorBlock | undefined)[],
  now: readonly (StoredVectorBlock | undefined)[],
): boolean {
  return (
    before.length === now.length &&
    before.every((record, i) => {
      const again = now[i]
      return record === undefined || again === undefined ? record === again : sameWrite(record, again)
    })
  )
}
