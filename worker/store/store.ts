import type { Table } from 'dexie'
import { SiftError } from '../../src/errors'
import type { ForgetSelector, Sentence } from '../../src/types'
import type { ValidMessage } from '../input/message-input'
import { sentenceCount, sentencesOf, toMessageRecord, type MessageRecord } from './message-record'
import type { CoarseListsRecord, LexicalSnapshot, SavedIndexes, StoreState } from './records'
import { assertSchemaNotNewer } from './installed-schema'
import { isMessageRecord, isStoreState } from './record-check'
import { countersBehind, nextFreeBlockId, rebuiltState } from './state-repair'
import { SCHEMA_VERSION, SiftDatabase, type IndexedDBSource } from './schema'
import type { FloatVectorBlock, VectorBlock, VectorResiduals } from './vector-block'
import { appendToBlocks, isFloatBlock, joinResiduals, removeFromBlock, splitResiduals, toInt8Block } from './vector-block'

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
   */
  static async open<Saved extends SavedIndexes = SavedIndexes>(name: string, source: IndexedDBSource, model: string): Promise<SiftStore<Saved>> {
    const db = new SiftDatabase(name, source)
    let stateRebuilt: boolean
    try {
      await assertSchemaNotNewer(name, source)
      await db.open()
      stateRebuilt = await db.transaction('rw', [db.meta, db.messages, db.vectorBlocks, db.vectorResiduals, db.coarseLists, db.lexicalSnapshots], async () => {
        const state: unknown = await db.meta.get('state')
        if (state === undefined && (await db.messages.count()) === 0) {
          await db.meta.put({ key: 'state', schemaVersion: SCHEMA_VERSION, model, nextSeq: 1, nextSid: 1, nextBlockId: 1, embeddedThrough: 0 })
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
        const current = { ...state, schemaVersion: SCHEMA_VERSION, nextBlockId: await nextFreeBlockId(db, state.nextBlockId) }
        if (current.schemaVersion !== state.schemaVersion || current.nextBlockId !== state.nextBlockId) await db.meta.put(current)
        return false
      })
    } catch (error) {
      db.close()
      throw toSiftError(error, `open the database "${name}"`)
    }
    return new SiftStore<Saved>(db, stateRebuilt)
  }

  /**
   * Reads everything open needs in one transaction (the vector blocks without their residuals: see `residuals`), its
   * requests issued together rather than one after another, so the database serves them back to back. The texts come
   * first: `onTexts` gets the messages and the lexical snapshot as soon as they are read, so the caller can rebuild
   * its text indexes while the database still reads the vectors (most of the bytes). Float32 blocks left by a store
   * written before int8 are quantised (and stored so) here, where every
   * block is read anyway.
   */
  async readContents(onTexts?: (messages: MessageRecord[], lexical: LexicalSnapshot<Saved['lexical']> | undefined) => void): Promise<StoreContents<Saved>> {
    const { db } = this
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
        const coarseLists = db.coarseLists.get('vectors') as Promise<CoarseListsRecord<Saved['coarseLists']> | undefined>
        const texts = Promise.all([messages, lexical]).then(([m, l]) => onTexts?.(m, l))
        const [stateRecord, { messages: messageRecords, skipped }, blockRecords, lexicalRecord, coarseRecord] = await Promise.all([state, read, blocks, lexical, coarseLists, texts])
        return { state: stateRecord!, messages: messageRecords, skippedMessages: skipped, blocks: blockRecords, lexical: lexicalRecord, coarseLists: coarseRecord }
      }),
    )
    const floatIds = snapshot.blocks.filter(isFloatBlock).map((b) => b.blockId)
    const quantized = floatIds.length > 0 ? await this.run('quantise the stored vectors', () => quantizeFloatBlocks(db, floatIds)) : new Map<number, VectorBlock>()
    const blocks = snapshot.blocks.flatMap((b) => (isFloatBlock(b) ? (quantized.has(b.blockId) ? [quantized.get(b.blockId)!] : []) : [b]))
    return { ...snapshot, blocks }
  }

  /** Every stored residual record: read after open, in the background (half the vector bytes, needed by no scan). */
  async residuals(): Promise<VectorResiduals[]> {
    const { db } = this
    return this.run('read the vector residuals', () => db.vectorResiduals.toArray())
  }

  /** Stores messages and their sentences atomically; rejects the whole batch if any id already exists. */
  async addMessages(batch: readonly ValidMessage[]): Promise<{ messages: MessageRecord[]; sentences: Sentence[] }> {
    const { db } = this
    return this.run('store the messages', () =>
      db.transaction('rw', db.meta, db.messages, async () => {
        const existing = await db.messages.bulkGet(batch.map((m) => m.id))
        const taken = existing.find((m) => m !== undefined)
        if (taken) {
          throw new SiftError('DUPLICATE_ID', `A message with id "${taken.id}" is already stored; give each message a unique id or omit it to get a generated one. Nothing from this batch was stored.`)
        }
        const state = (await db.meta.get('state'))!
        let { nextSeq, nextSid } = state
        const messages: MessageRecord[] = []
        for (const message of batch) {
          const record = toMessageRecord({ ...message, seq: nextSeq++ }, nextSid)
          nextSid += sentenceCount(record)
          messages.push(record)
        }
        await db.messages.bulkAdd(messages)
        await db.meta.put({ ...state, nextSeq, nextSid })
        const sentences = messages.flatMap(sentencesOf)
        return { messages, sentences }
      }),
    )
  }

  /**
   * Appends the vectors of a backlog batch and advances the watermark to `through`, in one transaction.
   * Sentences forgotten while the batch was being embedded are dropped here, so a vector can never outlive its sentence.
   * Returns the rows actually stored.
   */
  async appendVectors(sids: readonly number[], vectors: Float32Array, dim: number, through: number): Promise<{ sids: number[]; vectors: Float32Array }> {
    const { db } = this
    return this.run('store the embeddings', () =>
      db.transaction('rw', db.meta, db.messages, db.vectorBlocks, db.vectorResiduals, async () => {
        const state = (await db.meta.get('state'))!
        const alive = await storedSids(db, sids)
        const keptRows = sids.flatMap((sid, row) => (alive[row] ? [row] : []))
        const keptSids = keptRows.map((row) => sids[row])
        const keptVectors = new Float32Array(keptRows.length * dim)
        keptRows.forEach((row, i) => keptVectors.set(vectors.subarray(row * dim, (row + 1) * dim), i * dim))
        const tail = await withResiduals(db, (await db.vectorBlocks.orderBy('blockId').reverse().limit(MERGE_TAIL).toArray()).reverse())
        const { put, remove, nextBlockId } = appendToBlocks(tail, keptSids, keptVectors, { model: state.model, dim, nextBlockId: state.nextBlockId })
        await deleteBlocks(db, remove)
        await putBlocks(db, put)
        await db.meta.put({ ...state, nextBlockId, embeddedThrough: Math.max(state.embeddedThrough, through) })
        return { sids: keptSids, vectors: keptVectors }
      }),
    )
  }

  /** Removes the selected messages, their sentences and their vectors in one transaction. */
  async forget(selector: ForgetSelector): Promise<ForgetResult> {
    const { db } = this
    return this.run('forget the messages', () =>
      db.transaction('rw', [db.messages, db.vectorBlocks, db.vectorResiduals, db.lexicalSnapshots, db.coarseLists], async () => {
        const messageIds = await selectMessageIds(db, selector)
        if (messageIds.length === 0) return { messageIds, sids: [] }
        // A record not in Sift's layout is deleted with the others; it has no sentences Sift knows of.
        const records = (await db.messages.bulkGet(messageIds)).filter(isMessageRecord)
        const sids = records.flatMap((r) => sentencesOf(r).map((s) => s.sid)).sort((a, b) => a - b)
        await db.messages.bulkDelete(messageIds)
        await db.lexicalSnapshots.delete('lexical')
        // Its centroids are means that include the forgotten vectors; the engine saves re-centred ones.
        await db.coarseLists.delete('vectors')
        if (sids.length > 0) {
          const gone = new Set(sids)
          const touched = (await db.vectorBlocks.where('lastSid').aboveOrEqual(sids[0]).toArray()).filter((b) => b.firstSid <= sids[sids.length - 1])
          for (const block of await withResiduals(db, touched)) {
            const rest = removeFromBlock(block, gone)
            if (rest === block) continue
            if (rest) await putBlocks(db, [rest])
            else await deleteBlocks(db, [block.blockId])
          }
        }
        return { messageIds, sids }
      }),
    )
  }

  /** Replaces the saved coarse lists (one record). */
  async saveCoarseLists(lists: Saved['coarseLists']): Promise<void> {
    const { db } = this
    await this.run('save the vector index lists', () => db.coarseLists.put({ key: 'vectors', ...lists }))
  }

  /** Replaces the lexical index snapshot; the caller must not let a forget run between taking `index` and this write. */
  async saveLexicalSnapshot(snapshot: Omit<LexicalSnapshot<Saved['lexical']>, 'key'>): Promise<void> {
    const { db } = this
    await this.run('save the lexical index', () => db.lexicalSnapshots.put({ key: 'lexical', ...snapshot }))
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
      : new SiftError('CLOSED', `The database "${this.db.name}" was deleted by another connection, so this memory stopped. Create a new one with createMemory().`)
    this.onSuperseded?.(this.superseded)
  }

  private async run<T>(what: string, work: () => Promise<T>): Promise<T> {
    if (this.superseded) throw this.superseded
    try {
      return await work()
    } catch (error) {
      throw this.superseded ?? toSiftError(error, what)
    }
  }
}

