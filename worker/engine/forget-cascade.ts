import type { ForgetSelector } from '../../src/types'
import type { Embedder } from '../embed/embedder'
import type { LexicalIndex } from '../index/lexical/lexical-index'
import type { SentenceCatalog } from '../index/sentence-catalog'
import { sentencesOf } from '../store/message-record'
import { messageSids } from '../store/record-check'
import type { ForgetResult } from '../store/store'
import type { StoredForgetName } from '../store/forget-write'
import type { BackgroundIndexing } from './background-indexing'
import type { EngineStore } from './open-parts'
import type { Pins } from './pins'
import type { Summaries } from './summaries'

/** The engine's parts a forget reaches. */
export interface ForgetParts {
  store: EngineStore
  catalog: SentenceCatalog
  lexical: LexicalIndex
  background: BackgroundIndexing
  embedder: Embedder
  pins: Pins
  summaries: Summaries
}

/** What a forget removed (the store's answer), and the texts the catalog held of its sentences before letting go. */
export interface Forgotten {
  result: ForgetResult
  texts: string[]
}

/**
 * Something derived from a message, and everything a forget does to it: its part of the database (a step of the
 * store's one write, worker/store/forget-write.ts), and what the engine holds of it in memory, with what follows there
 * once that write committed. Every entry has a stored step, a follow-up, or says why a forget leaves it (`kept`).
 */
export interface DerivedStructure {
  name: string
  /** Its part of the database: the `STORED_FORGET` step the store runs inside the forget's write. */
  stored?: StoredForgetName
  /**
   * Where the engine holds it in memory: fields of the engine, or of one of its parts (`background.vectorIndex`), and
   * what of a message they hold. tests/engine/forget-cascade.test.ts checks that every field is named here or in
   * `HOLDS_NOTHING_OF_A_MESSAGE`.
   */
  inMemory?: { heldBy: readonly string[]; holds: string }
  /** Before the store's write, in the write queue. */
  before?: (parts: ForgetParts) => void
  /** After the store's write, in the write queue, in the order of `FORGET_CASCADE`. */
  follow?: (forgotten: Forgotten, parts: ForgetParts) => void | Promise<void>
  /** Why nothing follows in memory, where nothing does. */
  kept?: string
}

/** Whether a forget removed anything: only then did its write delete the saved copies. */
function removedAny({ messageIds, redacted }: ForgetResult): boolean {
  return messageIds.length > 0 || redacted.length > 0
}

/**
 * Everything derived from a message, in the order a forget follows them in memory: a structure added to the engine or
 * the database gets its entry here, and tests/engine/forget-cascade.test.ts fails until it has one (and shows, per
 * entry, that a forget leaves nothing of the message in it). A message that lost some sentences (`redacted`) is indexed
 * again as it is now: its other sentences keep their sids, so only what held the removed ones changes.
 */
