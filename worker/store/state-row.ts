import type { StoreState } from './records'
import type { SiftDatabase } from './schema'

/**
 * The state row, read in the caller's transaction. Open writes or repairs it, so only another connection deleting it
 * meanwhile leaves none (the operation then fails with `STORAGE_FAILED`).
 */
export async function readState(db: SiftDatabase): Promise<StoreState> {
  const state = await db.meta.get('state')
  if (state?.key !== 'state') throw new Error('the state row is missing')
  return state
}
