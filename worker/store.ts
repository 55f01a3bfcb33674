import Dexie, { type Table } from 'dexie'
import { splitSentences } from '../src/core/split-sentences'
import { SiftError } from '../src/errors'
import type { ForgetSelector, Sentence, StoredMessage } from '../src/types'
import type { VectorBlock } from './vector-block'
import { appendToBlocks, removeFromBlock } from './vector-block'

/** The single row of the `meta` table: counters and the embedding watermark. */
export interface StoreState {
  key: 'state'
  schemaVersion: number
  /** Fingerprint of the model whose vectors are stored; a different one at open clears them. */
  model: string
  nextSeq: number
  nextSid: number
  nextBlockId: number
  /** Every sentence with `sid ≤ embeddedThrough` has its vector stored (or was forgotten); the rest is the backlog. */
  embeddedThrough: number
}

/** A message ready to store: validated, defaults applied, no `seq` yet. */
export type NewMessage = Omit<StoredMessage, 'seq'>

/** Where the store's IndexedDB comes from: the browser's globals, or fake-indexeddb in Node. */
export interface IndexedDBSource {
  indexedDB: IDBFactory
  IDBKeyRange: typeof IDBKeyRange
}

const SCHEMA_VERSION = 1

class SiftDatabase extends Dexie {
  messages!: Table<StoredMessage, string>
  sentences!: Table<Sentence, number>
  vectorBlocks!: Table<VectorBlock, number>
  meta!: Table<StoreState, string>

  constructor(name: string, source: IndexedDBSource) {
    super(name, { indexedDB: source.indexedDB, IDBKeyRange: source.IDBKeyRange })
    this.version(SCHEMA_VERSION).stores({
      messages: 'id, &seq, conversationId, [conversationId+seq], timestamp',
      sentences: 'sid, messageId, conversationId, seq',
      vectorBlocks: 'blockId, lastSid',
      meta: 'key',
    })
  }
}

/** Everything persisted, as loaded at open to rebuild the in-memory indexes. */
export interface StoreSnapshot {
  state: StoreState
  messages: StoredMessage[]
  sentences: Sentence[]
  blocks: VectorBlock[]
}

/** What a forget removed, so the in-memory indexes can follow. */
export interface ForgetResult {
  messageIds: string[]
  sids: number[]
}

/** IndexedDB persistence (Dexie): every public method is one transaction, so nothing is ever half-written. */
export class SiftStore {
  private constructor(private readonly db: SiftDatabase) {}

  /** Opens (or creates) the database; if `model` differs from the stored fingerprint, drops stored vectors so they are re-embedded. */
  static async open(name: string, source: IndexedDBSource, model: string): Promise<SiftStore> {
    const db = new SiftDatabase(name, source)
    try {
      await db.open()
      await db.transaction('rw', db.meta, db.vectorBlocks, async () => {
        const state = await db.meta.get('state')
        if (!state) {
          await db.meta.put({ key: 'state', schemaVersion: SCHEMA_VERSION, model, nextSeq: 1, nextSid: 1, nextBlockId: 1, embeddedThrough: 0 })
        } else if (state.model !== model) {
          await db.vectorBlocks.clear()
          await db.meta.put({ ...state, model, embeddedThrough: 0 })
        }
      })
    } catch (error) {
      db.close()
      throw toSiftError(error, `open the database "${name}"`)
    }
    return new SiftStore(db)
  }

  async snapshot(): Promise<StoreSnapshot> {
    const { db } = this
    return this.run('read the database', () =>
      db.transaction('r', db.meta, db.messages, db.sentences, db.vectorBlocks, async () => ({
        state: (await db.meta.get('state'))!,
        messages: await db.messages.orderBy('seq').toArray(),
        sentences: await db.sentences.toArray(),
        blocks: await db.vectorBlocks.toArray(),
      })),
    )
  }

