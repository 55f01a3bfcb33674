import type { ModuleLoadMessage } from '../../src/worker-start'

/**
 * In a worker's entry script: tells the starter whether `load`, the dynamic import of the worker's real module, loaded
 * (src/worker-start.ts). This file must import nothing at run time: it is what still runs when the module does not.
 */
export function reportModuleLoad(load: Promise<unknown>): void {
  load.then(
    () => post({ siftModuleLoad: 'loaded' }),
    (error: unknown) => post({ siftModuleLoad: 'failed', error: describe(error) }),
  )
}

function post(message: ModuleLoadMessage): void {
  const scope = self as unknown as DedicatedWorkerGlobalScope
  scope.postMessage(message)
}

function describe(error: unknown): NonNullable<ModuleLoadMessage['error']> {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack }
  return { name: 'Error', message: String(error) }
}
