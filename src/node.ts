/**
 * `sift-memory/node`: the same memory with its engine in the calling process (onnxruntime-node through
 * transformers.js's Node build, fake-indexeddb by default): for scripts, tests and servers. Its types are the browser
 * entry's.
 *
 * @module sift-memory/node
 */
import { openNodeMemory } from '../worker/hosts/node/open-node-memory'
import { readMemoryOptions } from './memory-options'
import type { NodeMemoryOptions } from './node-options'
import type { Memory } from './types'

export * from './types'
export type { NodeMemoryOptions } from './node-options'
export { SiftError, isSiftError, type SiftErrorCode } from './errors'
export * from './core/index'
export * from './chat-tools'

/** A memory whose engine runs in this process (onnxruntime-node, fake-indexeddb by default). */
export async function createMemory(options: NodeMemoryOptions = {}): Promise<Memory> {
  // src/ (tsx) and dist/ (built) both sit one level below the package root.
  return openNodeMemory(readMemoryOptions(options), new URL(/* @vite-ignore */ '../', import.meta.url))
}
