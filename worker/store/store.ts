import type { Table } from 'dexie'
import { SiftError } from '../../src/errors'
import type { ForgetSelector, Sentence, StoredMessage } from '../../src/types'
import { newEncryption, unlockEncryption, type AtRestKey } from '../crypto/at-rest-key'
import type { RecordCipher } from '../crypto/record-cipher'
import type { ValidMessage } from '../input/message-input'
import {
  clearVectors,
  keptRows,
  liveSids,
  putBlocks,
  removeVectors,
  deleteBlocks,
  tailBlocks,
  withResiduals,
} from './block-records'
import { sentenceCount, sentencesOf, toMessageRecord, type MessageRecord } from './message-record'
import type { CoarseListsRecord, LexicalSnapshot, SavedIndexes, StoreState } from './records'
import { assertSchemaNotNewer } from './installed-schema'
import { toStorageError } from './storage-error'
import { isMessageRecord, isStoreState, messageSids } from './record-check'
import { reencryptStore } from './reencrypt-store'
import { countersBehind, nextFreeBlockId, rebuiltState } from './state-repair'
import { SCHEMA_VERSION, SiftDatabase, type IndexedDBSource } from './schema'
import {
  openMessages,
  sealCoarseLists,
  sealLexicalSnapshot,
  sealMessageContent,
  toSealedMessageRecord,
} from './sealed-records'
import { appendSealedVectors, prepareSealedRemoval, readSealedContents, readSealedResiduals } from './sealed-store'
import { readKeyCheck, unlockStore } from './unlock-store'
import type { FloatVectorBlock, VectorBlock, VectorResiduals } from './vector-block'
import { appendToBlocks, isFloatBlock, splitResiduals, toInt8Block } from './vector-block'

/** Everything persisted, as loaded at open to rebuild the in-memory indexes. */
export interface StoreContents<Saved extends SavedIndexes = SavedIndexes> {
  state: StoreState
  /** In `seq` order; only records in Sift's layout. */
  messages: MessageRecord[]
  /** Ids of the message records not in Sift's layout (`isMessageRecord`): left in the database, but not read. */
  skippedMessages: string[]
  blocks: VectorBlock[]
  lexical: LexicalSnapshot<Saved['lexical']> | undefined
  coarseLists: CoarseListsRecord<Saved['coarseLists']> | undefined
}

/** What a forget removed, so the in-memory indexes can follow. */
export interface ForgetResult {
  messageIds: string[]
  sids: number[]
}

export type { CoarseListsRecord, LexicalSnapshot, SavedIndexes, StoreState } from './records'
export type { IndexedDBSource } from './schema'

/**
 * IndexedDB persistence (Dexie): every public method is one transaction, so nothing is ever half-written. `Saved`
 * names the serialised forms the indexes hand over to keep; the store stores and returns them as given.
 */
export class SiftStore<Saved extends SavedIndexes = SavedIndexes> {
  /**
   * Set once another connection upgraded or deleted the database (IndexedDB's `versionchange`): the store closed its
   * connection to let that through, and every later call rejects with this error instead of reopening.
   */
  superseded: SiftError | undefined
  /** Called once, when `superseded` is set. */
  onSuperseded: ((error: SiftError) => void) | undefined

  private constructor(
    private readonly db: SiftDatabase,
    /** Open found the state row missing, malformed or behind the stored records, and rebuilt it from the messages. */
    readonly stateRebuilt: boolean,
    /** An encrypted memory's cipher: its records are sealed (worker/store/sealed-records.ts); none for a plain one. */
    private cipher: RecordCipher | undefined,
  ) {
    // Dexie's own handler closes and later reopens the database, which would fail on the newer version (or write
    // records a newer Sift does not expect), so the store stops for good instead.
    db.on('versionchange', (event) => {
      this.supersede(event.newVersion)
      return false
    })
  }

