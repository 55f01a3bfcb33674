import { SiftError } from '../../src/errors'
import type { BuildContextOptions, ForgetSelector, IndexProgress, MessageInput } from '../../src/types'
import { Engine, type EngineOptions } from '../engine/engine'
import type { EngineHost } from '../hosts/engine-host'

/** What a worker exposes over comlink: `open` once, then the `Memory` methods of the engine it opened. */
export function workerApi(hostFor: (options: EngineOptions) => EngineHost) {
  let engine: Engine | undefined
  const opened = (): Engine => {
    if (!engine) throw new SiftError('CLOSED', 'The memory is not open; create one with createMemory().')
    return engine
  }
  return {
    async open(options: EngineOptions, onProgress?: (progress: IndexProgress) => void): Promise<void> {
      if (engine) throw new SiftError('INVALID_INPUT', 'This worker already holds an open memory; create another with createMemory().')
      engine = await Engine.open({ ...options, onProgress }, hostFor(options))
    },
    add: (message: MessageInput | MessageInput[]) => opened().add(message),
    indexed: () => opened().indexed(),
    buildContext: (request: string, options?: BuildContextOptions) => opened().buildContext(request, options),
    forget: (selector: ForgetSelector) => opened().forget(selector),
    stats: () => opened().stats(),
    close: () => opened().close(),
  }
}

export type WorkerApi = ReturnType<typeof workerApi>
