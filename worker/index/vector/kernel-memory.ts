import { jsDotKernel, jsGatherKernel, simdDotKernels, type DotKernels } from './simd-scan'

/** WebAssembly memory grows in pages of this many bytes. */
const PAGE = 65536

/**
 * The memory the dot kernels read: WebAssembly memory where the runtime has WebAssembly, else a plain buffer that
 * only the JS kernels can read. Growing a plain one replaces its `buffer`, which is why kernels hold this object
 * rather than the buffer.
 */
export type KernelMemory = WebAssembly.Memory | { buffer: ArrayBuffer }

/** Whether `memory` is WebAssembly memory (false where the runtime has no WebAssembly at all). */
function isWasmMemory(memory: KernelMemory): memory is WebAssembly.Memory {
  return typeof WebAssembly !== 'undefined' && memory instanceof WebAssembly.Memory
}

/** Zeroed memory of at least `bytes` bytes. */
export function kernelMemory(bytes: number): KernelMemory {
  return typeof WebAssembly !== 'undefined'
    ? new WebAssembly.Memory({ initial: Math.ceil(bytes / PAGE) })
    : { buffer: new ArrayBuffer(bytes) }
}

/**
 * The dot kernels over `memory`: the WebAssembly SIMD ones where the runtime validates them and `simd` is true,
 * else the plain-JS ones, which give the same integers.
 */
export function dotKernels(memory: KernelMemory, simd = true): DotKernels {
  return (
    (simd && isWasmMemory(memory) ? simdDotKernels(memory) : undefined) ?? {
      dots: jsDotKernel(memory),
      gather: jsGatherKernel(memory),
    }
  )
}

/**
 * Grows `memory` to at least `bytes` bytes, keeping its contents at their offsets; the added bytes are zeros.
 * Returns its size before, past which nothing was ever written.
 */
export function growKernelMemory(memory: KernelMemory, bytes: number): number {
  const before = memory.buffer.byteLength
  if (bytes <= before) return before
  if (isWasmMemory(memory)) {
    memory.grow(Math.ceil((bytes - before) / PAGE))
  } else {
    const buffer = new ArrayBuffer(bytes)
    new Int8Array(buffer).set(new Int8Array(memory.buffer))
    memory.buffer = buffer
  }
  return before
}
