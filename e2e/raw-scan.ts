// Reads a Sift database raw in the page, with no Sift code: every object store's keys and values (strings, object
// keys, typed arrays decoded as text), and every vector it can decode (int8 rows with their residuals, and any float
// array of whole rows), so a test can show what a forget left behind.
import type { Page } from 'playwright-core'
import type { PageSession } from './browsers/session'

export interface RawScan {
  /** Where each needle was found: `store[key].path: needle`. */
  found: string[]
  /** The sid of every stored vector row, in block order (a sid stored twice appears twice). */
  vectorSids: number[]
  /** Stored vectors by sid, decoded from the int8 codes and residuals. */
  vectorsBySid: Record<number, number[]>
  /** Every row the database holds, decoded: int8 rows and float rows (centroids, float blocks). */
  rowCount: number
  /** The largest cosine between any stored row and any of the `against` vectors. */
  maxCosine: number
  /** Names of the object stores read. */
  stores: string[]
}

/** Scans database `name` for `needles` (case-insensitive) and compares every stored row with `against`. */
export function scanDatabase(
  page: Page | PageSession,
  name: string,
  needles: string[],
  against: number[][] = [],
): Promise<RawScan> {
  // Either runs the function on a JSON argument in the page; the session's signature is the plainer one to call.
  return (page as PageSession).evaluate(
    async ({ name, needles, against }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name)
        request.onsuccess = () => resolve(request.result)
        request.onerror = () => reject(request.error)
      })
      const lowered = needles.map((needle) => needle.toLowerCase())
      const found: string[] = []
      const floatRows: Float32Array[] = []
      const check = (text: string, where: string) => {
        const lower = text.toLowerCase()
        for (const [i, needle] of lowered.entries()) if (lower.includes(needle)) found.push(`${where}: ${needles[i]}`)
      }
      const latin1 = new TextDecoder('latin1')
      const utf8 = new TextDecoder('utf-8')
      const utf16 = new TextDecoder('utf-16le')
      const visit = (value: unknown, where: string, seen: Set<unknown>): void => {
        if (typeof value === 'string') {
          check(value, where)
          return
        }
        if (value instanceof ArrayBuffer) {
          visit(new Uint8Array(value), where, seen)
          return
        }
        if (ArrayBuffer.isView(value)) {
          const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
          check(latin1.decode(bytes), `${where} (bytes)`)
          check(utf8.decode(bytes), `${where} (utf-8)`)
          if (bytes.byteLength % 2 === 0) check(utf16.decode(bytes), `${where} (utf-16)`)
          // A block's per-row scales are floats too, but not vectors.
          if (value instanceof Float32Array && !/scales$/i.test(where)) floatRows.push(value)
          return
        }
        if (value instanceof Blob || !value || typeof value !== 'object' || seen.has(value)) return
        seen.add(value)
        const entries =
          value instanceof Map
            ? [...value.entries()]
            : value instanceof Set
              ? [...value].map((v, i) => [i, v])
              : Object.entries(value)
        for (const [key, inner] of entries) {
          if (typeof key === 'string') check(key, `${where} (key)`)
          else visit(key, `${where} (key)`, seen)
          visit(inner, `${where}.${String(key)}`, seen)
        }
      }
      const stores = Array.from(db.objectStoreNames)
      const records: Record<string, unknown[]> = {}
      for (const store of stores) {
        const [keys, values] = await Promise.all(
          ['getAllKeys', 'getAll'].map(
            (method) =>
              new Promise<unknown[]>((resolve, reject) => {
                const request = (
                  db.transaction(store, 'readonly').objectStore(store) as unknown as Record<
                    string,
                    () => IDBRequest<unknown[]>
                  >
                )[method]()
                request.onsuccess = () => resolve(request.result)
                request.onerror = () => reject(request.error)
              }),
          ),
        )
        records[store] = values
        keys.forEach((key, i) => {
          visit(key, `${store}[${String(key)}] (primary key)`, new Set())
          visit(values[i], `${store}[${String(key)}]`, new Set())
        })
      }
      db.close()

      // Int8 rows: value = code × scale + residual × residualScale (worker/store/vector-block.ts).
      type Block = { blockId: number; dim: number; sids: Float64Array; codes: Int8Array; scales: Float32Array }
      type Residuals = { blockId: number; residuals: Int8Array; residualScales: Float32Array }
      const residualsOf = new Map(((records.vectorResiduals ?? []) as Residuals[]).map((r) => [r.blockId, r]))
      const rows: number[][] = []
      const vectorsBySid: Record<number, number[]> = {}
      const vectorSids: number[] = []
      let dim = 0
      for (const block of (records.vectorBlocks ?? []) as Block[]) {
        if (!block.codes) continue
        dim = block.dim
        const residual = residualsOf.get(block.blockId)
        for (let r = 0; r < block.sids.length; r++) {
          const row = Array.from({ length: block.dim }, (_, d) => {
            const at = r * block.dim + d
            return (
              block.codes[at] * block.scales[r] + (residual ? residual.residuals[at] * residual.residualScales[r] : 0)
            )
          })
          rows.push(row)
          vectorSids.push(block.sids[r])
          vectorsBySid[block.sids[r]] = row
        }
      }
      dim ||= against[0]?.length ?? 0
      for (const floats of floatRows) {
        if (dim === 0 || floats.length % dim !== 0) continue
        for (let at = 0; at < floats.length; at += dim) rows.push(Array.from(floats.subarray(at, at + dim)))
      }
      const norm = (v: number[]) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0)) || 1
      let maxCosine = -1
      for (const row of rows) {
        for (const target of against) {
          if (target.length !== row.length) continue
          const cosine = row.reduce((sum, x, i) => sum + x * target[i], 0) / (norm(row) * norm(target))
          maxCosine = Math.max(maxCosine, cosine)
        }
      }
      return { found, vectorSids, vectorsBySid, rowCount: rows.length, maxCosine, stores }
    },
    { name, needles, against },
  )
}
