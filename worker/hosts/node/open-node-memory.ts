import type { NodeMemoryOptions } from '../../../src/node-options'
import type { Memory } from '../../../src/types'
import { engineApi } from '../../rpc/engine-api'
import { nodeHost } from './node-host'

/**
 * The Node entry's memory: the engine in this process behind the same `EngineApi` object a worker exposes, so
 * both hosts validate, fail and report errors alike. `packageRoot` is where `public/models/` is found.
 */
export async function openNodeMemory(options: NodeMemoryOptions, packageRoot: URL): Promise<Memory> {
  const { indexedDB, IDBKeyRange, embeddingCacheDir, onProgress, ...engineOptions } = options
  const api = engineApi(() => nodeHost({ indexedDB, IDBKeyRange, embeddingCacheDir }, packageRoot))
  await api.open(engineOptions, onProgress)
  // Every Memory method as the API has it; `open` stays behind, since the memory is open.
  const { open: _opened, ...memory } = api
  return memory
}
