import type { WordNeighboursLoad } from '../embed/word-neighbours'
import { loadWordNeighbours } from '../embed/word-neighbours'
import { SiftError } from '../../src/errors'
import type { AtRestKey } from '../crypto/at-rest-key'
import type { MemoryOptions, OpenRepairs } from '../../src/types'
import type { InputLimits } from '../input/input-limits'
import type { Tuning } from '../input/tuning-option'
import type { WriteQueue } from './write-queue'
import { Embedder } from '../embed/embedder'
import { DEFAULT_MODEL, modelFingerprint, resolveEmbedding } from '../embed/embedding-presets'
import type { EmbeddingCache } from '../embed/embedding-cache'
import type { BackendChoice, EngineHost } from '../hosts/engine-host'
import type { LexicalIndex } from '../index/lexical/lexical-index'
import { restoreLexicalIndex } from '../index/lexical/lexical-snapshot'
import { SentenceCatalog } from '../index/sentence-catalog'
import { toAtRestKey } from '../input/key-option'
import type { SerializedLexicalIndex } from '../index/lexical/lexical-index'
import type { SerializedCoarseLists } from '../index/vector/vector-index'
import { TokenCounters } from '../context/token-counter'
import { SiftStore, type IndexedDBSource, type StoreContents } from '../store/store'
import type { VectorBlock } from '../store/vector-block'

/** What the engine's indexes give the store to keep: their serialised forms. */
interface SavedEngineIndexes {
  lexical: SerializedLexicalIndex
  coarseLists: SerializedCoarseLists
}

/** The store as the engine opens it. */
export type EngineStore = SiftStore<SavedEngineIndexes>

/** What an engine starts from: the store and the indexes rebuilt from what it held, and the model already loading. */
export interface OpenedParts {
  store: EngineStore
  /** Its model loading since open began, so the first request does not wait for the load after open. */
  embedder: Embedder
  /** The host's embedding cache, when it has one. */
  cache: EmbeddingCache | undefined
  catalog: SentenceCatalog
  /** The saved lexical snapshot plus the sentences stored after it (or every sentence, without one). */
  lexical: LexicalIndex
  /** The saved lexical snapshot covers every sentence below this sid (0: there is none). */
  lexicalSavedBelow: number
  /** The stored vectors, without their residuals (read later, in the background). */
  vectorBlocks: VectorBlock[]
  /** The coarse lists as last saved, if any. */
  savedCoarseLists: SerializedCoarseLists | undefined
  /** Every sentence up to this sid has its vector stored; the rest is the backlog. */
  embeddedThrough: number
  /** The model id, as `stats().model` reports it. */
  model: string
  /** `MemoryOptions.strictRanking`, validated. */
  strictRanking: boolean
  /** What the store worked around at open, if anything. */
  repairedAtOpen: OpenRepairs | undefined
  /** The host's report of the origin's storage, if it has one. */
  storage: EngineHost['storage']
  /** `MemoryOptions.passphrase` or `.key`, validated: the memory is encrypted with it. */
  atRestKey: AtRestKey | undefined
  /** The word-neighbour table `hybrid` takes stand-ins from, loading since open began; undefined when they cannot be read. */
  wordNeighbours: WordNeighboursLoad
  /** The tokenizers token budgets count with, each loaded when a budget first names it. */
  tokenCounters: TokenCounters
}

/** What an engine is made of: what `openParts` read and built, and what `Engine.open` adds. */
export interface EngineParts extends OpenedParts {
  /** The size limits `add` and `buildContext` enforce (`MemoryOptions.maxMessageChars`, `maxRequestChars`). */
  limits: InputLimits
  /** What requests are ranked and their contexts selected with (`NodeMemoryOptions.tuning`). */
  tuning: Tuning
  /** Runs the writes of `add`, `forget` and the background work one at a time. */
  writes: WriteQueue
  /** `MemoryOptions.onProgress`, for the background work. */
  onProgress: MemoryOptions['onProgress']
  /** Opens the store and rebuilds the indexes again, with the options the engine was opened with (`clear`). */
  reopen: (atRestKey: AtRestKey | undefined) => Promise<OpenedParts>
}

/**
 * Validates `options`, then reads the store while the host chooses a backend (a WebGPU adapter request is slow) and
 * the model loads; the catalog and the lexical index are rebuilt as soon as the texts are read, while the vectors are
 * still being read. Whatever was opened is closed again if any of it fails.
 */