  /** Stores messages and their sentences atomically; rejects the whole batch if any id already exists. */
  async addMessages(batch: readonly NewMessage[]): Promise<{ messages: StoredMessage[]; sentences: Sentence[] }> {
    const { db } = this
    return this.run('store the messages', () =>
      db.transaction('rw', db.meta, db.messages, db.sentences, async () => {
        const existing = await db.messages.bulkGet(batch.map((m) => m.id))
        const taken = existing.find((m) => m !== undefined)
        if (taken) {
          throw new SiftError('DUPLICATE_ID', `A message with id "${taken.id}" is already stored; give each message a unique id or omit it to get a generated one. Nothing from this batch was stored.`)
        }
        const state = (await db.meta.get('state'))!
        let { nextSeq, nextSid } = state
        const messages: StoredMessage[] = []
        const sentences: Sentence[] = []
        for (const message of batch) {
          const seq = nextSeq++
          messages.push({ ...message, seq })
          splitSentences(message.content).forEach((span, index) => {
            sentences.push({
              sid: nextSid++,
              messageId: message.id,
              conversationId: message.conversationId,
              seq,
              index,
              role: message.role,
              timestamp: message.timestamp,
              text: span.text,
              start: span.start,
              end: span.end,
            })
          })
        }
        await db.messages.bulkAdd(messages)
        await db.sentences.bulkAdd(sentences)
        await db.meta.put({ ...state, nextSeq, nextSid })
        return { messages, sentences }
      }),
    )
  }

  /** The oldest sentences still waiting for a vector. */
  async pendingSentences(limit: number): Promise<Sentence[]> {
    const { db } = this
    return this.run('read the embedding backlog', () =>
      db.transaction('r', db.meta, db.sentences, async () => {
        const { embeddedThrough } = (await db.meta.get('state'))!
        return db.sentences.where('sid').above(embeddedThrough).limit(limit).toArray()
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
      db.transaction('rw', db.meta, db.sentences, db.vectorBlocks, async () => {
        const state = (await db.meta.get('state'))!
        const alive = await db.sentences.bulkGet([...sids])
        const keptRows = sids.flatMap((sid, row) => (alive[row] ? [row] : []))
        const keptSids = keptRows.map((row) => sids[row])
        const keptVectors = new Float32Array(keptRows.length * dim)
        keptRows.forEach((row, i) => keptVectors.set(vectors.subarray(row * dim, (row + 1) * dim), i * dim))
        const last = await db.vectorBlocks.orderBy('blockId').last()
        const { blocks, nextBlockId } = appendToBlocks(last, keptSids, keptVectors, { model: state.model, dim, nextBlockId: state.nextBlockId })
        await db.vectorBlocks.bulkPut(blocks)
        await db.meta.put({ ...state, nextBlockId, embeddedThrough: Math.max(state.embeddedThrough, through) })
        return { sids: keptSids, vectors: keptVectors }
      }),
    )
  }

  /** Removes the selected messages, their sentences and their vectors in one transaction. */
  async forget(selector: ForgetSelector): Promise<ForgetResult> {
    const { db } = this
    return this.run('forget the messages', () =>
      db.transaction('rw', db.messages, db.sentences, db.vectorBlocks, async () => {
        const messageIds = await selectMessageIds(db, selector)
        if (messageIds.length === 0) return { messageIds, sids: [] }
        const sids = (await db.sentences.where('messageId').anyOf(messageIds).primaryKeys()).sort((a, b) => a - b)
        await db.sentences.bulkDelete(sids)
        await db.messages.bulkDelete(messageIds)
        if (sids.length > 0) {
          const gone = new Set(sids)
          const touched = (await db.vectorBlocks.where('lastSid').aboveOrEqual(sids[0]).toArray()).filter((b) => b.firstSid <= sids[sids.length - 1])
          for (const block of touched) {
            const rest = removeFromBlock(block, gone)
            if (rest === block) continue
            if (rest) await db.vectorBlocks.put(rest)
            else await db.vectorBlocks.delete(block.blockId)
          }
        }
        return { messageIds, sids }
      }),
    )
  }

  close(): void {
    this.db.close()
  }

  private async run<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (error) {
      throw toSiftError(error, what)
    }
  }
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
    return new SiftError('DUPLICATE_ID', `Could not ${what}: a message id is already stored. Use unique ids. Nothing from this batch was stored.`, { cause: error })
  }
  return new SiftError('STORAGE_FAILED', `IndexedDB failed to ${what}: ${(error as Error)?.message ?? String(error)}`, { cause: error })
}
