/**
 * What the worker memory goal of issue 32 is measured against: the bytes of the int8 codes (and their per-row
 * scales) of every stored vector, and the lexical index's own serialised size, read from a plain store's IndexedDB
 * records (`vectorBlocks`, `lexicalSnapshots`) in the page after the engine saved its snapshot.
 */
export interface IndexBytes {
  size: number
  /** Rows of the vector blocks, and the bytes of their int8 codes and scales (residuals left out). */
  vectorRows: number
  codesBytes: number
  scalesBytes: number
  /** `serializedBytes` of the saved lexical snapshot's index; 0 when none is saved. */
  lexicalBytes: number
}

/**
 * Bytes of a structured-clone value as the arrays and strings it holds: a typed array's bytes, a string's UTF-8
 * bytes, 8 per number, 1 per boolean; objects and arrays are the sum of their values (keys and headers left out).
 */
export function serializedBytes(value: unknown): number {
  if (ArrayBuffer.isView(value)) return value.byteLength
  if (value instanceof ArrayBuffer) return value.byteLength
  if (typeof value === 'string') return utf8Length(value)
  if (typeof value === 'number') return 8
  if (typeof value === 'boolean') return 1
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + serializedBytes(item), 0)
  if (value !== null && typeof value === 'object')
    return Object.values(value).reduce((sum: number, item) => sum + serializedBytes(item), 0)
  return 0
}

function utf8Length(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code < 0xdc00) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

/** Reads the vector blocks (one at a time, by cursor) and the lexical snapshot of plain database `name`. */
export async function storedIndexBytes(name: string, size: number): Promise<IndexBytes> {
  const db = await request(indexedDB.open(name))
  try {
    const tx = db.transaction(['vectorBlocks', 'lexicalSnapshots'], 'readonly')
    const result: IndexBytes = { size, vectorRows: 0, codesBytes: 0, scalesBytes: 0, lexicalBytes: 0 }
    await new Promise<void>((resolve, reject) => {
      const cursor = tx.objectStore('vectorBlocks').openCursor()
      cursor.onerror = () => reject(cursor.error)
      cursor.onsuccess = () => {
        const at = cursor.result
        if (!at) return resolve()
        const block = at.value as { sids: ArrayLike<number>; codes?: Int8Array; scales?: Float32Array }
        result.vectorRows += block.sids.length
        result.codesBytes += block.codes?.byteLength ?? 0
        result.scalesBytes += block.scales?.byteLength ?? 0
        at.continue()
      }
    })
    const snapshot = (await request(tx.objectStore('lexicalSnapshots').get('lexical'))) as
      | { index?: unknown }
      | undefined
    result.lexicalBytes = snapshot ? serializedBytes(snapshot.index) : 0
    return result
  } finally {
    db.close()
  }
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })
}
