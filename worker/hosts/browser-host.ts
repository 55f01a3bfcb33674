import { readStorageState } from '../../src/browser-storage'
import type { MemoryOptions, WasmThreads } from '../../src/types'
import type { BackendChoice, EngineHost } from './engine-host'
import { modelInWorker } from '../rpc/model-in-worker'
import { restartingOnTrap } from '../embed/restart-on-trap'
import { withTrailingSlash } from '../embed/model-files'

/** The parts of a WebGPU adapter's `info` that tell a real GPU from a software one. */
interface GpuAdapterInfo {
  vendor?: string
  architecture?: string
  description?: string
  isFallbackAdapter?: boolean
}

interface GpuNavigator {
  gpu?: { requestAdapter(): Promise<{ info?: GpuAdapterInfo; isFallbackAdapter?: boolean } | null> }
}

/** Inside a Web Worker: the browser's IndexedDB, model and ONNX Runtime files from the page's own origin, WebGPU on a hardware adapter. */
export function browserHost(options: Pick<MemoryOptions, 'wasmPaths'>): EngineHost {
  return {
    indexedDB: { indexedDB: self.indexedDB, IDBKeyRange: self.IDBKeyRange },
    localModelPath: '/models/',
    wasmPaths: new URL(options.wasmPaths ?? '/ort/', self.location.href).href,
    wasmThreads: wasmThreadChoice({
      crossOriginIsolated: self.crossOriginIsolated,
      sharedArrayBuffer: typeof SharedArrayBuffer === 'function',
      cores: navigator.hardwareConcurrency,
    }),
    // The model in a worker of its own: its load overlaps reading the store at open, and a batch of sentences
    // being embedded no longer holds up a request's ranking. A worker whose WebAssembly trapped is replaced.
    startModel: (options) => restartingOnTrap(() => modelInWorker(options)),
    readModelFile: async (localModelPath, path) => {
      const url = new URL(path, new URL(withTrailingSlash(localModelPath), self.location.href))
      const response = await fetch(url)
      if (!response.ok) throw new Error(`${url.href} answered ${response.status}`)
      return response.arrayBuffer()
    },
    // WebKitGTK ships without `navigator.storage` unless its Storage API feature is turned on.
    storage: () => readStorageState(navigator.storage as StorageManager | undefined),
    syncMirrorAdapter: async () => ({ name: 'indexeddb', plugin: (await import('pouchdb-adapter-indexeddb')).default }),
    backends: async (device) => {
      if (device === 'wasm') return { backends: ['wasm'], reason: "device: 'wasm' was requested" }
      if (device === 'webgpu') return { backends: ['webgpu'], reason: "device: 'webgpu' was requested" }
      return chooseAutoBackend()
    },
  }
}

/**
 * ONNX Runtime's WASM threads: half the cores, at most 4, since the worker's own JS (tokenizer, IndexedDB) and the page
 * need the rest; on a busy two-core machine two threads embedded slower than one (bench/embed/embed-browser.ts). More
 * than one needs a cross-origin isolated page with `SharedArrayBuffer`, which WebKitGTK leaves off by default even on
 * an isolated page; without it the model runs on one thread rather than ONNX Runtime failing to start its workers.
 */
export function wasmThreadChoice(page: {
  crossOriginIsolated: boolean
  sharedArrayBuffer: boolean
  cores: number | undefined
}): WasmThreads {
  if (!page.crossOriginIsolated) return { count: 1, reason: 'one thread: the page is not cross-origin isolated' }
  if (!page.sharedArrayBuffer) return { count: 1, reason: 'one thread: SharedArrayBuffer is not available' }
  const count = Math.min(4, Math.max(1, Math.floor((page.cores || 1) / 2)))
  return { count, reason: `half of ${page.cores || 1} cores, at most 4: the page is cross-origin isolated` }
}

/**
 * `device: 'auto'`: WebGPU only on a hardware adapter. A software adapter (SwiftShader, which Chromium offers with
 * `--enable-unsafe-webgpu` on GPU-less machines) runs the model on the CPU far slower than the WASM backend (BENCHMARKS.md).
 */
async function chooseAutoBackend(): Promise<BackendChoice> {
  let adapter: Awaited<ReturnType<NonNullable<GpuNavigator['gpu']>['requestAdapter']>> | undefined
  try {
    adapter = await (navigator as GpuNavigator).gpu?.requestAdapter()
  } catch (error) {
    return {
      backends: ['wasm'],
      reason: `auto: WASM, requesting a WebGPU adapter failed (${(error as Error)?.message ?? String(error)})`,
    }
  }
  if (!adapter) return { backends: ['wasm'], reason: 'auto: WASM, no WebGPU adapter' }
  const info = adapter.info ?? {}
  const name = [info.vendor, info.architecture, info.description].filter(Boolean).join(' ')
  if (info.isFallbackAdapter || adapter.isFallbackAdapter || /swiftshader|llvmpipe|lavapipe|software/i.test(name)) {
    return {
      backends: ['wasm'],
      reason: `auto: WASM, the WebGPU adapter is a software fallback (${name || 'isFallbackAdapter'}), slower than WASM`,
    }
  }
  return {
    backends: ['webgpu', 'wasm'],
    reason: `auto: WebGPU on a hardware adapter (${name || 'unnamed'}), WASM if it fails`,
  }
}