  /**
   * Opens (or creates) the database; if `model` differs from the stored fingerprint, drops stored vectors so they are
   * re-embedded. A state row that is missing (beside stored messages), malformed or behind the stored records is
   * rebuilt from the messages, the vectors and saved indexes dropped with it (`stateRebuilt`).
   *
   * With `key`, an encrypted memory is checked against it first (`WRONG_KEY` before anything is read or written), a
   * new memory is created encrypted, and a plain one is encrypted in one go. Without it, an encrypted memory is refused
   * with `WRONG_KEY`.
   */
  static async open<Saved extends SavedIndexes = SavedIndexes>(
    name: string,
    source: IndexedDBSource,
    model: string,
    key?: AtRestKey,
  ): Promise<SiftStore<Saved>> {
    const db = new SiftDatabase(name, source)
    let stateRebuilt: boolean
    let unlocked: Awaited<ReturnType<typeof unlockStore>>
    try {
      await assertSchemaNotNewer(name, source)
      await db.open()
      unlocked = await unlockStore(db, name, key)
      let created = false
      stateRebuilt = await db.transaction(
        'rw',
        [db.meta, db.messages, db.vectorBlocks, db.vectorResiduals, db.coarseLists, db.lexicalSnapshots],
        async () => {
          const state: unknown = await db.meta.get('state')
          if (state === undefined && (await db.messages.count()) === 0) {
            await db.meta.put({
              key: 'state',
              schemaVersion: SCHEMA_VERSION,
              model,
              nextSeq: 1,
              nextSid: 1,
              nextBlockId: 1,
              embeddedThrough: 0,
            })
            if (unlocked?.newRecord) await db.table('meta').put(unlocked.newRecord)
            created = true
            return false
          }
          if (!isStoreState(state) || (await countersBehind(db, state))) {
            await clearVectors(db)
            await db.lexicalSnapshots.clear()
            await db.meta.put(await rebuiltState(db, model))
            return true
          }
          if (state.model !== model) {
            await clearVectors(db)
            await db.meta.put({ ...state, schemaVersion: SCHEMA_VERSION, model, embeddedThrough: 0 })
            return false
          }
          // Dexie may have just upgraded the tables: the state row records the version they are now at.
          const current = {
            ...state,
            schemaVersion: SCHEMA_VERSION,
            nextBlockId: await nextFreeBlockId(db, state.nextBlockId),
          }
          if (current.schemaVersion !== state.schemaVersion || current.nextBlockId !== state.nextBlockId)
            await db.meta.put(current)
          return false
        },
      )
      if (unlocked?.newRecord && !created)
        await reencryptStore(db, undefined, { cipher: unlocked.cipher, record: unlocked.newRecord })
    } catch (error) {
      db.close()
      throw toStorageError(error, `open the database "${name}"`)
    }
    return new SiftStore<Saved>(db, stateRebuilt, unlocked?.cipher)
  }

  /**
   * Reads everything open needs in one transaction (the vector blocks without their residuals: see `residuals`), its
   * requests issued together rather than one after another, so the database serves them back to back. The texts come
   * first: `onTexts` gets the messages and the lexical snapshot as soon as they are read, so the caller can rebuild
   * its text indexes while the database still reads the vectors (most of the bytes). Float32 blocks left by a store
   * written before int8 are quantised (and stored so) here, where every
   * block is read anyway.
   */
  async readContents(
    onTexts?: (messages: MessageRecord[], lexical: LexicalSnapshot<Saved['lexical']> | undefined) => void,
  ): Promise<StoreContents<Saved>> {
    const { db, cipher } = this
    if (cipher)
      return this.run('read the database', () =>
        readSealedContents<Saved['lexical'], Saved['coarseLists']>(db, cipher, onTexts),
      )
    const snapshot = await this.run('read the database', () =>
      db.transaction('r', db.meta, db.messages, db.vectorBlocks, db.lexicalSnapshots, db.coarseLists, async () => {
        // Requests run in the order issued.
        const state = db.meta.get('state')
        // What was saved through this store's own methods, hence of the types they took.
        const lexical = db.lexicalSnapshots.get('lexical') as Promise<LexicalSnapshot<Saved['lexical']> | undefined>
        // In primary-key order, sorted here: reading through the seq index would look up every record twice.
        const read = db.messages.toArray().then((records: unknown[]) => {
          const messages: MessageRecord[] = []
          const skipped: string[] = []
          for (const record of records) {
            if (isMessageRecord(record)) messages.push(record)
            else skipped.push(String((record as { id: unknown }).id))
          }
          return { messages: messages.sort((a, b) => a.seq - b.seq), skipped }
        })
        const messages = read.then((r) => r.messages)
        const blocks = db.vectorBlocks.toArray() as Promise<(VectorBlock | FloatVectorBlock)[]>
        const coarseLists = db.coarseLists.get('vectors') as Promise<
          CoarseListsRecord<Saved['coarseLists']> | undefined
        >
        const texts = Promise.all([messages, lexical]).then(([m, l]) => onTexts?.(m, l))
        const [stateRecord, { messages: messageRecords, skipped }, blockRecords, lexicalRecord, coarseRecord] =
          await Promise.all([state, read, blocks, lexical, coarseLists, texts])
        return {
          state: stateRecord!,
          messages: messageRecords,
          skippedMessages: skipped,
          blocks: blockRecords,
          lexical: lexicalRecord,
          coarseLists: coarseRecord,
        }
      }),
    )
    const floatIds = snapshot.blocks.filter(isFloatBlock).map((b) => b.blockId)
    const quantized =
      floatIds.length > 0
        ? await this.run('quantise the stored vectors', () => quantizeFloatBlocks(db, floatIds))
        : new Map<number, VectorBlock>()
    const blocks = snapshot.blocks.flatMap((b) =>
      isFloatBlock(b) ? (quantized.has(b.blockId) ? [quantized.get(b.blockId)!] : []) : [b],
    )
    return { ...snapshot, blocks }
  }

