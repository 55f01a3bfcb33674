import { AutoModel, AutoTokenizer, env, type PreTrainedModel, type PreTrainedTokenizer, type Tensor } from '@huggingface/transformers'
import { SiftError } from '../../src/errors'
import type { LoadedBackend, ModelOptions, ModelRunner } from './model-runner'
import { onnxRuntimeFiles } from './onnx-runtime-files'
import { poolRows } from './pool-rows'

interface LoadedModel extends LoadedBackend {
  tokenizer: PreTrainedTokenizer
  model: PreTrainedModel
}

/** A transformers.js feature-extraction model in this thread, falling back along `backends` when one fails. */
export class TransformersModel implements ModelRunner {
  private loading: Promise<LoadedModel> | undefined

  constructor(private readonly options: ModelOptions) {}

  async load(): Promise<LoadedBackend> {
    const { backend, failures } = await this.loaded()
    return { backend, failures }
  }

  async run(texts: string[]): Promise<{ data: Float32Array; dim: number }> {
    const { tokenizer, model } = await this.loaded()
    const { pooling, normalize } = this.options.embedding
    const inputs = tokenizer(texts, { padding: true, truncation: true })
    const outputs = (await model(inputs)) as Record<string, Tensor>
    return poolRows(outputs, inputs.attention_mask as Tensor | undefined, texts.length, pooling, normalize)
  }

  async dispose(): Promise<void> {
    const loaded = await this.loading?.catch(() => undefined)
    await loaded?.model.dispose()
  }

  private loaded(): Promise<LoadedModel> {
    this.loading ??= this.loadFirstWorking().catch((error: unknown) => {
      this.loading = undefined
      throw error
    })
    return this.loading
  }

  private async loadFirstWorking(): Promise<LoadedModel> {
    const { model, embedding, localModelPath, allowRemoteModels, wasmPaths, wasmThreads, backends } = this.options
    env.allowLocalModels = true
    env.allowRemoteModels = allowRemoteModels
    env.localModelPath = localModelPath
    const wasm = env.backends.onnx?.wasm
    if (wasmPaths !== undefined && wasm) {
      wasm.wasmPaths = onnxRuntimeFiles(wasmPaths, backends)
      // Given file paths, transformers.js would otherwise copy the wasm into its Cache Storage and hand ONNX Runtime
      // the bytes (no streaming compilation, no compiled-code cache) and import the loader from a blob: URL (which a
      // strict Content-Security-Policy refuses). The browser's HTTP cache already keeps both.
      env.useWasmCache = false
    }
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
    throw new SiftError(
      'MODEL_UNAVAILABLE',
      `Could not load the embedding model "${model}" from "${localModelPath}" (${failures.join('; ')}). ` +
        `Make sure the model folder is served there (npm run convert-model builds the shipped one), set localModelPath, or allow remote models.`,
    )
  }
}
