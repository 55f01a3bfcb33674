import { SiftError } from '../../src/errors'
import type { ForgetSelector, Sentence, StoredMessage } from '../../src/types'
import { newEncryption, unlockEncryption, type AtRestKey } from '../crypto/at-rest-key'
import type { ValidMessage } from '../input/message-input'
import { addMessages } from './add-messages'
import { bindClearFields } from './bind-clear-fields'
import { appendVectors } from './append-vectors'
import { clearVectors, dropVectors } from './block-records'
import { forgetMessages } from './forget-messages'
import type { ForgetResult } from './forget-write'
import { forgetSentences } from './forget-sentences'
import { assertSchemaNotNewer } from './installed-schema'
import type { MessageRecord } from './message-record'
import { quantizeFloatBlocks, readContents, type StoreContents } from './read-contents'
import { decodeMessages, plainCodec, type RecordCodec } from './record-codec'
import { isStoreState } from './record-check'
import {
  summaryKey,
  type DroppedSummaryRecord,
  type LexicalSnapshot,
  type SavedIndexes,
  type SummaryRecord,
} from './records'
import { reencryptStore } from './reencrypt-store'
import { SCHEMA_VERSION, SiftDatabase, type IndexedDBSource } from './schema'
import { sealingCodec } from './sealing-codec'
import { countersBehind, nextFreeBlockId, rebuiltState } from './state-repair'
import type { StoredPinsRecord } from './stored-records'
import { toStorageError } from './storage-error'
import { readRevision } from './forget-revision'
import { readSummaries, saveSummaryRow } from './summary-rows'
import { readKeyCheck, unlockStore } from './unlock-store'
import type { VectorResiduals } from './vector-block'

export type { ForgetResult } from './forget-write'
export type { StoreContents } from './read-contents'
export type { CoarseListsRecord, LexicalSnapshot, SavedIndexes, StoreState } from './records'
export type { IndexedDBSource } from './schema'

