import { SiftError } from '../../src/errors'
import type { ExportedSummary, ImportOptions } from '../../src/types'
import { isBase64 } from '../crypto/base64'
import type { PassphraseBox } from '../crypto/passphrase-box'
import { describe, toValidMessage, type ValidMessage } from './message-input'
import { readInput } from './readable-input'

/** `SiftExport.format`: what marks an object as a Sift export. */
export const EXPORT_FORMAT = 'sift-memory'
/** The export layout this Sift writes, and the newest it reads. */
export const EXPORT_VERSION = 1

/**
 * PBKDF2 iterations an encrypted export may ask for: well above what Sift writes (600,000), and low enough that a
 * damaged or hostile file cannot hold the engine deriving a key for minutes while every other call waits.
 */
const MAX_IMPORT_ITERATIONS = 10_000_000

/** Messages ready to store, and where they sat in the data, so a later problem (an id already stored) can say where. */
export interface ImportBatch {
  messages: ValidMessage[]
  /** Path of the message array in what `import` was given: `messages[i]` is at `${at}[${i}]`. */
  at: string
  /** An export's pinned message ids (`SiftExport.pins`), each the id of one of `messages`. */
  pins: string[]
  /** An export's summaries (`SiftExport.summaries`), each ending at one of `messages` of its conversation. */
  summaries: ExportedSummary[]
}

/** What `import` was given, read and checked: messages to store, or an encrypted export still to open. */
export type ImportData =
  | { kind: 'messages'; batch: ImportBatch }
  | { kind: 'encrypted'; box: PassphraseBox; passphrase: string }

/** How messages without an id or a timestamp (a plain array may omit them) get one. */
export interface ImportDefaults {
  now: number
  newId: () => string
  maxMessageChars: number
}

/**
 * Reads `data` as `import` takes it (a Sift export, plain or encrypted, a message array, or either as JSON text) and
 * checks all of it: the layout and version, every message's fields and size, ids unique within the file. Throws
 * `INVALID_IMPORT` naming the place (`data.messages[12].content`), or `INVALID_INPUT` for a bad option.
 */
export function readImportData(data: unknown, options: unknown, defaults: ImportDefaults): ImportData {
  const { passphrase } = readInput('import', () => toImportOptions(options))
  return readInput('import', () => importData(data, passphrase, defaults), 'INVALID_IMPORT')
}

function importData(data: unknown, passphrase: string | undefined, defaults: ImportDefaults): ImportData {
  const value = typeof data === 'string' ? parseJson(data, 'data') : data
  if (Array.isArray(value)) return { kind: 'messages', batch: toBatch(value, 'data', false, defaults) }
  if (typeof value !== 'object' || value === null) {
    invalid(
      `data must be a Sift export (an object with format '${EXPORT_FORMAT}', from memory.export()) or an array of messages like [{ role: 'user', content: 'Hi' }], got ${describe(value)}`,
    )
  }
  const file = value as Record<string, unknown>
  assertExportHeader(file, 'data')
  if (file.encrypted !== undefined) {
    const box = toPassphraseBox(file.encrypted, 'data.encrypted')
    if (passphrase === undefined)
      invalid(
        'data is an encrypted Sift export: pass the passphrase it was exported with, memory.import(data, { passphrase })',
      )
    return { kind: 'encrypted', box, passphrase }
  }
  return { kind: 'messages', batch: messagesOfExport(file, 'data', defaults) }
}

/** The messages of the plain export an encrypted one held (`text`, once decrypted), checked like a plain one. */
export function readDecryptedExport(text: string, defaults: ImportDefaults): ImportBatch {
  const at = 'data.encrypted.data'
  const value = parseJson(text, at)
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    invalid(`${at} must hold a Sift export object, got ${describe(value)}`)
  const file = value as Record<string, unknown>
  assertExportHeader(file, at)
  if (file.encrypted !== undefined) invalid(`${at} is encrypted again; an export is encrypted once`)
  return messagesOfExport(file, at, defaults)
}

