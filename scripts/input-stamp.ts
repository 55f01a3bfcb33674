// What a setup step's output was built from: a hash of its inputs' paths and contents, written beside the output, so
// the step reruns when an input's content changes and never because a checkout, an install or a copy touched a file.
import { createHash } from 'node:crypto'
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs'

/** Bytes read at a time: the inputs include a 300 MB JSON file, hashed without holding it whole. */
const CHUNK_BYTES = 4 * 2 ** 20

/** SHA-256 over each file's path (relative to `root`) and content, in the order given. */
export function inputStamp(root: string, files: readonly string[]): string {
  const hash = createHash('sha256')
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES)
  for (const file of files) {
    hash.update(file.slice(root.length))
    const fd = openSync(file, 'r')
    try {
      for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) hash.update(buffer.subarray(0, read))
    } finally {
      closeSync(fd)
    }
  }
  return hash.digest('hex')
}

/** Whether `stampPath` holds `stamp`: the output beside it was built from these inputs. */
export function stampMatches(stampPath: string, stamp: string): boolean {
  return existsSync(stampPath) && readFileSync(stampPath, 'utf8') === stamp
}