export async function openParts(options: MemoryOptions, host: EngineHost): Promise<OpenedParts> {
  const { name = 'sift', model = DEFAULT_MODEL, device = 'auto', strictRanking = false } = options
  if (typeof name !== 'string' || name === '')
    throw new SiftError(
      'INVALID_INPUT',
      `name must be a non-empty string (the IndexedDB database name), got ${String(name)}.`,
    )
  if (typeof model !== 'string' || model === '')
    throw new SiftError('INVALID_INPUT', `model must be a non-empty string (a model id), got ${String(model)}.`)
  if (!['auto', 'webgpu', 'wasm'].includes(device))
    throw new SiftError('INVALID_INPUT', `device must be 'auto', 'webgpu' or 'wasm', got ${String(device)}.`)
  if (typeof strictRanking !== 'boolean')
    throw new SiftError('INVALID_INPUT', `strictRanking must be a boolean, got ${String(strictRanking)}.`)
  const atRestKey = toAtRestKey(options, 'createMemory')
  const embedding = resolveEmbedding(model, options.embedding)
  const fingerprint = modelFingerprint(model, embedding)
  let texts: { catalog: SentenceCatalog; lexical: ReturnType<typeof restoreLexicalIndex> } | undefined
  const reading = readStore(name, host.indexedDB, fingerprint, atRestKey, (messages, lexicalSnapshot) => {
    const catalog = new SentenceCatalog()
    catalog.add(messages)
    texts = { catalog, lexical: restoreLexicalIndex(lexicalSnapshot, catalog) }
  })
  // Awaited below; until then a failure must not count as unhandled.
  reading.catch(() => undefined)
  let cache: EmbeddingCache | undefined
  let choice: BackendChoice
  try {
    cache = await host.openEmbeddingCache?.(fingerprint)
    choice = await host.backends(device)
  } catch (error) {
    reading.then(
      ({ store }) => store.close(),
      () => undefined,
    )
    throw error
  }
  const localModelPath = options.localModelPath ?? host.localModelPath
  const wordNeighbours = loadWordNeighbours(host, localModelPath)
  const embedder = new Embedder({
    model,
    embedding,
    localModelPath,
    allowRemoteModels: !!options.allowRemoteModels,
    wasmPaths: host.wasmPaths,
    wasmThreads: host.wasmThreads?.count,
    wasmThreadsReason: host.wasmThreads?.reason,
    backends: choice.backends,
    backendReason: choice.reason,
    cache,
    startModel: host.startModel,
  })
  embedder.preload()
  try {
    const { store, contents } = await reading
    const { catalog, lexical } = texts!
    return {
      store,
      embedder,
      cache,
      catalog,
      lexical: lexical.index,
      lexicalSavedBelow: lexical.coveredBelow,
      vectorBlocks: contents.blocks,
      savedCoarseLists: contents.coarseLists,
      embeddedThrough: contents.state.embeddedThrough,
      model,
      strictRanking,
      storage: host.storage,
      atRestKey,
      wordNeighbours,
      tokenCounters: new TokenCounters((path) => host.readModelFile(localModelPath, path)),
      repairedAtOpen: openRepairs(store.stateRebuilt, contents),
    }
  } catch (error) {
    await embedder.dispose()
    throw error
  }
}

/** Opens the store and reads what open needs; closes it again if the read fails. */
async function readStore(
  name: string,
  source: IndexedDBSource,
  fingerprint: string,
  key: AtRestKey | undefined,
  onTexts: Parameters<EngineStore['readContents']>[0],
): Promise<{ store: EngineStore; contents: StoreContents<SavedEngineIndexes> }> {
  const store = await SiftStore.open<SavedEngineIndexes>(name, source, fingerprint, key)
  try {
    return { store, contents: await store.readContents(onTexts) }
  } catch (error) {
    store.close()
    throw error
  }
}

/** What open worked around, if anything (`MemoryStats.repairedAtOpen`). */
function openRepairs(
  stateRebuilt: boolean,
  { skippedMessages, droppedVectors }: StoreContents<SavedEngineIndexes>,
): OpenRepairs | undefined {
  if (!stateRebuilt && skippedMessages.length === 0 && droppedVectors.length === 0) return undefined
  return { skippedMessages, stateRebuilt, ...(droppedVectors.length > 0 && { droppedVectors }) }
}