  /** Every stored residual record: read after open, in the background (half the vector bytes, needed by no scan). */
  async residuals(): Promise<VectorResiduals[]> {
    const { db, cipher } = this
    return this.run('read the vector residuals', () =>
      cipher ? readSealedResiduals(db, cipher) : db.vectorResiduals.toArray(),
    )
  }

  /** Stores messages and their sentences atomically; rejects the whole batch if any id already exists. */
  async addMessages(batch: readonly ValidMessage[]): Promise<{ messages: MessageRecord[]; sentences: Sentence[] }> {
    const { db, cipher } = this
    // Split before the transaction, and sealed there with a key: WebCrypto cannot run inside one. Seq and sids follow.
    const unnumbered = batch.map((message) => toMessageRecord({ ...message, seq: 0 }, 0))
    const sealed =
      cipher &&
      (await this.run('encrypt the messages', () =>
        Promise.all(unnumbered.map((record) => sealMessageContent(cipher, record))),
      ))
    return this.run('store the messages', () =>
      db.transaction('rw', db.meta, db.messages, async () => {
        const existing = await db.messages.bulkGet(batch.map((m) => m.id))
        const taken = existing.find((m) => m !== undefined)
        if (taken) {
          throw new SiftError(
            'DUPLICATE_ID',
            `A message with id "${taken.id}" is already stored; give each message a unique id or omit it to get a generated one. Nothing from this batch was stored.`,
          )
        }
        const state = (await db.meta.get('state'))!
        let { nextSeq, nextSid } = state
        const messages: MessageRecord[] = []
        for (const unnumberedRecord of unnumbered) {
          const record = { ...unnumberedRecord, seq: nextSeq++, firstSid: nextSid }
          nextSid += sentenceCount(record)
          messages.push(record)
        }
        await db.messages.bulkAdd(
          sealed
            ? (messages.map((record, i) => toSealedMessageRecord(record, sealed[i])) as unknown as MessageRecord[])
            : messages,
        )
        await db.meta.put({ ...state, nextSeq, nextSid })
        const sentences = messages.flatMap(sentencesOf)
        return { messages, sentences }
      }),
    )
  }

  /** The messages in Sift's layout, in `seq` order (the order of `add`): every one, or one conversation's. */
  async messagesInSeqOrder(conversationId?: string): Promise<MessageRecord[]> {
    const { db } = this
    return this.run('read the messages', async () => {
      // In primary-key order and sorted here, as in readContents: reading through the seq index looks up every record twice.
      const records: unknown[] = await (conversationId === undefined
        ? db.messages.toArray()
        : db.messages.where('conversationId').equals(conversationId).toArray())
      return (await this.openMessages(records)).sort((a, b) => a.seq - b.seq)
    })
  }

  /** Which of `ids` a stored record has, in Sift's layout or not. */
  async storedIds(ids: readonly string[]): Promise<Set<string>> {
    const { db } = this
    return this.run('read the messages', () =>
      db.transaction('r', db.messages, async () => {
        // A large import into a smaller store: reading every key is one request, a lookup per id is one each.
        if ((await db.messages.count()) <= ids.length) {
          const keys = new Set(await db.messages.toCollection().primaryKeys())
          return new Set(ids.filter((id) => keys.has(id)))
        }
        const records = await db.messages.bulkGet([...ids])
        return new Set(ids.filter((_, i) => records[i] !== undefined))
      }),
    )
  }