/** Throws `INVALID_IMPORT` for the first message of `batch` whose id is in `stored` (ids are kept, so they must be free). */
export function assertIdsFree({ messages, at }: ImportBatch, stored: ReadonlySet<string>): void {
  const index = messages.findIndex((m) => stored.has(m.id))
  if (index >= 0) {
    invalid(
      `${at}[${index}].id ${describe(messages[index].id)} is already stored in this memory (import keeps ids): forget that message first, or import into another memory`,
    )
  }
}

function toImportOptions(options: unknown): ImportOptions {
  if (options === undefined) return {}
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new SiftError(
      'INVALID_INPUT',
      `import() options must be an object like { passphrase: '…' }, got ${describe(options)}.`,
    )
  }
  const { passphrase } = options as ImportOptions
  if (passphrase !== undefined && (typeof passphrase !== 'string' || passphrase === '')) {
    throw new SiftError(
      'INVALID_INPUT',
      `import() options.passphrase must be a non-empty string when given, got ${describe(passphrase)}.`,
    )
  }
  return { passphrase }
}

function parseJson(text: string, at: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    return invalid(
      `${at} is a string but not valid JSON (${(error as Error).message}); pass the export's text or the parsed object`,
    )
  }
}

function assertExportHeader(file: Record<string, unknown>, at: string): void {
  const { format, version } = file
  if (format !== EXPORT_FORMAT) {
    invalid(
      `${at}.format must be '${EXPORT_FORMAT}' (a file from memory.export()), got ${describe(format)}; a plain history must be an array of messages`,
    )
  }
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    invalid(`${at}.version must be a positive integer (${EXPORT_VERSION} for this Sift), got ${describe(version)}`)
  if (version > EXPORT_VERSION) {
    invalid(
      `${at}.version is ${version}: the export was written by a newer Sift, and this one reads version ${EXPORT_VERSION} at most; update Sift to import it`,
    )
  }
}

function messagesOfExport(file: Record<string, unknown>, at: string, defaults: ImportDefaults): ImportBatch {
  if (!Array.isArray(file.messages))
    invalid(`${at}.messages must be an array of messages, got ${describe(file.messages)}`)
  const batch = toBatch(file.messages, `${at}.messages`, true, defaults)
  return {
    ...batch,
    pins: pinsOfExport(file.pins, `${at}.pins`, new Set(batch.messages.map((m) => m.id))),
    summaries: summariesOfExport(file.summaries, `${at}.summaries`, batch.messages, defaults.maxMessageChars),
  }
}

/** An export's `summaries`: absent, or at most one per conversation, each ending at a message of its conversation in the file. */
function summariesOfExport(
  summaries: unknown,
  at: string,
  messages: readonly ValidMessage[],
  maxChars: number,
): ExportedSummary[] {
  if (summaries === undefined) return []
  if (!Array.isArray(summaries)) invalid(`${at} must be an array of summaries, got ${describe(summaries)}`)
  const conversationOf = new Map(messages.map((m) => [m.id, m.conversationId]))
  const seen = new Set<string>()
  return summaries.map((item: unknown, i) => {
    const where = `${at}[${i}]`
    const { conversationId, text, through, setAt } = (item ?? {}) as Record<string, unknown>
    if (typeof conversationId !== 'string')
      invalid(`${where}.conversationId must be a string, got ${describe(conversationId)}`)
    if (typeof text !== 'string' || text.trim() === '' || text.length > maxChars)
      invalid(`${where}.text must be a non-empty string of at most ${maxChars} characters, got ${describe(text)}`)
    if (typeof through !== 'string' || conversationOf.get(through) !== conversationId)
      invalid(
        `${where}.through must be the id of a message of the conversation ${describe(conversationId)} in the file, got ${describe(through)}`,
      )
    if (typeof setAt !== 'number' || !Number.isFinite(setAt))
      invalid(`${where}.setAt must be a number, got ${describe(setAt)}`)
    if (seen.has(conversationId))
      invalid(`${where}: the conversation ${describe(conversationId)} has a summary already`)
    seen.add(conversationId)
    return { conversationId, text, through, setAt }
  })
}

