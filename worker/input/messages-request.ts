import { SiftError } from '../../src/errors'
import { describe } from './message-input'
import { readInput } from './readable-input'

/** A validated `messages` call with its defaults applied. */
export interface MessagesRequest {
  conversationId: string | undefined
  /** Only messages with a `seq` above this. */
  after: number
  /** Only messages with a `seq` below this (Infinity: no bound). */
  before: number
  limit: number
  /** The newest `limit` in range, newest first; else the oldest, oldest first. */
  newestFirst: boolean
  /** Only these messages, when given. */
  ids?: string[]
}

export const DEFAULT_PAGE_SIZE = 100
/** A page crosses to the page in one structured clone: 1,000 messages of the maximum size is already 100 MB. */
export const MAX_PAGE_SIZE = 1000

/** Validates a `messages` call and applies defaults; throws `INVALID_INPUT` naming what is wrong. */
export function toMessagesRequest(options: unknown = {}): MessagesRequest {
  return readInput('messages', () => messagesRequest(options))
}

function messagesRequest(options: unknown): MessagesRequest {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    invalid(`options must be an object like { limit: 100 }, got ${describe(options)}`)
  const {
    conversationId,
    after = 0,
    before = Infinity,
    limit = DEFAULT_PAGE_SIZE,
    newestFirst = false,
    ids,
  } = options as Record<string, unknown>
  if (conversationId !== undefined && typeof conversationId !== 'string')
    invalid(`conversationId must be a string when given, got ${describe(conversationId)}`)
  if (typeof after !== 'number' || !Number.isInteger(after) || after < 0)
    invalid(`after must be an integer ≥ 0 (a previous page's next), got ${describe(after)}`)
  if (typeof before !== 'number' || !(before === Infinity || (Number.isInteger(before) && before >= 1)))
    invalid(`before must be an integer ≥ 1 (a previous page's next) when given, got ${describe(before)}`)
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE)
    invalid(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${describe(limit)}`)
  if (typeof newestFirst !== 'boolean')
    invalid(`newestFirst must be true or false when given, got ${describe(newestFirst)}`)
  if (ids !== undefined) {
    if (!Array.isArray(ids) || ids.length > MAX_PAGE_SIZE)
      invalid(`ids must be an array of at most ${MAX_PAGE_SIZE} message ids when given, got ${describe(ids)}`)
    // By index, not `some`: a sparse array's hole must be refused too.
    for (let i = 0; i < ids.length; i++)
      if (typeof ids[i] !== 'string') invalid(`ids[${i}] must be a string, got ${describe(ids[i])}`)
  }
  return {
    conversationId,
    after,
    before,
    limit,
    newestFirst,
    ...(ids !== undefined && { ids: [...(ids as string[])] }),
  }
}

function invalid(message: string): never {
  throw new SiftError('INVALID_INPUT', `messages: ${message}.`)
}
