// How the middleware stores one finished exchange: new messages only, long turns in parts, and a regenerated reply
// in place of the one before it. Storing never deletes another turn and never fails the call: what could not be
// stored is reported.
import type { ContextStats } from '../context-types'
import type { ForgottenStatement } from '../core/forget-tool'
import { asSiftError, type SiftError } from '../errors'
import { forgetRestatements } from '../forget'
import type { Memory, MessageInput } from '../types'
import type { ExchangeIds } from './exchange-ids'
import { splitTurn } from './long-turns'
import { partIds } from './turn-marks'

/** An exchange to store once its call has finished. */
export interface PendingExchange {
  ids: ExchangeIds
  conversationId: string | undefined
  request: string
  replySoFar: string
  startedAt: number
  /** The stats of the context the call was sent with, for the result's metadata. */
  context?: ContextStats
  /** What the forget tool removed in the exchange's steps: the exchange is stored without restating it. */
  forgotten: readonly ForgottenStatement[]
}

/** What storing one exchange did (`SiftMemoryOptions.onStore`). */
export interface StoreReport {
  /** The conversation the exchange was stored in; undefined for `'default'`. */
  conversationId: string | undefined
  /** The ids stored: the user's message (unless it was stored before) and the reply, each in its parts. */
  ids: string[]
  /** The ids of a reply this one regenerated, removed in its place. */
  replaced: string[]
  /**
   * Sentences of the exchange removed as it was stored because they restated what the forget tool removed in it (the
   * user's "please forget that I …", the reply telling what was forgotten): 0 without such a forget.
   */
  restatementsForgotten: number
  /** Why nothing was stored (a full disk, a closed memory): the call itself succeeded. */
  error?: SiftError
  /** Why the restatements could not be removed: the exchange is stored, with them. */
  forgetError?: SiftError
}

/** Most ids one `messages({ ids })` takes: as many parts as an earlier reply is looked for in. */
const MAX_LOOKED_UP = 1000

/** Stores `exchange` with `reply`, each turn in parts of at most `partChars`; resolves with what it did. */
export async function storeExchange(
  memory: Memory,
  exchange: PendingExchange,
  reply: string,
  partChars: number,
): Promise<StoreReport> {
  const { ids, conversationId, request, startedAt } = exchange
  const asked = splitTurn(request, partChars)
  const user: MessageInput[] = partIds(ids.user, asked.length).map((id, i) => ({
    id,
    role: 'user',
    content: asked[i],
    conversationId,
    timestamp: startedAt,
  }))
  const answered = reply === '' ? [] : splitTurn(reply, partChars)
  const replies: MessageInput[] = partIds(ids.reply, answered.length).map((id, i) => ({
    id,
    role: 'assistant',
    content: answered[i],
    conversationId,
  }))
  let stored: Pick<StoreReport, 'ids' | 'replaced'>
  try {
    stored = await storeTurns(memory, ids, user, replies)
  } catch (error) {
    return { conversationId, ids: [], replaced: [], restatementsForgotten: 0, error: asSiftError(error, 'add') }
  }
  if (exchange.forgotten.length === 0) return { conversationId, ...stored, restatementsForgotten: 0 }
  const exchangeIds = [...user, ...replies].map((m) => m.id!)
  try {
    const removed = await forgetRestatements(memory, exchange.forgotten, exchangeIds, conversationId)
    return { conversationId, ...stored, restatementsForgotten: removed.length }
  } catch (error) {
    return { conversationId, ...stored, restatementsForgotten: 0, forgetError: asSiftError(error, 'forget') }
  }
}

/**
 * Adds the exchange's turns. A marked user message may be stored already (a regenerated reply): its missing parts are
 * stored, and the reply stored to it before gives way to this one, the reply the app now shows. A first send finds
 * none of its parts stored and looks no further.
 */
async function storeTurns(
  memory: Memory,
  ids: ExchangeIds,
  user: MessageInput[],
  replies: MessageInput[],
): Promise<Pick<StoreReport, 'ids' | 'replaced'>> {
  if (!ids.userMarked) return { ids: await memory.add([...user, ...replies]), replaced: [] }
  const storedIds = async (wanted: string[]) =>
    new Set((await memory.messages({ ids: wanted })).messages.map((message) => message.id))
  const present = await storedIds(user.map((m) => m.id!))
  const replaced = present.size === 0 ? [] : [...(await storedIds(partIds(ids.reply, MAX_LOOKED_UP)))]
  if (replaced.length > 0) await memory.forget({ ids: replaced })
  const added = await memory.add([...user.filter((m) => !present.has(m.id!)), ...replies])
  return { ids: added, replaced }
}
