import type { Backend, WasmThreads } from '../../src/types'
import type { EmbeddingCache } from './embedding-cache'
import type { LoadedBackend, ModelOptions, ModelRunner, StartModel } from './model-runner'

export interface EmbedderOptions extends ModelOptions {
  /** Why these backends (reported by `backendReason`). */
  backendReason?: string
  /** Why `wasmThreads` (reported by `wasmThreads`). */
  wasmThreadsReason?: string
  cache?: EmbeddingCache
  /** Where the model runs: in this thread (`modelInThisThread`) or in a worker of its own (`modelInWorker`). */
  startModel: StartModel
}

/**
 * Most texts per model call. Larger batches amortise the per-call overhead (BENCHMARKS.md, embedding throughput by
 * batch size), but hold the model longer, so a request embedding its query waits behind the batch.
 */
const MAX_BATCH = 32

/**
 * Texts → unit vectors: prefixes, the embedding cache, batching and empty texts here; the model itself behind a
 * `ModelRunner`, loaded on first use, falling back along `backends` when one fails.
 */
export class Embedder {
  private readonly runner: ModelRunner
  private loading: Promise<LoadedBackend> | undefined
  private checkingFiles: Promise<void> | undefined
  private loaded: LoadedBackend | undefined
  /** Why the latest load failed, until one succeeds. */
  private loadFailure: unknown
  private dimension: number | undefined

  constructor(private readonly options: EmbedderOptions) {
    const { model, embedding, localModelPath, allowRemoteModels, wasmPaths, wasmThreads, backends, startModel } =
      options
    this.runner = startModel({ model, embedding, localModelPath, allowRemoteModels, wasmPaths, wasmThreads, backends })
  }

  /** The backend in use, or the one that will be tried first while the model is not loaded yet. */
  get backend(): Backend {
    return this.loaded?.backend ?? this.options.backends[0] ?? 'cpu'
  }

  /** Why this backend: the host's choice, plus the failures of backends tried before the one in use. */
  get backendReason(): string {
    const reason = this.options.backendReason ?? `backends: ${this.options.backends.join(', ')}`
    const failures = this.loaded?.failures ?? []
    return failures.length === 0
      ? reason
      : `${reason}; fell back to ${this.loaded!.backend} after ${failures.join('; ')}`
  }

  /** The WASM backend's threads and why, where the host chose them (the browser). */
  get wasmThreads(): WasmThreads | undefined {
    const { wasmThreads, wasmThreadsReason } = this.options
    return wasmThreads === undefined ? undefined : { count: wasmThreads, reason: wasmThreadsReason ?? '' }
  }

  /** Starts loading the model without waiting for it, so the first request does not pay for the load; a failure is reported by the next `embed`. */
  preload(): void {
    this.load().catch(() => undefined)
  }

  /**
   * Where the model is: `ready` once it has loaded (an embedding then waits at most for the batch in flight),
   * `unavailable` when its latest load failed (`failure` says why, and the next embedding tries again), `loading`
   * otherwise.
   */
  get state(): 'loading' | 'ready' | 'unavailable' {
    if (this.loaded) return 'ready'
    return this.loading === undefined && this.loadFailure !== undefined ? 'unavailable' : 'loading'
  }

  /** Why the model's latest load failed; undefined once one succeeded. */
  get failure(): unknown {
    return this.loadFailure
  }

  /** Resolves once the model has loaded, starting the load if none is under way; rejects with the load's failure. */
  async whenLoaded(): Promise<void> {
    await this.load()
  }

  /**
   * Rejects with `MODEL_UNAVAILABLE` naming the option and the URL when the server answers that a file the model
   * needs is not there (`ModelRunner.checkFiles`); resolves at once where the runner cannot tell. One check shared by
   * every caller until it fails; the next call after a failure checks again (the files may have been put in place).
   */
  filesServed(): Promise<void> {
    this.checkingFiles ??= Promise.resolve(this.runner.checkFiles?.()).catch((error: unknown) => {
      this.checkingFiles = undefined
      throw error
    })
    return this.checkingFiles
  }

  /** The languages the model was trained on (`EmbeddingOptions.languages`). */
  get languages(): readonly string[] | 'all' {
    return this.options.embedding.languages
  }

  /** Vector length, once any vector has been produced. */
  get dim(): number | undefined {
    return this.dimension
  }

