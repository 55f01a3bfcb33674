import { SiftError } from '../../src/errors'
import type { LoadedBackend, ModelRunner } from './model-runner'
import { wasmTrapIn } from './wasm-trap'

/**
 * A runner replaced by a fresh one from `start` when its model's WebAssembly traps, with the call tried once more on
 * the fresh one. After a trap the module's heap can no longer be trusted (every later call may fail, or answer
 * wrongly), and a trap can be transient (WebKitGTK's, docs/browsers.md). A second trap in a row rejects with
 * `MODEL_UNAVAILABLE`; the call after it starts afresh. Every load and run after a replacement reports the trap among
 * its backend's `failures`, so `stats()` says why the model was reloaded.
 */
export function restartingOnTrap(start: () => ModelRunner): ModelRunner {
  let current = start()
  const traps: string[] = []

  /** Ends `trapped` at once (nothing in it can be trusted to release itself) and starts its replacement. */
  const replace = (trapped: ModelRunner, trap: string) => {
    if (current !== trapped) return
    traps.push(`wasm: trapped (${trap}), the model was reloaded`)
    if (trapped.discard) trapped.discard()
    else void trapped.dispose().catch(() => undefined)
    current = start()
  }
  const reported = <T extends LoadedBackend>(loaded: T): T =>
    traps.length > 0 ? { ...loaded, failures: [...traps, ...loaded.failures] } : loaded

  /** Runs `work` on the current runner, and once more on a fresh one if it trapped. */
  async function call<T>(work: (runner: ModelRunner) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const runner = current
      try {
        return await work(runner)
      } catch (error) {
        const trap = wasmTrapIn(error)
        if (trap === undefined) throw error
        replace(runner, trap)
        if (attempt === 2)
          throw new SiftError(
            'MODEL_UNAVAILABLE',
            `The embedding model's WebAssembly trapped twice in a row (${trap}), the second time in a freshly loaded model; the next call loads it again.`,
            { cause: error },
          )
      }
    }
  }

  // Every runner `start` gives is of one kind: the first says which optional parts there are.
  const { checkFiles, unknownShares } = current
  return {
    ...(checkFiles && { checkFiles: () => current.checkFiles?.() ?? Promise.resolve() }),
    load: async () => reported(await call((runner) => runner.load())),
    run: async (texts) => {
      const result = await call((runner) => runner.run(texts))
      return { ...result, ranOn: reported(result.ranOn) }
    },
    ...(unknownShares && {
      unknownShares: (texts: string[]) => call((runner) => runner.unknownShares?.(texts) ?? Promise.resolve([])),
    }),
    dispose: () => current.dispose(),
  }
}
