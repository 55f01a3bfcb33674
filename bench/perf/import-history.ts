import { wrap } from 'comlink'
import { deleteDatabase } from './delete-database'
import type { ImportTiming } from './perf-results'
import type { SiftBenchWorkerApi } from './sift-bench-worker'
import { generateHistory } from '../shared/synthetic-history'
import { startUiHeartbeat } from './ui-heartbeat'
import { measureUserAgentMemory } from './user-agent-memory'

/** Name of the IndexedDB database the import section imports into (deleted after). */
const IMPORT_STORE = 'bench-import'

/**
 * A history of `sentences` imported with one `import()` of its export's JSON text (as an app reads a file) into a new
 * store, through the real engine in a bench worker of its own; its synthetic cache stands for the model, whose rate
 * the embedding step measures.
 */
export async function importHistory(sentences: number, log: (message: string) => void): Promise<ImportTiming> {
  const sample = generateHistory(sentences)
  const messages = sample.messages.map(({ id, conversationId, role, content, timestamp }) => ({
    id,
    conversationId,
    role,
    content,
    timestamp,
  }))
  const file = JSON.stringify({ format: 'sift-memory', version: 1, exportedAt: new Date().toISOString(), messages })
  const worker = new Worker(new URL('./sift-bench-worker.ts', import.meta.url), {
    type: 'module',
    name: 'sift-bench-import',
  })
  const remote = wrap<SiftBenchWorkerApi>(worker)
  try {
    await remote.prepare(sentences, 0, sentences)
    await remote.open({ name: IMPORT_STORE, device: 'wasm' })
    const heartbeat = startUiHeartbeat()
    const started = performance.now()
    const stored = await remote.import(file)
    const storeMs = performance.now() - started
    log(`import: ${stored.sentences} sentences stored in ${Math.round(storeMs)} ms`)
    await remote.indexed()
    const indexedMs = performance.now() - started - storeMs
    const ui = heartbeat.stop()
    const counts = (await remote.cacheCounts())!
    if (counts.misses > 0)
      throw new Error(
        `import: ${counts.misses} sentence texts missed the synthetic cache and were embedded by the model`,
      )
    const memory = await measureUserAgentMemory()
    return { ...stored, chars: file.length, storeMs, indexedMs, generateMs: counts.generateMs, ui, memory }
  } finally {
    await remote.close().catch(() => undefined)
    worker.terminate()
    await deleteDatabase(IMPORT_STORE)
  }
}
