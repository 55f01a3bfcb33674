import { SiftError } from '../../src/errors'
import type { ExportOptions } from '../../src/types'
import { describe } from './message-input'
import { readInput } from './readable-input'

/** Validates `export()`'s options (`INVALID_INPUT` naming the bad one). */
export function toExportOptions(options: unknown): ExportOptions {
  return readInput('export', () => exportOptions(options))
}

function exportOptions(options: unknown): ExportOptions {
  if (options === undefined) return {}
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    invalid(`export() options must be an object like { conversationId: 'default' }, got ${describe(options)}`)
  }
  const { conversationId, passphrase } = options as ExportOptions
  if (conversationId !== undefined && (typeof conversationId !== 'string' || conversationId === '')) {
    invalid(`export() options.conversationId must be a non-empty string when given, got ${describe(conversationId)}`)
  }
  if (passphrase !== undefined && (typeof passphrase !== 'string' || passphrase === '')) {
    invalid(
      `export() options.passphrase must be a non-empty string when given (or omit it for a plain export), got ${describe(passphrase)}`,
    )
  }
  return { conversationId, passphrase }
}

function invalid(message: string): never {
  throw new SiftError('INVALID_INPUT', `${message}.`)
}
