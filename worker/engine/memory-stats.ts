import type { MemoryStats, OpenRepairs } from '../../src/types'
import type { Embedder } from '../embed/embedder'
import type { WordNeighboursLoad } from '../embed/word-neighbours'
import type { SentenceCatalog } from '../index/sentence-catalog'
import type { BackgroundIndexing } from './background-indexing'
import type { OpenedParts } from './open-parts'

/** What `stats()` reports from: the engine's parts as they are now. */
export interface StatsSources {
  catalog: SentenceCatalog
  background: BackgroundIndexing
  embedder: Embedder
  model: string
  wordNeighbours: WordNeighboursLoad
  repairedAtOpen: OpenRepairs | undefined
  storage: OpenedParts['storage']
}

/** `Memory.stats()`: counts, backend, model and index, with the last failure, open's repairs and storage when there are any. */
export async function memoryStats(sources: StatsSources): Promise<MemoryStats> {
  const { catalog, background, embedder, repairedAtOpen } = sources
  const stats: MemoryStats = {
    messages: catalog.messageCount,
    sentences: catalog.sentenceCount,
    pending: background.pending,
    backend: embedder.backend,
    backendReason: embedder.backendReason,
    model: sources.model,
    wordNeighbours: sources.wordNeighbours.state(),
    modelState: embedder.state,
    denseIndex: background.vectors?.denseIndex ?? { kind: 'exact' },
  }
  const { lastFailure } = background
  const { wasmThreads } = embedder
  const storage = await sources.storage?.()
  return {
    ...stats,
    ...(wasmThreads && { wasmThreads }),
    ...(lastFailure && { lastFailure }),
    ...(repairedAtOpen && { repairedAtOpen }),
    ...(storage && { storage }),
  }
}
