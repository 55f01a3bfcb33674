import { fromBase64, isBase64, toBase64 } from '../crypto/base64'
import type { RecordCipher } from '../crypto/record-cipher'

/** What a synced record is (docs/sync-design.md, "What leaves the device"); the server cannot tell them apart. */
export type SyncKind = 'message' | 'pin' | 'summary' | 'forget' | 'key' | 'ids'

/** One record as the replication server stores it: an opaque id, the revision the server keeps, one sealed field. */
export interface SyncDocument {
  _id: string
  _rev?: string
  /** The sealed record, base64. */
  s: string
}

/** A record opened from its document: what it is, its id among its kind, and its value. */
export interface OpenedRecord {
  kind: SyncKind
  id: string
  record: unknown
}

/**
 * Characters of the HMAC's base64url kept as the document id: 22 characters are 132 bits, too many for two records'
 * ids to meet and few enough to keep the server's index small.
 */
const ID_CHARACTERS = 22
/**
 * Put before every document id: CouchDB refuses ids that start with "_" (its own documents'), which a base64url HMAC
 * does once in 64. The same letter for every kind, so it tells the server nothing.
 */
const ID_PREFIX = 'r'
/** Sealed records are padded to a multiple of this many bytes, so the server learns a message's length only roughly. */
const PADDING_BYTES = 256
/** The length of the record's bytes, written before them, so the padding can be taken off again. */
const LENGTH_BYTES = 4

/**
 * Turns a memory's records into the documents sync sends, and back: the document id is an HMAC of the record's kind
 * and id under the memory's id secret (the same record gets the same id on every device, and the id says nothing of
 * either), and its one field the record sealed with the memory's key (`RecordCipher`), padded, with the document id
 * as additional data, so a sealing copied into another document does not open. The kind and id travel inside the
 * sealing and must hash to the document's id again when it is opened.
 */
export class SyncDocuments {
  constructor(
    private readonly cipher: RecordCipher,
    private readonly idKey: CryptoKey,
  ) {}

  /** The HMAC key for document ids from the id secret (32 random bytes, made once per synced memory). */
  static idKeyFrom(secret: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
    return crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  }

  /** The document id of record `id` of `kind`. */
  async documentId(kind: SyncKind, id: string): Promise<string> {
    const mac = await crypto.subtle.sign('HMAC', this.idKey, new TextEncoder().encode(`${kind}:${id}`))
    const hashed = toBase64(new Uint8Array(mac)).replace(/\+/g, '-').replace(/\//g, '_').slice(0, ID_CHARACTERS)
    return ID_PREFIX + hashed
  }

  /** The document that carries `record`. */
  async seal(kind: SyncKind, id: string, record: unknown): Promise<SyncDocument> {
    const _id = await this.documentId(kind, id)
    const sealed = await this.cipher.seal(padded(packed({ kind, id, record })), sealingContext(_id))
    return { _id, s: toBase64(sealed) }
  }

  /** The key check's document: a known text sealed with the key, under `KEY_CHECK_ID`. */
  async keyCheck(): Promise<SyncDocument> {
    const sealed = await this.cipher.seal(new TextEncoder().encode(KEY_CHECK_TEXT), sealingContext(KEY_CHECK_ID))
    return { _id: KEY_CHECK_ID, s: toBase64(sealed) }
  }

  /** Whether `document` is a key check this key sealed. */
  async opensKeyCheck(document: SyncDocument): Promise<boolean> {
    if (document._id !== KEY_CHECK_ID || !isBase64(document.s)) return false
    const plain = await this.cipher.open(fromBase64(document.s), sealingContext(KEY_CHECK_ID))
    return plain !== undefined && new TextDecoder().decode(plain) === KEY_CHECK_TEXT
  }

  /**
   * The record a document carries, or `undefined` when it does not open: another key, bytes altered or moved from
   * another document, or a kind and id that do not hash to the document's id.
   */
  async open(document: SyncDocument): Promise<OpenedRecord | undefined> {
    if (!isBase64(document.s)) return undefined
    const plain = await this.cipher.open(fromBase64(document.s), sealingContext(document._id))
    if (plain === undefined) return undefined
    const opened = unpacked(unpadded(plain))
    if (opened === undefined || (await this.documentId(opened.kind, opened.id)) !== document._id) return undefined
    return opened
  }
}

/**
 * The key check's document id: fixed, not a hash under the key, so that a device with another passphrase finds it, fails
 * to open it and stops (`WRONG_KEY`) before it pushes a record sealed with its own key.
 */
export const KEY_CHECK_ID = 'sift-key-check'

const KEY_CHECK_TEXT = 'sift-memory sync key check'

function sealingContext(documentId: string): string {
  return `sync:${documentId}`
}

function packed(value: OpenedRecord): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify(value))
}

function unpacked(bytes: Uint8Array<ArrayBuffer> | undefined): OpenedRecord | undefined {
  if (bytes === undefined) return undefined
  const value = JSON.parse(new TextDecoder().decode(bytes)) as Partial<OpenedRecord> | null
  if (typeof value?.kind !== 'string' || typeof value.id !== 'string') return undefined
  return value as OpenedRecord
}

/** `bytes` behind their length, zero-filled to the next multiple of `PADDING_BYTES`. */
function padded(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const size = Math.ceil((LENGTH_BYTES + bytes.length) / PADDING_BYTES) * PADDING_BYTES
  const out = new Uint8Array(size)
  new DataView(out.buffer).setUint32(0, bytes.length)
  out.set(bytes, LENGTH_BYTES)
  return out
}

/** The bytes `padded` wrapped, or `undefined` when the length written does not fit. */
function unpadded(bytes: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> | undefined {
  if (bytes.length < LENGTH_BYTES) return undefined
  const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0)
  if (LENGTH_BYTES + length > bytes.length) return undefined
  return bytes.slice(LENGTH_BYTES, LENGTH_BYTES + length)
}
