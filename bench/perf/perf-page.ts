// The bench page: each step the driver (bench/perf/run.ts) calls through page.evaluate is one method of
// `window.siftBench`, run against the real worker and IndexedDB of headless Chromium.
import { type Remote, wrap } from 'comlink'
import { createMemory } from '../../src/index'
import type { Backend, Context } from '../../src/types'
import { deleteDatabase } from './delete-database'
import { coldStart } from './cold-start'
import { importHistory } from './import-history'
import { type IndexBytes, storedIndexBytes } from './index-bytes'
import type { EmbedWorkerApi } from './embed-worker'
import { INGEST_KEY, measureStores } from './encryption-cost'
import { recallOf } from '../shared/exact-top-k'
import type { PeerName, PeerWorkerApi } from './peer-worker'
import type {
  AutoBackendResult,
  ColdStartResult,
  BudgetCostResult,
  ContextResult,
  ContextRun,
  EmbedThroughput,
  EncryptionCost,
  FootprintResult,
  ImportTiming,
  IngestResult,
  LoadResult,
  PeerResult,
} from './perf-results'
import type { SiftBenchWorkerApi } from './sift-bench-worker'
import {
  generateHistory,
  generateQueries,
  type SyntheticHistory,
  type SyntheticQuery,
} from '../shared/synthetic-history'
import { startUiHeartbeat } from './ui-heartbeat'

/** Name of the IndexedDB database the sizes grow in. */
const STORE = 'bench-perf'
/** Messages per `add` call while loading a size: large batches, as a bulk import would. */
const LOAD_CHUNK = 1000

export interface BenchSetup {
  maxSentences: number
  queryCount: number
  /** Queries are about topics found in the first this-many sentences, so they have matches at every size. */
  queriesWithin: number
}

interface SiftBenchHandle {
  remote: Remote<SiftBenchWorkerApi>
  worker: Worker
}

let setup: BenchSetup
let history: SyntheticHistory
let queries: SyntheticQuery[]
let sentenceKey: Map<string, number>
let peerWorker: { remote: Remote<PeerWorkerApi>; worker: Worker } | undefined
let sift: SiftBenchHandle | undefined
let loadedMessages = 0
const truth = new Map<number, number[][]>()

function log(message: string): void {
  console.log(`[bench] ${message}`)
}

