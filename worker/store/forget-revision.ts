import type { ForgetRevisionRecord } from './records'
import type { SiftDatabase } from './schema'

/**
 * The memory's forget revision (`ForgetRevisionRecord`), read in the caller's transaction: 0 before the first forget.
 * A row not in Sift's layout reads as 0 too; a revision an app obtained before then is then ahead of the memory's,
 * which vouches for nothing (`Summaries`), so a damaged row never lets a summary through.
 */
export async function readRevision(db: SiftDatabase): Promise<number> {
  const row = (await db.meta.get('revision')) as Partial<ForgetRevisionRecord> | undefined
  const revision = row?.revision
  return Number.isSafeInteger(revision) && (revision as number) > 0 ? (revision as number) : 0
}

/** Inside a forget's write, once it removed something: the next revision, stored; resolves with it. */
export async function nextRevision(db: SiftDatabase): Promise<number> {
  const revision = (await readRevision(db)) + 1
  await db.meta.put({ key: 'revision', revision } satisfies ForgetRevisionRecord)
  return revision
}
