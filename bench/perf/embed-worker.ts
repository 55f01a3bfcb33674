// The engine's own Embedder in a Web Worker, on one backend, timed batch by batch: the model cost that
// ingest and query embedding pay, without the store around it.
import { expose } from 'comlink'
import type { Backend } from '../../src/types'
import { Embedder } from '../../worker/embed/embedder'
import { modelInThisThread } from '../../worker/embed/model-in-this-thread'
import { DEFAULT_MODEL, resolveEmbedding } from '../../worker/embed/embedding-presets'

export interface BatchTiming {
  batchSize: number
  /** Wall milliseconds of each timed batch. */
  ms: number[]
}

export interface EmbedThroughput {
  backend: Backend
  loadMs: number
  batches: BatchTiming[]
}

const embedApi = {
  /** Loads the model on `backend` (one warm-up sentence), then embeds `runs` batches of each size from `texts`, each batch distinct. */
  async measure(backend: Backend, batchSizes: number[], runs: number, texts: string[]): Promise<EmbedThroughput> {
    const embedder = new Embedder({
      model: DEFAULT_MODEL,
      embedding: resolveEmbedding(DEFAULT_MODEL),
      localModelPath: '/models/',
      allowRemoteModels: false,
      wasmPaths: new URL('/ort/', self.location.href).href,
      backends: [backend],
      startModel: modelInThisThread,
    })
    const loadStarted = performance.now()
    await embedder.embed(['Warm-up sentence that loads the model.'], 'document')
    const loadMs = performance.now() - loadStarted
    let next = 0
    const batches: BatchTiming[] = []
    for (const batchSize of batchSizes) {
      await embedder.embed(texts.slice(next, next + batchSize), 'document')
      next += batchSize
      const ms: number[] = []
      for (let run = 0; run < runs; run++) {
        const batch = texts.slice(next, next + batchSize)
        next += batchSize
        const started = performance.now()
        await embedder.embed(batch, 'document')
        ms.push(performance.now() - started)
      }
      batches.push({ batchSize, ms })
    }
    const used = embedder.backend
    await embedder.dispose()
    return { backend: used, loadMs, batches }
  },
}

export type EmbedWorkerApi = typeof embedApi

expose(embedApi)
