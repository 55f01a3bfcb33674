import { expose } from 'comlink'
import { SiftError } from '../src/errors'
import type { BuildContextOptions, ForgetSelector, IndexProgress, MessageInput } from '../src/types'
import { browserHost } from './browser-host'
import { Engine, type EngineOptions } from './engine'
import { installSiftErrorTransfer } from './sift-error-transfer'

let engine: Engine | undefined

function opened(): Engine {
  if (!engine) throw new SiftError('CLOSED', 'The memory is not open; create one with createMemory().')
  return engine
}

/** What the worker exposes over comlink: `open` once, then the `Memory` methods. */
const workerApi = {
  async open(options: EngineOptions, onProgress?: (progress: IndexProgress) => void): Promise<void> {
    if (engine) throw new SiftError('INVALID_INPUT', 'This worker already holds an open memory.')
    engine = await Engine.open({ ...options, onProgress }, browserHost(options))
  },
  add: (message: MessageInput | MessageInput[]) => opened().add(message),
  indexed: () => opened().indexed(),
  buildContext: (request: string, options?: BuildContextOptions) => opened().buildContext(request, options),
  forget: (selector: ForgetSelector) => opened().forget(selector),
  stats: () => opened().stats(),
  close: () => opened().close(),
}

export type WorkerApi = typeof workerApi

installSiftErrorTransfer()
expose(workerApi)
