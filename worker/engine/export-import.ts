import type { EncryptedSiftExport, SiftExport } from '../../src/types'
import { toExportOptions } from '../input/export-options'
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  readDecryptedExport,
  readImportData,
  type ImportBatch,
} from '../input/import-data'
import { openWithPassphrase, sealWithPassphrase } from '../crypto/passphrase-box'
import type { EngineStore } from './open-parts'
import type { Summaries } from './summaries'

/**
 * `export()`: the stored messages (all, or one conversation's) in `seq` order, so an import adds them in the same
 * order and time-order ties still break as they did; sealed with the passphrase when one is given. Read in one
 * transaction, so it is a consistent copy even while writes go on.
 */
export async function exportMessages(
  store: EngineStore,
  summaries: Summaries,
  options: unknown,
): Promise<SiftExport | EncryptedSiftExport> {
  const { conversationId, passphrase } = toExportOptions(options)
  const [records, pinned, summarised] = await Promise.all([
    store.messagesInSeqOrder(conversationId),
    store.pinnedIds(),
    summaries.all(),
  ])
  const exported = new Set(records.map((record) => record.id))
  const pins = pinned.filter((id) => exported.has(id))
  const kept = summarised
    .filter((summary) => exported.has(summary.through))
    .map(({ conversationId, text, through, setAt }) => ({ conversationId, text, through, setAt }))
  const plain: SiftExport = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date().toISOString(),
    messages: records.map(({ id, conversationId, role, content, timestamp }) => ({
      id,
      conversationId,
      role,
      content,
      timestamp,
    })),
    ...(pins.length > 0 && { pins }),
    ...(kept.length > 0 && { summaries: kept }),
  }
  if (passphrase === undefined) return plain
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    encrypted: await sealWithPassphrase(JSON.stringify(plain), passphrase),
  }
}

/**
 * `import()`'s data read and checked, decrypted first when it is encrypted: messages ready to store. Done before the
 * write: the decryption's WebCrypto calls could not run inside a Dexie transaction (it would commit at the first one).
 */
export async function readImport(data: unknown, options: unknown, maxMessageChars: number): Promise<ImportBatch> {
  const defaults = { now: Date.now(), newId: () => crypto.randomUUID(), maxMessageChars }
  const read = readImportData(data, options, defaults)
  if (read.kind === 'messages') return read.batch
  return readDecryptedExport(await openWithPassphrase(read.box, read.passphrase), defaults)
}