const bench = {
  prepare(options: BenchSetup): void {
    setup = options
    history = generateHistory(options.maxSentences)
    queries = generateQueries(options.queryCount, history, options.queriesWithin)
    sentenceKey = new Map(history.sentences.map((s) => [`${s.messageId}:${s.start}`, s.index]))
  },

  async embedThroughput(backend: Backend, batchSizes: number[], runs: number): Promise<EmbedThroughput> {
    const worker = new Worker(new URL('./embed-worker.ts', import.meta.url), {
      type: 'module',
      name: `embed-${backend}`,
    })
    try {
      const remote = wrap<EmbedWorkerApi>(worker)
      const needed = batchSizes.reduce((sum, b) => sum + b * (runs + 1), 0)
      const result = await remote.measure(
        backend,
        batchSizes,
        runs,
        history.sentences.slice(0, needed).map((s) => s.text),
      )
      const rates = result.batches.map(
        ({ batchSize, ms }) => `batch ${batchSize}: ${ms.map((m) => ((batchSize * 1000) / m).toFixed(1)).join(', ')}/s`,
      )
      log(`embed ${result.backend}: load ${Math.round(result.loadMs)} ms; ${rates.join('; ')}`)
      return result
    } finally {
      worker.terminate()
    }
  },

  async autoBackend(): Promise<AutoBackendResult> {
    const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu
    const webgpuAdapter = !!(await gpu?.requestAdapter().catch(() => null))
    const memory = await createMemory({ name: 'bench-auto', device: 'auto' })
    await memory.add({ role: 'user', content: 'Which backend will embed this sentence?' })
    await memory.indexed()
    const { backend } = await memory.stats()
    await memory.close()
    await deleteDatabase('bench-auto')
    return { backend, webgpuAdapter }
  },

  /**
   * Real model on WASM: one `add` per message (as a chat app adds turns), then `indexed()`; the UI heartbeat runs
   * throughout. `encrypted`: into a memory encrypted with a passphrase.
   */
  async realIngest(sentences: number, encrypted = false): Promise<IngestResult> {
    const sample = generateHistory(sentences, undefined, 101)
    const memory = await createMemory({ name: 'bench-ingest', device: 'wasm', ...(encrypted && INGEST_KEY) })
    try {
      const warmStarted = performance.now()
      await memory.add({ role: 'user', content: 'Warm-up turn that loads the model.' })
      await memory.indexed()
      const warmUpMs = performance.now() - warmStarted
      const heartbeat = startUiHeartbeat()
      const started = performance.now()
      for (const { id, ...message } of sample.messages) await memory.add({ ...message, id: `ingest-${id}` })
      await memory.indexed()
      const ms = performance.now() - started
      const ui = heartbeat.stop()
      const { backend } = await memory.stats()
      return { messages: sample.messages.length, sentences: sample.sentences.length, ms, warmUpMs, backend, ui }
    } finally {
      await memory.close()
      await deleteDatabase('bench-ingest')
    }
  },

  /** One `import()` of an export of `sentences` into a new store (import-history.ts). */
  importHistory(sentences: number): Promise<ImportTiming> {
    return importHistory(sentences, log)
  },

  /** The stores part of the encryption section (`measureStores`): load, cold start and `changeKey`, plain against encrypted. */
  encryptionStores(size: number, repeats: number): Promise<Omit<EncryptionCost, 'ingest'>> {
    return measureStores(size, repeats, log)
  },

  async groundTruth(size: number): Promise<void> {
    truth.set(size, await peers().remote.groundTruth(size))
  },

  /**
   * Grows the store to `size` sentences with synthetic vectors, through the real engine in the bench worker; with
   * `timeLimitMs`, stops adding at that time (the result's `sentences` says how far it got).
   */
  async load(size: number, timeLimitMs = Number.POSITIVE_INFINITY): Promise<LoadResult> {
    const opened = performance.now()
    const { remote } = await openSift()
    const openMs = loadedMessages === 0 ? 0 : performance.now() - opened
    const before = (await remote.cacheCounts())!
    const firstMessage = loadedMessages
    const heartbeat = startUiHeartbeat()
    const addStarted = performance.now()
    while (history.messageStarts[loadedMessages] < size && performance.now() - addStarted < timeLimitMs) {
      const chunk = history.messages
        .slice(loadedMessages, loadedMessages + LOAD_CHUNK)
        .filter((_, i) => history.messageStarts[loadedMessages + i] < size)
      await remote.add(chunk)
      loadedMessages += chunk.length
      if (loadedMessages % (LOAD_CHUNK * 10) === 0)
        log(`load ${size}: ${history.messageStarts[loadedMessages]} sentences stored`)
    }
    const addMs = performance.now() - addStarted
    const indexedStarted = performance.now()
    await remote.indexed()
    const indexedMs = performance.now() - indexedStarted
    const ui = heartbeat.stop()
    const after = (await remote.cacheCounts())!
    const stats = await remote.stats()
    if (after.misses !== before.misses)
      throw new Error(
        `load ${size}: ${after.misses - before.misses} sentence texts missed the synthetic cache and were embedded by the model`,
      )
    return {
      size,
      timeLimited: history.messageStarts[loadedMessages] < size,
      sentences: stats.sentences,
      messages: stats.messages,
      added: history.messageStarts[loadedMessages] - history.messageStarts[firstMessage],
      addMs,
      indexedMs,
      openMs,
      cache: {
        ...after,
        sentenceHits: after.sentenceHits - before.sentenceHits,
        generateMs: after.generateMs - before.generateMs,
      },
      ui,
      denseIndex: stats.denseIndex,
    }
  },

  /** buildContext at the current size: synthetic query vectors (`repeats` passes), then the same requests embedded by the model. */
  async context(
    size: number,
    strategy: 'hybrid' | 'dense',
    repeats: number,
    modelRepeats: number,
  ): Promise<ContextResult> {
    const { remote } = await openSift()
    const exact = truth.get(size)
    if (!exact) throw new Error(`context ${size}: groundTruth(${size}) first`)
    const result: ContextResult = { size, strategy, synthetic: [], withQuery: [], recallAt50: [], relevantItems: [] }
    await remote.embedQueriesWithModel(false)
    // Steady state: after a bulk load the engine saves its lexical snapshot and coarse lists about a second after the
    // last write (hundreds of MB of garbage to collect at 100K); then one unmeasured pass warms every query's path.
    await new Promise((resolve) => setTimeout(resolve, postLoadQuietMs(size)))
    for (const q of queries) await remote.buildContext(q.text, { strategy })
    for (let r = 0; r < repeats; r++) {
      for (const q of queries) {
        const { run, context } = await timedContext(remote, q.text, strategy)
        result.synthetic.push(run)
        if (r === 0) {
          const relevant = context.items.filter((item) => item.reason === 'relevant').sort((a, b) => b.score - a.score)
          const found = relevant.slice(0, 50).map((item) => sentenceKey.get(`${item.messageId}:${item.start}`) ?? -1)
          result.recallAt50.push(recallOf(found, exact[q.index]))
          result.relevantItems.push(relevant.length)
        }
      }
    }
    await remote.embedQueriesWithModel(true)
    await remote.buildContext(queries[0].text, { strategy })
    for (let r = 0; r < modelRepeats; r++)
      for (const q of queries) result.withQuery.push((await timedContext(remote, q.text, strategy)).run)
    await remote.embedQueriesWithModel(false)
    return result
  },

  /**
   * What counting tokens costs: hybrid contexts (synthetic query vectors) with a character budget of 2,000 and token
   * budgets of 500 (about its size in English) in each OpenAI encoding, taken in turn for every request, `repeats` passes,
   * after one unmeasured pass that also loads the encodings.
   */
  async budgetCost(size: number, repeats: number): Promise<BudgetCostResult> {
    const { remote } = await openSift()
    await remote.embedQueriesWithModel(false)
    const budgets = [
      { label: '2000 characters', budget: 2000 },
      { label: '500 tokens, o200k_base', budget: { tokens: 500, tokenizer: 'o200k_base' } },
      { label: '500 tokens, cl100k_base', budget: { tokens: 500, tokenizer: 'cl100k_base' } },
    ]
    const runs = budgets.map(({ label }) => ({ budget: label, ms: [] as number[], fill: [] as number[] }))
    for (let r = -1; r < repeats; r++) {
      for (const q of queries) {
        for (const [i, { budget }] of budgets.entries()) {
          const { stats } = await remote.buildContext(q.text, { strategy: 'hybrid', budget })
          if (r < 0) continue
          runs[i].ms.push(stats.ms - stats.queryMs)
          runs[i].fill.push(stats.tokens?.fill ?? stats.fill)
        }
      }
    }
    return { size, runs }
  },

  async closeSift(): Promise<void> {
    if (!sift) return
    await sift.remote.close()
    sift.worker.terminate()
    sift = undefined
  },

  async footprint(size: number): Promise<FootprintResult> {
    const encoder = new TextEncoder()
    const messages = history.messages.slice(0, loadedMessages)
    const textBytes = messages.reduce((sum, m) => sum + encoder.encode(m.content).length, 0)
    const { usage = 0 } = await navigator.storage.estimate()
    return { size, sentences: history.messageStarts[loadedMessages], textBytes, originUsage: usage }
  },

  /** The int8 codes' and the saved lexical index's bytes in the store (index-bytes.ts), the engine closed. */
  indexBytes(size: number): Promise<IndexBytes> {
    return storedIndexBytes(STORE, size)
  },

  async originUsage(): Promise<number> {
    return (await navigator.storage.estimate()).usage ?? 0
  },

  /** The product path, `createMemory()` on the store to its first context (cold-start.ts), `repeats` times. */
  coldStart(size: number, repeats: number, measureMemory: boolean): Promise<ColdStartResult> {
    return coldStart(
      STORE,
      queries.map((q) => q.text),
      size,
      repeats,
      measureMemory,
    )
  },

  async peer(size: number, name: PeerName, timeLimitMs: number, repeats: number): Promise<PeerResult> {
    const { remote } = peers()
    const build = await remote.build(name, size, timeLimitMs)
    log(
      `${name} ${size}: ${build.inserted} inserted in ${Math.round(build.ms)} ms${build.complete ? '' : ' (time limit)'}`,
    )
    const searches = build.inserted > 0 ? await remote.search(repeats) : []
    await remote.drop()
    if (name === 'mememo') await deleteDatabase('mememo-index-store')
    return { size, peer: name, build, searches }
  },
}

