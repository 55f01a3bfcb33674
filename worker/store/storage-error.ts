import { SiftError } from '../../src/errors'

/**
 * What an IndexedDB failure means for the app, as a `SiftError`: `QUOTA_EXCEEDED` for a full origin (the app can free
 * space or ask for more), `STORAGE_FAILED` otherwise, with what the store was doing (`what`) in the message and the
 * original as `cause`. A `SiftError` passes through unchanged.
 */
export function toStorageError(error: unknown, what: string): SiftError {
  if (error instanceof SiftError) return error
  const names = [(error as { name?: string })?.name, (error as { inner?: { name?: string } })?.inner?.name]
  if (names.includes('QuotaExceededError')) {
    return new SiftError(
      'QUOTA_EXCEEDED',
      `Browser storage is full, so Sift could not ${what}. Free space with memory.forget(...) or ask the user to allow more storage.`,
      { cause: error },
    )
  }
  if (names.includes('ConstraintError')) {
    // Ids are checked before anything is added, so this is a stored record in the way of a new one: damaged data, not the caller's ids.
    return new SiftError(
      'STORAGE_FAILED',
      `Could not ${what}: a stored record is in the way (${(error as Error)?.message ?? String(error)}). Nothing was stored. If this persists, the database is damaged: delete it (indexedDB.deleteDatabase with the memory's name) to start over.`,
      { cause: error },
    )
  }
  return new SiftError('STORAGE_FAILED', `IndexedDB failed to ${what}: ${(error as Error)?.message ?? String(error)}`, {
    cause: error,
  })
}
