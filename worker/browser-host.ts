import type { MemoryOptions } from '../src/types'
import type { EngineHost } from './engine-host'

interface GpuNavigator {
  gpu?: { requestAdapter(): Promise<unknown> }
}

/** Inside a Web Worker: the browser's IndexedDB, model and ONNX Runtime files from the page's own origin, WebGPU when it is there. */
export function browserHost(options: Pick<MemoryOptions, 'wasmPaths'>): EngineHost {
  return {
    indexedDB: { indexedDB: self.indexedDB, IDBKeyRange: self.IDBKeyRange },
    localModelPath: '/models/',
    wasmPaths: new URL(options.wasmPaths ?? '/ort/', self.location.href).href,
    backends: async (device) => {
      if (device === 'wasm') return ['wasm']
      if (device === 'webgpu') return ['webgpu']
      return (await hasWebGpuAdapter()) ? ['webgpu', 'wasm'] : ['wasm']
    },
  }
}

async function hasWebGpuAdapter(): Promise<boolean> {
  try {
    return !!(await (navigator as GpuNavigator).gpu?.requestAdapter())
  } catch {
    return false
  }
}

