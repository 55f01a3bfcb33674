import { SiftError } from '../../src/errors'
import type { SyncSettings } from '../sync/sync-link'
import { databaseNameOf } from '../sync/sync-keys'

/**
 * Validates `MemoryOptions.sync` (undefined: no sync). Sync seals what it sends with a key from the memory's
 * passphrase, so a memory without one (plain, or with an app's `CryptoKey`, which cannot be derived from) is refused.
 */
export function toSyncSettings(options: {
  sync?: unknown
  passphrase?: unknown
  name?: unknown
}): SyncSettings | undefined {
  const { sync, passphrase, name = 'sift' } = options
  if (sync === undefined) return undefined
  if (typeof sync !== 'object' || sync === null || typeof (sync as { url?: unknown }).url !== 'string')
    invalid("sync must be { url: string }, the URL of the user's database on the server")
  let url: URL
  try {
    url = new URL((sync as { url: string }).url)
  } catch {
    invalid(`sync.url must be an absolute http: or https: URL, got "${(sync as { url: string }).url}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    invalid(`sync.url must be an http: or https: URL, got ${url.protocol}`)
  if (databaseNameOf(url) === '') invalid(`sync.url must name a database (a last path segment), got "${url.href}"`)
  if (typeof passphrase !== 'string' || passphrase === '')
    invalid(
      "sync needs the memory's passphrase (MemoryOptions.passphrase): what it sends is sealed with a key derived from it, and every device opens the memory with it",
    )
  return { url, passphrase, memoryName: String(name) }
}

function invalid(reason: string): never {
  throw new SiftError('INVALID_INPUT', `createMemory: ${reason}.`)
}
