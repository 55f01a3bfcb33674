import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { IDBFactory, IDBKeyRange as FakeIDBKeyRange } from 'fake-indexeddb'
import type { NodeHostOptions } from '../../../src/node-options'
import { modelInThisThread } from '../../embed/model-in-this-thread'
import { openEmbeddingCacheFile } from './embedding-cache-file'
import type { EngineHost } from '../engine-host'

/** Node: onnxruntime-node on the CPU, fake-indexeddb unless given a factory, model files from the package's `public/models/`. */
export function nodeHost(options: NodeHostOptions, packageRoot: URL): EngineHost {
  const { embeddingCacheDir } = options
  return {
    indexedDB: {
      indexedDB: options.indexedDB ?? (new IDBFactory() as unknown as globalThis.IDBFactory),
      IDBKeyRange: options.IDBKeyRange ?? (FakeIDBKeyRange as unknown as typeof IDBKeyRange),
    },
    localModelPath: fileURLToPath(new URL('public/models/', packageRoot)),
    backends: async () => ({ backends: ['cpu'], reason: 'Node: onnxruntime-node on the CPU' }),
    startModel: modelInThisThread,
    // Node has no IndexedDB of its own (an app passes fake-indexeddb's), and PouchDB's IndexedDB adapter needs a real
    // one's transaction timing: the mirror lives in memory, so a Node memory pulls what it lacks again on each open.
    syncMirrorAdapter: async () => ({ name: 'memory', plugin: (await import('pouchdb-adapter-memory')).default }),
    readModelFile: async (localModelPath, path) => {
      const bytes = await readFile(resolve(localModelPath, path))
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
    },
    openEmbeddingCache:
      embeddingCacheDir === undefined
        ? undefined
        : (fingerprint) => openEmbeddingCacheFile(embeddingCacheDir, fingerprint),
  }
}