/** Which of `sids` (increasing) still belong to a stored message, as a parallel array of flags. */
async function storedSids(db: SiftDatabase, sids: readonly number[]): Promise<boolean[]> {
  if (sids.length === 0) return []
  // An empty message shares its firstSid with the next message, so take every message from that firstSid on.
  const from = (await db.messages.where('firstSid').belowOrEqual(sids[0]).last())?.firstSid ?? sids[0]
  const records = await db.messages.where('firstSid').between(from, sids[sids.length - 1], true, true).toArray()
  const live = new Set(records.filter(isMessageRecord).flatMap((r) => sentencesOf(r).map((s) => s.sid)))
  return sids.map((sid) => live.has(sid))
}

/** Trailing vector blocks an append may merge with (a binary counter of 32-row batches up to 1,024 rows needs 6). */
const MERGE_TAIL = 8

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
    return new Map([...current.filter((b): b is VectorBlock => !isFloatBlock(b)), ...converted.map((b) => splitResiduals(b).codes)].map((b) => [b.blockId, b]))
  })
}

/** The blocks with their residual records joined back (for rewriting them). */
async function withResiduals(db: SiftDatabase, blocks: readonly VectorBlock[]): Promise<VectorBlock[]> {
  const records = await db.vectorResiduals.bulkGet(blocks.map((b) => b.blockId))
  return blocks.map((block, i) => joinResiduals(block, records[i]))
}

