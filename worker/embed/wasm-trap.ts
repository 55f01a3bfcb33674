/** How deep `wasmTrapIn` follows an error's `cause`: a trap is wrapped once or twice on its way (load failure, worker). */
const CAUSE_DEPTH = 4

/**
 * The message of a WebAssembly trap in `error` or its causes, else undefined. A trap (an out-of-bounds access,
 * `unreachable`, an Emscripten abort) is a `WebAssembly.RuntimeError`; one that crossed a worker boundary arrives as a
 * plain Error of that name (src/error-transfer.ts keeps names). After a trap the module's heap can no longer be
 * trusted, so the model that ran in it has to be replaced, not called again (`restartingOnTrap`).
 */
export function wasmTrapIn(error: unknown): string | undefined {
  let current = error
  for (let depth = 0; depth < CAUSE_DEPTH && current instanceof Error; depth++) {
    if (isRuntimeError(current)) return current.message
    current = current.cause
  }
  return undefined
}

function isRuntimeError(error: Error): boolean {
  const { RuntimeError } = globalThis.WebAssembly ?? {}
  return (RuntimeError !== undefined && error instanceof RuntimeError) || error.name === 'RuntimeError'
}