  /** One row per text (`texts.length × dim`), with the query or document prefix applied. Empty text gives a zero row; so does a row the model leaves zero or not finite. */
  async embed(texts: readonly string[], kind: 'query' | 'document'): Promise<Float32Array> {
    if (texts.length === 0) return new Float32Array(0)
    const inputs = this.inputsOf(texts, kind)
    const { cache } = this.options
    const cached = inputs.map((input) => cache?.get(input))
    const missing = inputs.filter((_, i) => cached[i] === undefined)
    const fresh = missing.length > 0 ? await this.run(missing) : new Float32Array(0)
    const dim = this.dimension ?? cached.find((v) => v !== undefined)!.length
    this.dimension = dim
    const out = new Float32Array(texts.length * dim)
    let next = 0
    inputs.forEach((input, i) => {
      let vector = cached[i]
      if (vector === undefined) {
        vector = fresh.slice(next * dim, ++next * dim)
        cache?.set(input, vector)
      }
      // Some models give a non-zero vector for empty text; it must not match anything.
      if (texts[i].trim() !== '') out.set(vector, i * dim)
    })
    return out
  }

  /**
   * Per text, the share of its letters the model cannot read (`ModelRunner.unknownShares`); 0 for each where the
   * runner cannot tell. Loads the model, as `embed` does.
   */
  async unknownShares(texts: readonly string[]): Promise<number[]> {
    if (texts.length === 0 || !this.runner.unknownShares) return texts.map(() => 0)
    await this.load()
    return this.runner.unknownShares([...texts])
  }

  /**
   * As `embed`, without waiting for the model to load: `undefined` while it is not loaded and some text is not in the
   * cache (the load is started then, if none is under way).
   */
  async embedIfLoaded(texts: readonly string[], kind: 'query' | 'document'): Promise<Float32Array | undefined> {
    const { cache } = this.options
    if (!this.loaded && !this.inputsOf(texts, kind).every((input) => cache?.get(input) !== undefined)) {
      this.preload()
      return undefined
    }
    return this.embed(texts, kind)
  }

  /** Drops the cached vectors of `texts` embedded as `kind` (a forgotten sentence, a request that names what to forget). */
  async forgetCached(texts: readonly string[], kind: 'query' | 'document'): Promise<void> {
    if (texts.length > 0) await this.options.cache?.forget(this.inputsOf(texts, kind))
  }

  async dispose(): Promise<void> {
    await this.loading?.catch(() => undefined)
    await this.runner.dispose()
  }

  /** The texts as the model (and the cache) sees them: with the query or document prefix. */
  private inputsOf(texts: readonly string[], kind: 'query' | 'document'): string[] {
    const prefix = kind === 'query' ? this.options.embedding.queryPrefix : this.options.embedding.documentPrefix
    return texts.map((text) => prefix + text)
  }

  /**
   * Texts sorted by length and cut into batches of `MAX_BATCH`: a batch is padded to its longest text, so similar
   * lengths together waste less work on padding. Rows come back in the order of `texts`.
   */
  private async run(texts: string[]): Promise<Float32Array> {
    if (texts.length <= MAX_BATCH) return this.runBatch(texts)
    const order = texts.map((_, i) => i).sort((a, b) => texts[a].length - texts[b].length)
    let out: Float32Array | undefined
    for (let from = 0; from < order.length; from += MAX_BATCH) {
      const rows = order.slice(from, from + MAX_BATCH)
      const vectors = await this.runBatch(rows.map((i) => texts[i]))
      const dim = vectors.length / rows.length
      out ??= new Float32Array(texts.length * dim)
      rows.forEach((row, i) => out!.set(vectors.subarray(i * dim, (i + 1) * dim), row * dim))
    }
    return out!
  }

  private async runBatch(texts: string[]): Promise<Float32Array> {
    await this.load()
    const { data, dim, ranOn } = await this.runner.run(texts)
    this.dimension = dim
    this.loaded = ranOn
    return data
  }

  /** The model loaded, once its files were found served: a missing runtime stops the load before the model's weights download. */
  private load(): Promise<LoadedBackend> {
    this.loading ??= this.filesServed()
      .then(() => this.runner.load())
      .then(
        (loaded) => {
          this.loadFailure = undefined
          return (this.loaded = loaded)
        },
        (error: unknown) => {
          this.loading = undefined
          this.loadFailure = error
          throw error
        },
      )
    return this.loading
  }
}