  /**
   * Appends the vectors of a backlog batch and advances the watermark to `through`, in one transaction.
   * Sentences forgotten while the batch was being embedded are dropped here, so a vector can never outlive its sentence.
   * Returns the rows actually stored.
   */
  async appendVectors(
    sids: readonly number[],
    vectors: Float32Array,
    dim: number,
    through: number,
  ): Promise<{ sids: number[]; vectors: Float32Array }> {
    const { db, cipher } = this
    if (cipher)
      return this.run('store the embeddings', () => appendSealedVectors(db, cipher, sids, vectors, dim, through))
    return this.run('store the embeddings', () =>
      db.transaction('rw', db.meta, db.messages, db.vectorBlocks, db.vectorResiduals, async () => {
        const state = (await db.meta.get('state'))!
        const kept = keptRows(sids, vectors, dim, await liveSids(db, sids))
        const tail = await withResiduals(db, await tailBlocks<VectorBlock>(db))
        const { put, remove, nextBlockId } = appendToBlocks(tail, kept.sids, kept.vectors, {
          model: state.model,
          dim,
          nextBlockId: state.nextBlockId,
        })
        await deleteBlocks(db, remove)
        await putBlocks(db, put)
        await db.meta.put({ ...state, nextBlockId, embeddedThrough: Math.max(state.embeddedThrough, through) })
        return kept
      }),
    )
  }

  /** Removes the selected messages, their sentences and their vectors in one transaction. */
  async forget(selector: ForgetSelector): Promise<ForgetResult> {
    const { db, cipher } = this
    const selected = async () => {
      const messageIds = await selectMessageIds(db, selector)
      // A record not in Sift's layout is deleted with the others; it has no sentences Sift knows of.
      const records = messageIds.length > 0 ? await db.messages.bulkGet(messageIds) : []
      return { messageIds, sids: records.flatMap(messageSids).sort((a, b) => a - b) }
    }
    return this.run('forget the messages', async () => {
      // With a key, the vector blocks holding the forgotten rows are opened and sealed again before the transaction.
      const sealedRemoval = cipher && (await prepareSealedRemoval(db, cipher, async () => (await selected()).sids))
      return db.transaction(
        'rw',
        [db.messages, db.vectorBlocks, db.vectorResiduals, db.lexicalSnapshots, db.coarseLists],
        async () => {
          const { messageIds, sids } = await selected()
          if (messageIds.length === 0) return { messageIds, sids }
          await db.messages.bulkDelete(messageIds)
          await db.lexicalSnapshots.delete('lexical')
          // Its centroids are means that include the forgotten vectors; the engine saves re-centred ones.
          await db.coarseLists.delete('vectors')
          if (sealedRemoval) await sealedRemoval.apply(sids)
          else if (sids.length > 0) await removeVectors(db, sids)
          return { messageIds, sids }
        },
      )
    })
  }

  /**
   * The stored messages of `ids` that are still stored and in Sift's layout, in the order of `ids`, as the app gave
   * them (without the sentence spans).
   */
  async messagesById(ids: readonly string[]): Promise<StoredMessage[]> {
    const { db } = this
    const records = await this.run('read the messages', () => db.messages.bulkGet([...ids]))
    const messages = new Map((await this.openMessages(records.filter((r) => r !== undefined))).map((m) => [m.id, m]))
    return ids
      .flatMap((id) => messages.get(id) ?? [])
      .map(({ id, seq, role, content, conversationId, timestamp }) => ({
        id,
        seq,
        role,
        content,
        conversationId,
        timestamp,
      }))
  }

  /**
   * Deletes the whole database (every table, the state row included) and closes this store; resolves with how many
   * message records it held. Deleted rather than its tables cleared: the browser then drops the database's files
   * instead of keeping cleared records in them until it compacts them.
   */
  async deleteDatabase(): Promise<number> {
    const { db } = this
    return this.run('delete the database', async () => {
      const count = await db.messages.count()
      await db.delete()
      return count
    })
  }

  /** Replaces the saved coarse lists (one record). */
  async saveCoarseLists(lists: Saved['coarseLists']): Promise<void> {
    const { db } = this
    const { cipher } = this
    await this.run('save the vector index lists', async () =>
      db.coarseLists.put(
        cipher ? ((await sealCoarseLists(cipher, lists)) as CoarseListsRecord) : { key: 'vectors', ...lists },
      ),
    )
  }

  /** Replaces the lexical index snapshot; the caller must not let a forget run between taking `index` and this write. */
  async saveLexicalSnapshot(snapshot: Omit<LexicalSnapshot<Saved['lexical']>, 'key'>): Promise<void> {
    const { db } = this
    const { cipher } = this
    await this.run('save the lexical index', async () =>
      db.lexicalSnapshots.put(
        cipher
          ? ((await sealLexicalSnapshot(cipher, snapshot)) as unknown as LexicalSnapshot)
          : { key: 'lexical', ...snapshot },
      ),
    )
  }