/** Writes each block as its codes record and, when it has residuals, its residual record (else deletes a stale one). */
async function putBlocks(db: SiftDatabase, blocks: readonly VectorBlock[]): Promise<void> {
  const parts = blocks.map(splitResiduals)
  await db.vectorBlocks.bulkPut(parts.map((p) => p.codes))
  await db.vectorResiduals.bulkPut(parts.flatMap((p) => (p.residuals ? [p.residuals] : [])))
  await db.vectorResiduals.bulkDelete(parts.flatMap((p) => (p.residuals ? [] : [p.codes.blockId])))
}

async function clearVectors(db: SiftDatabase): Promise<void> {
  await db.vectorBlocks.clear()
  await db.vectorResiduals.clear()
  await db.coarseLists.clear()
}

async function deleteBlocks(db: SiftDatabase, blockIds: readonly number[]): Promise<void> {
  await db.vectorBlocks.bulkDelete([...blockIds])
  await db.vectorResiduals.bulkDelete([...blockIds])
}

async function selectMessageIds(db: SiftDatabase, selector: ForgetSelector): Promise<string[]> {
  if ('id' in selector) return (await db.messages.get(selector.id)) ? [selector.id] : []
  if ('conversationId' in selector) return db.messages.where('conversationId').equals(selector.conversationId).primaryKeys()
  return db.messages.where('timestamp').below(new Date(selector.before).getTime()).primaryKeys()
}

function toSiftError(error: unknown, what: string): SiftError {
  if (error instanceof SiftError) return error
  const names = [(error as { name?: string })?.name, (error as { inner?: { name?: string } })?.inner?.name]
  if (names.includes('QuotaExceededError')) {
    return new SiftError('QUOTA_EXCEEDED', `Browser storage is full, so Sift could not ${what}. Free space with memory.forget(...) or ask the user to allow more storage.`, { cause: error })
  }
  if (names.includes('ConstraintError')) {
    // Ids are checked before anything is added, so this is a stored record in the way of a new one: damaged data, not the caller's ids.
    return new SiftError('STORAGE_FAILED', `Could not ${what}: a stored record is in the way (${(error as Error)?.message ?? String(error)}). Nothing was stored. If this persists, the database is damaged: delete it (indexedDB.deleteDatabase with the memory's name) to start over.`, { cause: error })
  }
  return new SiftError('STORAGE_FAILED', `IndexedDB failed to ${what}: ${(error as Error)?.message ?? String(error)}`, { cause: error })
}
