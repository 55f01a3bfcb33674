/**
 * The floor for a cold start (issue 32): open the memory's IndexedDB database and read every record the engine's open
 * reads (`worker/store/read-contents.ts`: the state row, the messages, the vector blocks without their residuals, the
 * lexical snapshot and the coarse lists) with one `getAll` per table in one transaction, and nothing else: no
 * decoding, no index. Run in the page, as a cold start's own time is measured there.
 */
const OPEN_READS = ['meta', 'messages', 'vectorBlocks', 'lexicalSnapshots', 'coarseLists'] as const

/** Reads the records open reads from database `name`; resolves with how many it read. */
export async function rawRead(name: string): Promise<number> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name)
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
  try {
    const tx = db.transaction([...OPEN_READS], 'readonly')
    const counts = await Promise.all(
      OPEN_READS.map(
        (table) =>
          new Promise<number>((resolve, reject) => {
            const request = tx.objectStore(table).getAll()
            request.onsuccess = () => resolve((request.result as unknown[]).length)
            request.onerror = () => reject(request.error)
          }),
      ),
    )
    return counts.reduce((sum, n) => sum + n, 0)
  } finally {
    db.close()
  }
}