/**
 * Wait after a load before timing requests: longer than the engine's quiet time before it saves (1 s) plus the save,
 * which grows with the history (3 s covered it at 100K; a snapshot of 1M sentences takes longer to write).
 */
const postLoadQuietMs = (size: number) => Math.max(3000, size * 0.03)

async function timedContext(
  remote: Remote<SiftBenchWorkerApi>,
  text: string,
  strategy: 'hybrid' | 'dense',
): Promise<{ run: ContextRun; context: Context }> {
  const started = performance.now()
  const context = await remote.buildContext(text, { strategy })
  const roundTripMs = performance.now() - started
  const { stats } = context
  return {
    run: {
      ms: stats.ms,
      roundTripMs,
      queryMs: stats.queryMs,
      candidates: stats.candidatesConsidered,
      items: context.items.length,
      used: stats.used,
    },
    context,
  }
}

async function openSift(): Promise<SiftBenchHandle> {
  if (sift) return sift
  const worker = new Worker(new URL('./sift-bench-worker.ts', import.meta.url), { type: 'module', name: 'sift-bench' })
  const remote = wrap<SiftBenchWorkerApi>(worker)
  await remote.prepare(setup.maxSentences, setup.queryCount, setup.queriesWithin)
  await remote.open({ name: STORE, device: 'wasm' })
  sift = { remote, worker }
  return sift
}

function peers(): { remote: Remote<PeerWorkerApi>; worker: Worker } {
  if (!peerWorker) {
    const worker = new Worker(new URL('./peer-worker.ts', import.meta.url), { type: 'module', name: 'peers' })
    const remote = wrap<PeerWorkerApi>(worker)
    void remote.prepare(setup.maxSentences, setup.queryCount, setup.queriesWithin)
    peerWorker = { remote, worker }
  }
  return peerWorker
}

export type SiftBench = typeof bench

declare global {
  interface Window {
    siftBench: SiftBench
  }
}

window.siftBench = bench
