import {
  AutoModel,
  AutoTokenizer,
  env,
  type PreTrainedModel,
  type PreTrainedTokenizer,
  type Tensor,
} from '@huggingface/transformers'
import { SiftError } from '../../src/errors'
import type { Backend } from '../../src/types'
import type { LoadedBackend, ModelOptions, ModelRunner } from './model-runner'
import { loadFailureDetail, modelLoadFailure } from './model-load-failure'
import { onnxRuntimeFiles } from './onnx-runtime-files'
import { poolRows } from './pool-rows'
import { unknownLetterShare } from './unknown-text'
import { wasmTrapIn } from './wasm-trap'

interface LoadedModel extends LoadedBackend {
  tokenizer: PreTrainedTokenizer
  model: PreTrainedModel
  /** On WebGPU: why its device was lost, once it was (the GPU process crashed, the driver reset, `destroy()`). */
  deviceLost?: string
}

/** What a run gives: one row per text, and the backend it ran on. */
type ModelOutput = Awaited<ReturnType<ModelRunner['run']>>

/**
 * A transformers.js feature-extraction model in this thread, falling back along `backends` when one fails to load.
 * A WebGPU device lost mid-session is not fallen back from here: ONNX Runtime's WebGPU build, once it ran, still
 * reaches for the lost device from its other backends too (a WASM session made after the loss failed in its WebGPU
 * buffer manager), so the model worker that finds the loss is replaced by one that never loads that build
 * (worker/rpc/model-in-worker.ts). Here a run on a lost device fails, and `deviceLost` says why.
 */
export class TransformersModel implements ModelRunner {
  private loading: Promise<LoadedModel> | undefined
  private current: LoadedModel | undefined
  /** Whether the tokenizer maps a letter to its unknown token, per letter asked about. */
  private readonly unknownLetters = new Map<string, boolean>()

  constructor(private readonly options: ModelOptions) {}

  /** Why the WebGPU device the model ran on was lost (or a run on it failed); undefined while it works, or off WebGPU. */
  get deviceLost(): string | undefined {
    return this.current?.deviceLost
  }

  async load(): Promise<LoadedBackend> {
    const { backend, failures } = await this.loaded()
    return { backend, failures }
  }

  async run(texts: string[]): Promise<ModelOutput> {
    const loaded = await this.loaded()
    if (loaded.deviceLost !== undefined) throw deviceLostError(loaded.deviceLost)
    try {
      return await this.runOn(loaded, texts)
    } catch (error) {
      // The run can fail before the device reports its loss; on WebGPU any failure mid-session is taken as one.
      if (loaded.backend !== 'webgpu') throw error
      loaded.deviceLost ??= `a run failed: ${(error as Error)?.message ?? String(error)}`
      throw deviceLostError(loaded.deviceLost)
    }
  }

  async unknownShares(texts: string[]): Promise<number[]> {
    const { tokenizer } = await this.loaded()
    const isUnknown = (letter: string) => {
      let unknown = this.unknownLetters.get(letter)
      if (unknown === undefined) {
        const ids = tokenizer.encode(letter, { add_special_tokens: false })
        unknown = tokenizer.unk_token_id !== undefined && ids.includes(tokenizer.unk_token_id)
        this.unknownLetters.set(letter, unknown)
      }
      return unknown
    }
    return texts.map((text) => unknownLetterShare(text, isUnknown))
  }

  async dispose(): Promise<void> {
    const loaded = await this.loading?.catch(() => undefined)
    await loaded?.model.dispose()
  }

  private async runOn({ tokenizer, model, backend, failures }: LoadedModel, texts: string[]): Promise<ModelOutput> {
    const { pooling, normalize } = this.options.embedding
    const inputs = tokenizer(texts, { padding: true, truncation: true })
    const outputs = (await model(inputs)) as Record<string, Tensor>
    return {
      ...poolRows(outputs, inputs.attention_mask as Tensor | undefined, texts.length, pooling, normalize),
      ranOn: { backend, failures },
    }
  }

  private loaded(): Promise<LoadedModel> {
    this.loading ??= this.loadFirstWorking(this.options.backends, []).then(
      (loaded) => (this.current = loaded),
      (error: unknown) => {
        this.loading = undefined
        throw error
      },
    )
    return this.loading
  }

  private async loadFirstWorking(backends: Backend[], failures: string[]): Promise<LoadedModel> {
    const { model, embedding, localModelPath, allowRemoteModels, wasmPaths, wasmThreads } = this.options
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
    let trap: unknown
    for (const backend of backends) {
      let loaded: PreTrainedModel | undefined
      try {
        const tokenizer = await AutoTokenizer.from_pretrained(model)
        loaded = await AutoModel.from_pretrained(model, { device: backend, dtype: embedding.dtype })
        // A backend can create a session and still fail on the first run (e.g. a WebGPU kernel missing), so prove it works.
        await loaded(tokenizer(['warm up'], { padding: true, truncation: true }))
        const ready: LoadedModel = { tokenizer, model: loaded, backend, failures }
        if (backend === 'webgpu') void watchDeviceLoss(ready)
        return ready
      } catch (error) {
        failures.push(`${backend}: ${loadFailureDetail(error)}`)
        if (wasmTrapIn(error) !== undefined) {
          // The runtime's heap is not to be trusted after a trap: neither a dispose nor another backend in it.
          trap = error
          break
        }
        await loaded?.dispose().catch(() => undefined)
      }
    }
    throw modelLoadFailure(this.options, failures, trap)
  }
}

function deviceLostError(reason: string): SiftError {
  return new SiftError('MODEL_UNAVAILABLE', `The WebGPU device the model ran on was lost (${reason}).`)
}

/** ONNX Runtime's WebGPU settings, where the device its sessions run on can be read once one was created. */
interface OnnxWebGpuEnv {
  device?: PromiseLike<{ lost: Promise<{ reason?: string; message?: string }> }>
}

/** Records on `loaded` why the WebGPU device its sessions run on was lost, once it is; nothing where the device is not reachable. */
async function watchDeviceLoss(loaded: LoadedModel): Promise<void> {
  const webgpu = (env.backends.onnx as { webgpu?: OnnxWebGpuEnv } | undefined)?.webgpu
  let device: Awaited<OnnxWebGpuEnv['device']> | undefined
  try {
    device = await webgpu?.device
  } catch {
    return
  }
  const info = await device?.lost
  if (info) loaded.deviceLost ??= [info.reason, info.message].filter(Boolean).join(': ') || 'no reason given'
}