  /**
   * Checks `key` as open would, reading only the key check: `WRONG_KEY` unless it opens this encrypted memory, or,
   * for a plain one, unless there is none (a key cannot encrypt a memory another tab already has open in clear).
   */
  async checkKey(key: AtRestKey | undefined): Promise<void> {
    const { db } = this
    const record = await this.run('read the key check', () => readKeyCheck(db))
    if (record !== undefined) {
      await unlockEncryption(record, key, db.name)
      return
    }
    if (key) {
      throw new SiftError(
        'WRONG_KEY',
        `The memory "${db.name}" is not encrypted, and another tab has it open, so it cannot be encrypted now. Open it without a passphrase or key, or close its other tabs first.`,
      )
    }
  }

  /**
   * Seals every record with a key from `next` (a passphrase gets a new salt) in one transaction, the key check with
   * them: the memory opens with the new key from then on, and only with it. A plain memory is encrypted so. The caller
   * must keep other writes out meanwhile (the engine's write queue).
   */
  async changeKey(next: AtRestKey): Promise<void> {
    const { db, cipher } = this
    await this.run('encrypt the memory with the new key', async () => {
      const to = await newEncryption(next)
      await reencryptStore(db, cipher, to)
      this.cipher = to.cipher
    })
  }

  /** Message records as read from the table: opened with the key, or only those in Sift's plain layout without one. */
  private async openMessages(records: readonly unknown[]): Promise<MessageRecord[]> {
    const { cipher } = this
    return cipher ? (await openMessages(cipher, records)).messages : records.filter(isMessageRecord)
  }

  close(): void {
    this.db.close()
  }

  private supersede(newVersion: number | null): void {
    if (this.superseded) return
    this.db.close({ disableAutoOpen: true })
    this.superseded = newVersion
      ? new SiftError(
          'SCHEMA_TOO_NEW',
          `Another tab opened the database "${this.db.name}" with a newer version of Sift (IndexedDB version ${newVersion}), so this memory stopped and writes nothing more. Reload the page to use the newer version.`,
        )
      : new SiftError(
          'CLOSED',
          `The database "${this.db.name}" was deleted by another connection, so this memory stopped. Create a new one with createMemory().`,
        )
    this.onSuperseded?.(this.superseded)
  }

  private async run<T>(what: string, work: () => Promise<T>): Promise<T> {
    if (this.superseded) throw this.superseded
    try {
      return await work()
    } catch (error) {
      throw this.superseded ?? toStorageError(error, what)
    }
  }
}

/**
 * Stores written before int8 vectors hold float32 blocks: quantise the given ones in place (no re-embedding), both
 * layers. Re-read in a write transaction, so a block changed or deleted since the snapshot is taken as it is now.
 * Returns the int8 blocks by blockId.
 */
async function quantizeFloatBlocks(db: SiftDatabase, blockIds: readonly number[]): Promise<Map<number, VectorBlock>> {
  const blocks = db.vectorBlocks as Table<VectorBlock | FloatVectorBlock, number>
  return db.transaction('rw', blocks, db.vectorResiduals, async () => {
    const current = (await blocks.bulkGet([...blockIds])).filter((b) => b !== undefined)
    const converted = current.filter(isFloatBlock).map(toInt8Block)
    await putBlocks(db, converted)
    return new Map(
      [
        ...current.filter((b): b is VectorBlock => !isFloatBlock(b)),
        ...converted.map((b) => splitResiduals(b).codes),
      ].map((b) => [b.blockId, b]),
    )
  })
}

async function selectMessageIds(db: SiftDatabase, selector: ForgetSelector): Promise<string[]> {
  if ('id' in selector) return (await db.messages.get(selector.id)) ? [selector.id] : []
  if ('ids' in selector) {
    const keys = await db.messages
      .bulkGet(selector.ids)
      .then((records) => records.map((record, i) => (record === undefined ? undefined : selector.ids[i])))
    return keys.filter((id) => id !== undefined)
  }
  if ('conversationId' in selector)
    return db.messages.where('conversationId').equals(selector.conversationId).primaryKeys()
  if ('after' in selector) return db.messages.where('timestamp').above(new Date(selector.after).getTime()).primaryKeys()
  return db.messages.where('timestamp').below(new Date(selector.before).getTime()).primaryKeys()
}
