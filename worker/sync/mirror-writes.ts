import type { MirrorDatabase, MirrorDocument } from './replica-side'

/** How many times a deletion the mirror refused as a conflict is made again on the document's current revision. */
const DELETION_ATTEMPTS = 3

/**
 * Writes to the mirror, noting in `written` each revision written, by document id. A deletion the mirror refuses,
 * because the document has a revision this device had not read (the other device's, replicated in since), is made
 * again on the current revision: a forget wins over a change made concurrently with it (`mergedMessage`), and that
 * revision, left standing, would arrive at the next round as a message the store no longer holds, and be stored again.
 * Still refused after `DELETION_ATTEMPTS`, it throws: the round fails and the next one repeats it whole.
 */
export async function writeToMirror(
  mirror: MirrorDatabase,
  writes: object[],
  written: Map<string, string>,
): Promise<void> {
  let refused = await bulkWrite(mirror, writes, written)
  for (let attempt = 1; refused.length > 0; attempt++) {
    if (attempt > DELETION_ATTEMPTS) throw new Error(`the mirror refused the deletion of ${refused.join(', ')}`)
    const again: object[] = []
    for (const id of refused) {
      const current = (await mirror.get(id).catch(() => undefined)) as MirrorDocument | undefined
      if (current !== undefined && !current._deleted) again.push({ _id: id, _rev: current._rev, _deleted: true })
    }
    refused = again.length > 0 ? await bulkWrite(mirror, again, written) : []
  }
}

/** One `bulkDocs`, noting each revision written; the ids of the deletions it refused as conflicts. */
async function bulkWrite(mirror: MirrorDatabase, writes: object[], written: Map<string, string>): Promise<string[]> {
  const results = (await mirror.bulkDocs(writes)) as { id?: string; rev?: string; ok?: boolean; status?: number }[]
  const refused: string[] = []
  results.forEach((result, index) => {
    if (result.ok && result.id && result.rev) written.set(result.id, result.rev)
    const write = writes[index] as { _id?: string; _deleted?: boolean }
    if (result.status === 409 && write._deleted && write._id) refused.push(write._id)
  })
  return refused
}
