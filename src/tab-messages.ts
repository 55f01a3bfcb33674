// What the memories of one name post on their tab channel (src/tab-election.ts), and the check of an announcement.
import type { SerializedError } from './error-transfer'
import type { EngineOptions } from './protocol'
import type { ChannelAccess } from './tab-channel-access'
import type { IndexProgress } from './types'

/**
 * The options that shape an engine (its model, embedding, paths, limits): every option but the key and the open-time
 * file check. The leader announces the ones its engine runs with, and a tab that takes the engine over opens it with
 * those, not its own, so the engine every tab shares does not change with the tab that happens to run it.
 */
export type EngineShape = Omit<EngineOptions, 'passphrase' | 'key' | 'requireModelFiles'>

/** The leader's announcement: its engine's worker (whose lifetime lock tells of its end), shape and channel access. */
export interface Announcement {
  type: 'leader'
  worker: string
  shape: EngineShape
  access: ChannelAccess
}

/**
 * What the memories of one name say to each other over their `BroadcastChannel`. A call is always sealed (see
 * `ChannelAccess`); an encrypted memory's results and progress events are too, a plain memory's go in clear.
 */
export type TabMessage =
  | { type: 'who' }
  | Announcement
  | { type: 'call'; id: string; sealed: Uint8Array<ArrayBuffer>; exchangeKey?: Uint8Array<ArrayBuffer> }
  | { type: 'result'; id: string; sealed?: Uint8Array<ArrayBuffer>; answer?: Answer }
  | { type: 'progress'; sealed?: Uint8Array<ArrayBuffer>; progress?: IndexProgress }

/** A relayed call's outcome. */
export type Answer = { value?: unknown; error?: SerializedError }

/** Whether `message` is an announcement as a leader makes it (any script of the origin can post on the channel). */
export function isAnnouncement(message: Announcement): boolean {
  const { worker, shape, access } = message
  if (typeof worker !== 'string' || typeof shape !== 'object' || shape === null) return false
  if (typeof access !== 'object' || access === null) return false
  const bytes = (value: unknown) => value instanceof Uint8Array
  if (access.kind === 'plain') return bytes(access.exchangeKey)
  if (access.kind === 'key') return bytes(access.wrapped)
  return access.kind === 'passphrase' && bytes(access.wrapped) && bytes(access.salt)
}
