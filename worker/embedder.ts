import { AutoModel, AutoTokenizer, env, type PreTrainedModel, type PreTrainedTokenizer, type Tensor } from '@huggingface/transformers'
import { SiftError } from '../src/errors'
import type { Backend } from '../src/types'
import type { ResolvedEmbedding } from './embedding-presets'
import type { EmbeddingCache } from './engine-host'
import { poolRows } from './pool-rows'

export interface EmbedderOptions {
  model: string
  embedding: ResolvedEmbedding
  localModelPath: string
  allowRemoteModels: boolean
  /** Absolute URL prefix of ONNX Runtime's wasm files (browser only). */
  wasmPaths?: string
  /** Backends to try in order; the first that loads and runs wins. */
  backends: Backend[]
  /** Why these backends (reported by `backendReason`). */
  backendReason?: string
  /** ONNX Runtime WASM threads (browser only); unset leaves ONNX Runtime's default. */
  wasmThreads?: number
  cache?: EmbeddingCache
}

/**
 * Most texts per model call. Larger batches amortise the per-call overhead (on WASM, 45.5 / 95.1 / 162.2
 * sentences/s at batch 1 / 8 / 32: `npm run bench:perf`, BENCHMARKS.md), but hold the model longer, so a request
 * embedding its query waits behind the batch.
 */
const MAX_BATCH = 32

interface LoadedModel {
  tokenizer: PreTrainedTokenizer
  model: PreTrainedModel
  backend: Backend
  /** Backends tried before this one, with their errors. */
  failures: string[]
}

/** Texts → unit vectors with a transformers.js model, loaded on first use; falls back along `backends` when one fails. */
export class Embedder {
  private loading: Promise<LoadedModel> | undefined
  private loaded: LoadedModel | undefined
  private dimension: number | undefined

  constructor(private readonly options: EmbedderOptions) {}

  /** The backend in use, or the one that will be tried first while the model is not loaded yet. */
  get backend(): Backend {
    return this.loaded?.backend ?? this.options.backends[0] ?? 'cpu'
  }

  /** Why this backend: the host's choice, plus the failures of backends tried before the one in use. */
  get backendReason(): string {
    const reason = this.options.backendReason ?? `backends: ${this.options.backends.join(', ')}`
    const failures = this.loaded?.failures ?? []
    return failures.length === 0 ? reason : `${reason}; fell back to ${this.loaded!.backend} after ${failures.join('; ')}`
  }

  /** Starts loading the model without waiting for it, so the first request does not pay for the load; a failure is reported by the next `embed`. */
  preload(): void {
    this.load().catch(() => undefined)
  }

  /** Vector length, once any vector has been produced. */
  get dim(): number | undefined {
    return this.dimension
  }

  /** One row per text (`texts.length × dim`), with the query or document prefix applied. Empty text gives a zero row; so does a row the model leaves zero or not finite. */
  async embed(texts: readonly string[], kind: 'query' | 'document'): Promise<Float32Array> {
    if (texts.length === 0) return new Float32Array(0)
    const prefix = kind === 'query' ? this.options.embedding.queryPrefix : this.options.embedding.documentPrefix
    const inputs = texts.map((text) => prefix + text)
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

  async dispose(): Promise<void> {
    const loaded = this.loaded ?? (await this.loading?.catch(() => undefined))
    await loaded?.model.dispose()
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
    const { tokenizer, model } = await this.load()
    const { embedding } = this.options
    const inputs = tokenizer(texts, { padding: true, truncation: true })
    const outputs = (await model(inputs)) as Record<string, Tensor>
    const { data, dim } = poolRows(outputs, inputs.attention_mask as Tensor | undefined, texts.length, embedding.pooling, embedding.normalize)
    this.dimension = dim
    return data
  }

  private load(): Promise<LoadedModel> {
    this.loading ??= this.loadFirstWorking().then((loaded) => (this.loaded = loaded))
    return this.loading
  }

  private async loadFirstWorking(): Promise<LoadedModel> {
    const { model, embedding, localModelPath, allowRemoteModels, wasmPaths, wasmThreads, backends } = this.options
    env.allowLocalModels = true
    env.allowRemoteModels = allowRemoteModels
    env.localModelPath = localModelPath
    const wasm = env.backends.onnx?.wasm
    if (wasmPaths !== undefined && wasm) wasm.wasmPaths = wasmPaths
    if (wasmThreads !== undefined && wasm) wasm.numThreads = wasmThreads
    const failures: string[] = []
    for (const backend of backends) {
      let loaded: PreTrainedModel | undefined
      try {
        const tokenizer = await AutoTokenizer.from_pretrained(model)
        loaded = await AutoModel.from_pretrained(model, { device: backend, dtype: embedding.dtype })
        // A backend can create a session and still fail on the first run (e.g. a WebGPU kernel missing), so prove it works.
        await loaded(tokenizer(['warm up'], { padding: true, truncation: true }))
        return { tokenizer, model: loaded, backend, failures }
      } catch (error) {
        failures.push(`${backend}: ${(error as Error)?.message ?? String(error)}`)
        await loaded?.dispose().catch(() => undefined)
      }
    }
    this.loading = undefined
    throw new SiftError(
      'MODEL_UNAVAILABLE',
      `Could not load the embedding model "${model}" from "${localModelPath}" (${failures.join('; ')}). ` +
        `Make sure the model folder is served there (npm run convert-model builds the shipped one), set localModelPath, or allow remote models.`,
    )
  }
}
