import Dexie, { type Table, type Transaction } from 'dexie'
import type { Sentence } from '../../src/types'
import type { MessageRecord } from './message-record'
import type {
  MetaRecord,
  StoredCoarseLists,
  StoredLexicalSnapshot,
  StoredMessageRecord,
  StoredResiduals,
  StoredVectorBlock,
} from './stored-records'

/** Where the store's IndexedDB comes from: the browser's globals, or fake-indexeddb in Node. */
export interface IndexedDBSource {
  indexedDB: IDBFactory
  IDBKeyRange: typeof IDBKeyRange
}

/**
 * The database's version (src/protocol.ts holds the number, which also groups the tabs that share an engine), as
 * Dexie numbers it (the last `version(n)` below) and as `StoreState.schemaVersion` records it. 1: a row per sentence;
 * 2: sentences as spans on their message, and the lexical snapshot; 3: vector residuals in a table of their own; 4: the
 * saved coarse lists; 5: records may be sealed (encryption at rest, worker/store/stored-records.ts) and `meta` may
 * hold the key check, so an older Sift refuses an encrypted memory rather than read its records as damaged or add
 * plain ones to it; 6: sealed records bind their clear fields into their additional data (sealing-contexts.ts), an
 * encrypted schema-5 memory re-sealed at open (bind-clear-fields.ts).
 */
export { SCHEMA_VERSION } from '../../src/protocol'

/**
 * The Dexie schema: each version's tables and indexes, and the upgrade that moves data from the one before. Each table
 * is typed as what Sift stores in it, plain or sealed (worker/store/stored-records.ts); `messages` may also hold
 * another app's records, so the store checks what it reads there.
 */
export class SiftDatabase extends Dexie {
  messages!: Table<StoredMessageRecord, string>
  vectorBlocks!: Table<StoredVectorBlock, number>
  vectorResiduals!: Table<StoredResiduals, number>
  meta!: Table<MetaRecord, string>
  lexicalSnapshots!: Table<StoredLexicalSnapshot, string>
  coarseLists!: Table<StoredCoarseLists, string>

  constructor(name: string, source: IndexedDBSource) {
    super(name, { indexedDB: source.indexedDB, IDBKeyRange: source.IDBKeyRange })
    this.version(1).stores({
      messages: 'id, &seq, conversationId, [conversationId+seq], timestamp',
      sentences: 'sid, messageId, conversationId, seq',
      vectorBlocks: 'blockId, lastSid',
      meta: 'key',
    })
    this.version(2)
      .stores({ messages: 'id, &seq, firstSid, conversationId, timestamp', sentences: null, lexicalSnapshots: 'key' })
      .upgrade(moveSentencesOntoMessages)
    // Residuals live apart from the codes so that open reads only the codes.
    this.version(3).stores({ vectorResiduals: 'blockId' })
    this.version(4).stores({ coarseLists: 'key' })
    // No table or index changes: the version only marks what a reader must understand (see SCHEMA_VERSION).
    this.version(5).stores({})
    this.version(6).stores({})
  }
}

/** Schema 1 → 2: each message gets its sentences' sids and spans from the sentence rows, which are then dropped. */
async function moveSentencesOntoMessages(tx: Transaction): Promise<void> {
  const spansOf = new Map<string, { firstSid: number; spans: number[] }>()
  await tx.table<Sentence, number>('sentences').each((sentence) => {
    const entry = spansOf.get(sentence.messageId) ?? { firstSid: sentence.sid, spans: [] }
    entry.firstSid = Math.min(entry.firstSid, sentence.sid)
    entry.spans[2 * sentence.index] = sentence.start
    entry.spans[2 * sentence.index + 1] = sentence.end
    spansOf.set(sentence.messageId, entry)
  })
  let nextSid = 1
  await tx
    .table<MessageRecord, string>('messages')
    .orderBy('seq')
    .modify((message) => {
      const entry = spansOf.get(message.id) ?? { firstSid: nextSid, spans: [] }
      message.firstSid = entry.firstSid
      message.spans = entry.spans
      nextSid = entry.firstSid + entry.spans.length / 2
    })
}