/**
 * IndexedDB persistence (Dexie): every public method writes in one transaction, so nothing is ever half-written. A
 * plain and an encrypted memory run the same code, their records encoded by their `RecordCodec` (an operation that
 * rewrites what it read writes in a second transaction that first checks it is unchanged: worker/store/record-codec.ts).
 * `Saved` names the serialised forms the indexes hand over to keep; the store stores and returns them as given.
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
    /** How the memory's records are stored: as they are, or sealed with its key (`sealingCodec`). */
    private codec: RecordCodec,
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
      if (unlocked && !unlocked.newRecord) await bindClearFields(db, unlocked.cipher)
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
            if (unlocked?.newRecord) await db.meta.put(unlocked.newRecord)
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
        await reencryptStore(db, plainCodec, { cipher: unlocked.cipher, record: unlocked.newRecord })
    } catch (error) {
      db.close()
      throw toStorageError(error, `open the database "${name}"`)
    }
    return new SiftStore<Saved>(db, stateRebuilt, unlocked ? sealingCodec(unlocked.cipher) : plainCodec)
  }

  /**
   * Reads everything open needs (the vector blocks without their residuals: see `residuals`) in one transaction,
   * `onTexts` getting the messages and the lexical snapshot while the database still reads the vectors
   * (worker/store/read-contents.ts). Float32 blocks left by a store written before int8 are quantised (and stored so)
   * here, where every block is read anyway. A block that does not decode drops every stored vector, to be re-embedded
   * (`droppedVectors`).
   */
  async readContents(
    onTexts?: (messages: MessageRecord[], lexical: LexicalSnapshot<Saved['lexical']> | undefined) => void,
  ): Promise<StoreContents<Saved>> {
    const { db, codec } = this
    const { damagedBlocks, ...contents } = await this.run('read the database', () =>
      readContents<Saved>(db, codec, onTexts),
    )
    if (damagedBlocks.length > 0) {
      const state = await this.run('drop the damaged vectors', () => dropVectors(db))
      return { ...contents, state, blocks: [], coarseLists: undefined, droppedVectors: damagedBlocks }
    }
    const blocks = await this.run('quantise the stored vectors', () => quantizeFloatBlocks(db, codec, contents.blocks))
    return { ...contents, blocks, droppedVectors: [] }
  }

  /**
   * Every stored residual record: read after open, in the background (half the vector bytes, needed by no scan).
   * Those that do not decode are left out and named in `damaged` (`"vector residuals <id>"`): their rows rank by their
   * int8 codes alone, and the next write of their block stores it without them.
   */
  async residuals(): Promise<{ residuals: VectorResiduals[]; damaged: string[] }> {
    const { db, codec } = this
    return this.run('read the vector residuals', async () => {
      const records = await db.vectorResiduals.toArray()
      const decoded = await Promise.all(records.map((record) => codec.decodeResiduals(record)))
      return {
        residuals: decoded.filter((residuals) => residuals !== undefined),
        damaged: decoded.flatMap((residuals, i) => (residuals ? [] : [`vector residuals ${records[i].blockId}`])),
      }
    })
  }

  /** Stores messages and their sentences atomically; rejects the whole batch if any id already exists. */
  async addMessages(batch: readonly ValidMessage[]): Promise<{ messages: MessageRecord[]; sentences: Sentence[] }> {
    const { db, codec } = this
    return this.run('store the messages', () => addMessages(db, codec, batch))
  }

  /** The messages in Sift's layout, in `seq` order (the order of `add`): every one, or one conversation's. */
  async messagesInSeqOrder(conversationId?: string): Promise<MessageRecord[]> {
    const { db, codec } = this
    return this.run('read the messages', async () => {
      // In primary-key order and sorted when decoded, as in readContents: reading through the seq index looks up every
      // record twice.
      const records = await (conversationId === undefined
        ? db.messages.toArray()
        : db.messages.where('conversationId').equals(conversationId).toArray())
      return (await decodeMessages(codec, records)).messages
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
   * Appends the vectors of a backlog batch and advances the watermark to `through` (worker/store/append-vectors.ts).
   * Sentences forgotten while the batch was being embedded are dropped here, so a vector can never outlive its sentence.
   * Returns the rows actually stored.
   */
  async appendVectors(
    sids: readonly number[],
    vectors: Float32Array,
    dim: number,
    through: number,
  ): Promise<{ sids: number[]; vectors: Float32Array }> {
    const { db, codec } = this
    return this.run('store the embeddings', () => appendVectors(db, codec, sids, vectors, dim, through))
  }

  /**
   * Removes the selected messages, their sentences and their vectors in one transaction; with `{ sentences }`, those
   * sentences and their vectors, the rest of their messages kept (worker/store/forget-sentences.ts).
   */
  async forget(selector: ForgetSelector): Promise<ForgetResult> {
    const { db, codec } = this
    if ('sentences' in selector)
      return this.run('forget the sentences', () => forgetSentences(db, codec, selector.sentences))
    return this.run('forget the messages', () => forgetMessages(db, codec, selector))
  }

  /**
   * The stored messages of `ids` that are still stored and in Sift's layout, in the order of `ids`, as the app gave
   * them (without the sentence spans).
   */
  async messagesById(ids: readonly string[]): Promise<StoredMessage[]> {
    const { db, codec } = this
    const records = await this.run('read the messages', () => db.messages.bulkGet([...ids]))
    const decoded = await decodeMessages(
      codec,
      records.filter((record) => record !== undefined),
    )
    const messages = new Map(decoded.messages.map((m) => [m.id, m]))
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

  /** The pinned message ids, in the order they were pinned (`Memory.pin`). */
  async pinnedIds(): Promise<string[]> {
    const { db, codec } = this
    return this.run('read the pins', async () => codec.decodePins((await db.meta.get('pins')) as StoredPinsRecord))
  }

  /** Replaces the pinned message ids (one record). */
  async savePinnedIds(messageIds: readonly string[]): Promise<void> {
    const { db, codec } = this
    await this.run('save the pins', async () => db.meta.put(await codec.encodePins(messageIds)))
  }

  /** Every conversation's summary row, as set or as a forget dropped it (`Memory.summary`). */
  async summaries(): Promise<(SummaryRecord | DroppedSummaryRecord)[]> {
    const { db, codec } = this
    return this.run('read the summaries', () => readSummaries(db, codec))
  }

  /** Replaces a conversation's summary, or stores it dropped where `stale` says so (`saveSummaryRow`); the row. */
  async saveSummary(summary: SummaryRecord, stale = (_revision: number) => false) {
    const encoded = await this.codec.encodeSummary(summary)
    return this.run('save the summary', () => saveSummaryRow(this.db, summary, encoded, stale))
  }

  /** How many forgets removed anything (`MessagePage.revision`). */
  async forgetRevision(): Promise<number> {
    const { db } = this
    return this.run('read the forget revision', () => db.transaction('r', db.meta, () => readRevision(db)))
  }

  /** Deletes a conversation's summary row; resolves with whether there was one. */
  async deleteSummary(conversationId: string): Promise<boolean> {
    const { db } = this
    return this.run('delete the summary', () =>
      db.transaction('rw', db.meta, async () => {
        const key = summaryKey(conversationId)
        const had = (await db.meta.get(key)) !== undefined
        if (had) await db.meta.delete(key)
        return had
      }),
    )
  }

  /** Replaces the saved coarse lists (one record). */
  async saveCoarseLists(lists: Saved['coarseLists']): Promise<void> {
    const { db, codec } = this
    await this.run('save the vector index lists', async () => db.coarseLists.put(await codec.encodeCoarseLists(lists)))
  }

  /** Replaces the lexical index snapshot; the caller must not let a forget run between taking `index` and this write. */
  async saveLexicalSnapshot(snapshot: Omit<LexicalSnapshot<Saved['lexical']>, 'key'>): Promise<void> {
    const { db, codec } = this
    await this.run('save the lexical index', async () =>
      db.lexicalSnapshots.put(await codec.encodeLexicalSnapshot(snapshot)),
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
    const { db, codec } = this
    await this.run('encrypt the memory with the new key', async () => {
      const to = await newEncryption(next)
      await reencryptStore(db, codec, to)
      this.codec = sealingCodec(to.cipher)
    })
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