export const FORGET_CASCADE: readonly DerivedStructure[] = [
  {
    name: 'messages',
    stored: 'messages',
    inMemory: { heldBy: ['catalog'], holds: 'every message and sentence, by id and sid, and each conversation' },
    follow: ({ result }, { catalog }) => {
      catalog.remove(result.messageIds)
      catalog.replace(result.redacted)
    },
  },
  {
    name: 'lexical index',
    inMemory: { heldBy: ['lexical'], holds: "the sentences' and turns' words, languages and conversation ids" },
    // A turn document holds the whole message's words, so a redacted message's is rebuilt from the sentences left.
    follow: ({ result }, { lexical }) => {
      lexical.remove([...result.sids, ...result.redacted.flatMap(messageSids)])
      lexical.add(result.redacted.flatMap(sentencesOf))
    },
  },
  {
    name: 'vector blocks',
    stored: 'vector blocks',
    inMemory: { heldBy: ['background.vectorIndex'], holds: "each sentence's vector row and its conversation's number" },
    follow: ({ result }, { background }) => background.vectors?.remove(result.sids),
  },
  {
    name: 'lexical snapshot',
    stored: 'lexical snapshot',
    inMemory: { heldBy: ['background.saves'], holds: 'how far the saved snapshot covers, to save it again' },
    follow: ({ result }, { background }) => {
      if (removedAny(result)) background.lexicalSnapshotDeleted()
    },
  },
  {
    name: 'coarse lists',
    stored: 'coarse lists',
    inMemory: { heldBy: ['background.coarseLists'], holds: 'centroids that are means over the vectors' },
    // Lists still waiting to be restored are restored first, so that they are re-centred like any others.
    before: ({ background }) => background.restoreSavedLists(),
    follow: ({ result }, { background }) => {
      if (removedAny(result)) background.coarseListsDeleted()
    },
  },
  {
    name: 'embedding cache',
    inMemory: {
      heldBy: ['cache', 'embedder'],
      holds: 'vectors keyed by a hash of the text embedded, in memory and where the host keeps them (a file in Node)',
    },
    // Left there, a cached vector would confirm a guessed text by its key.
    follow: ({ texts }, { embedder }) => embedder.forgetCached(texts, 'document'),
  },
  {
    name: 'pins row',
    stored: 'pins row',
    inMemory: { heldBy: ['pins.ids'], holds: 'the pinned ids, as read from the row' },
    follow: ({ result }, { pins }) => pins.forgotten(result.messageIds),
  },
  {
    name: 'summary rows',
    stored: 'summary rows',
    inMemory: { heldBy: ['summaries.rows'], holds: 'the summary rows as read' },
    follow: ({ result }, { summaries }) => summaries.forgotten(result),
  },
  {
    name: 'recent forgets',
    inMemory: {
      heldBy: ['summaries.forgets'],
      holds:
        'for each of the latest forgets, the conversation and place in time order it removed from (no text, no id)',
    },
    kept: 'filled by the summaries follow-up: a summary written from a read older than a forget it covers is dropped',
  },
  { name: 'forget revision', stored: 'forget revision', kept: 'held in memory only by the recent forgets' },
  { name: 'state row', stored: 'state row', kept: 'the counters hold nothing of a message' },
  { name: 'key check', stored: 'key check', kept: 'it holds nothing of a message' },
  {
    name: 'repairs at open',
    inMemory: { heldBy: ['repairedAtOpen'], holds: 'the ids of the records open could not read (stats)' },
    // Not Sift's messages, and in no index or context; a forget deletes them, but stats() names them until reopened.
    kept: 'a report of what open found, as it found it',
  },
]

/**
 * The fields of the engine and its parts that hold nothing of a message, and why: with the `heldBy` of
 * `FORGET_CASCADE`, every field is named once (tests/engine/forget-cascade.test.ts).
 */
export const HOLDS_NOTHING_OF_A_MESSAGE: Readonly<Record<string, string>> = {
  store: 'the database connection: what it stores is the stored steps above',
  wordNeighbours: 'a table shipped with the model',
  tokenCounters: 'tokenizers read from their files',
  atRestKey: "the memory's key",
  model: 'the model id',
  strictRanking: 'an option',
  storage: "the origin's storage report",
  writes: 'the write queue',
  limits: 'options',
  tuning: 'options',
  onProgress: "the app's callback",
  reopen: 'a function',
  clearing: 'a clear in progress',
  closed: 'a flag',
  'background.store': "the engine's store",
  'background.embedder': "the engine's embedder",
  'background.catalog': "the engine's catalog",
  'background.writes': 'the write queue',
  'background.onProgress': "the app's callback",
  'background.stopped': 'a flag',
  'background.failures': 'the latest failure of each background task: a task, an error and counts',
  'background.conversationOf': 'a function over the catalog',
  'background.backlog':
    'a chunk in flight is held by the drain alone; its vectors are stored for the sentences the catalog still holds, the others dropped from the cache (BacklogDrain)',
  'background.residuals':
    'the residuals it reads go into the vector index, which skips a sid it no longer holds (VectorIndex.setResiduals)',
  'pins.parts': "the engine's parts, lent",
  'summaries.parts': "the engine's parts, lent",
}

/**
 * A forget, inside the write queue: what must happen before the store's write, the write itself (one transaction:
 * every stored structure), then each in-memory structure in the order of `FORGET_CASCADE`. Only a follow-up that
 * returns a promise is awaited, so the indexes before the first that waits follow in one go: no request answered in
 * between sees one of them forgotten and the next not.
 */
export async function runForget(selector: ForgetSelector, parts: ForgetParts): Promise<ForgetResult> {
  for (const structure of FORGET_CASCADE) structure.before?.(parts)
  const result = await parts.store.forget(selector)
  const texts = result.sids.map((sid) => parts.catalog.get(sid)?.text).filter((text) => text !== undefined)
  for (const structure of FORGET_CASCADE) {
    const followed = structure.follow?.({ result, texts }, parts)
    if (followed) await followed
  }
  return result
}