/** An export's `pins`: absent, or the ids of messages in the file, each once. */
function pinsOfExport(pins: unknown, at: string, ids: ReadonlySet<string>): string[] {
  if (pins === undefined) return []
  if (!Array.isArray(pins)) invalid(`${at} must be an array of message ids, got ${describe(pins)}`)
  for (let i = 0; i < pins.length; i++) {
    if (typeof pins[i] !== 'string' || !ids.has(pins[i]))
      invalid(`${at}[${i}] must be the id of a message in the file, got ${describe(pins[i])}`)
    if (pins.indexOf(pins[i]) !== i) invalid(`${at}[${i}] ${describe(pins[i])} is pinned twice`)
  }
  return pins as string[]
}

/** Every field a message of an export has: an export keeps ids, conversations and timestamps, so none may be missing. */
const EXPORTED_FIELDS = ['id', 'conversationId', 'role', 'content', 'timestamp'] as const

function toBatch(
  items: unknown[],
  at: string,
  exported: boolean,
  { now, newId, maxMessageChars }: ImportDefaults,
): ImportBatch {
  // Array.from visits a hole (a sparse array's missing element) as undefined, which is then refused like one.
  const messages = Array.from(items, (item: unknown, i) => {
    const where = `${at}[${i}]`
    if (exported && typeof item === 'object' && item !== null && !Array.isArray(item)) {
      const missing = EXPORTED_FIELDS.find((field) => (item as Record<string, unknown>)[field] === undefined)
      if (missing)
        invalid(`${where}.${missing} is missing; every message of a Sift export has ${EXPORTED_FIELDS.join(', ')}`)
    }
    try {
      return toValidMessage(item, where, now, newId, maxMessageChars)
    } catch (error) {
      if (error instanceof SiftError && error.code === 'INVALID_INPUT')
        throw new SiftError('INVALID_IMPORT', `Cannot import: ${error.message}`)
      throw error
    }
  })
  const first = new Map<string, number>()
  messages.forEach(({ id }, i) => {
    const earlier = first.get(id)
    if (earlier !== undefined)
      invalid(`${at}[${i}].id ${describe(id)} repeats the id of ${at}[${earlier}]; each message needs a unique id`)
    first.set(id, i)
  })
  return { messages, at, pins: [], summaries: [] }
}

function toPassphraseBox(value: unknown, at: string): PassphraseBox {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    invalid(`${at} must be an object { kdf, iterations, salt, iv, data }, got ${describe(value)}`)
  const { kdf, iterations, salt, iv, data } = value as Record<string, unknown>
  if (kdf !== 'PBKDF2-SHA-256') invalid(`${at}.kdf must be 'PBKDF2-SHA-256', got ${describe(kdf)}`)
  if (
    typeof iterations !== 'number' ||
    !Number.isInteger(iterations) ||
    iterations < 1 ||
    iterations > MAX_IMPORT_ITERATIONS
  ) {
    invalid(`${at}.iterations must be an integer from 1 to ${MAX_IMPORT_ITERATIONS}, got ${describe(iterations)}`)
  }
  for (const [field, text] of [
    ['salt', salt],
    ['iv', iv],
    ['data', data],
  ] as const) {
    if (typeof text !== 'string' || text === '' || !isBase64(text))
      invalid(`${at}.${field} must be a non-empty base64 string, got ${describe(text)}`)
  }
  return { kdf, iterations, salt: salt as string, iv: iv as string, data: data as string }
}

function invalid(message: string): never {
  throw new SiftError('INVALID_IMPORT', `Cannot import: ${message}. Nothing was stored.`)
}
