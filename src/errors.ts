/** Stable machine-readable error codes; `SiftError.message` says what to do. */
export type SiftErrorCode =
  /** An argument or option is not what the API accepts; the message names it. */
  | 'INVALID_INPUT'
  /** `add` was given a message id that is already stored; nothing from that batch was stored. */
  | 'DUPLICATE_ID'
  /**
   * The embedding model could not be loaded or run; `lexical`, `head`, `tail` and `full` contexts still work. From
   * `createMemory` (browser): the server says the model's or ONNX Runtime's files are not where `localModelPath` or
   * `wasmPaths` point; the message names the option and the URLs (`requireModelFiles: false` opens without them).
   */
  | 'MODEL_UNAVAILABLE'
  /** Browser storage is full. */
  | 'QUOTA_EXCEEDED'
  /** IndexedDB failed to read or write, or stored data is not what Sift wrote. */
  | 'STORAGE_FAILED'
  /**
   * The database was written by a newer version of Sift (a later schema than this one reads); it was left exactly
   * as it was. Update the app, or open another `name`.
   */
  | 'SCHEMA_TOO_NEW'
  /**
   * The engine's Web Worker did not load (the message names the module's own error: usually a worker file the app's
   * bundler did not emit, or an import it did not resolve), or it ended while the call was in flight: the memory
   * then re-opens itself in a new worker, so retry the call (an `add` may have been stored; with app-chosen ids a
   * retry gets `DUPLICATE_ID` if it was).
   */
  | 'WORKER_FAILED'
  /**
   * `import` was given data it cannot take: not a Sift export or a message array, a newer export version, a message
   * with a missing or wrong field, an id that repeats or is already stored, a message over `maxMessageChars`, an
   * encrypted export without its passphrase. The message says where (`data.messages[12].content`); nothing was stored.
   */
  | 'INVALID_IMPORT'
  /**
   * The passphrase or key does not open the encrypted data (or the data was altered): an encrypted memory at
   * `createMemory`, checked before any record is read (also when no key was given for one), or an encrypted export at
   * `import`. Nothing was read or written; pass the right one.
   */
  | 'WRONG_KEY'
  /** The memory was closed; create a new one. */
  | 'CLOSED'
  /** Something failed that Sift does not expect (a bug, or a platform error it does not map); the original is `cause`. */
  | 'INTERNAL'

/** The one error class Sift throws. Survives the worker boundary with its `code` intact. */
export class SiftError extends Error {
  /** What went wrong, as a stable code to branch on (`SiftErrorCode`); `message` says it for people. */
  readonly code: SiftErrorCode
  constructor(code: SiftErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'SiftError'
    this.code = code
  }
}

/** Whether `value` is a `SiftError`, for narrowing a caught value before reading its `code`. */
export function isSiftError(value: unknown): value is SiftError {
  return value instanceof SiftError
}

/**
 * What a caller of `method` receives for a thrown `error`, so every rejection of the public API carries a code: a
 * `SiftError` as it is, anything else (a bug, a platform error no one mapped) as an `INTERNAL` one with the original
 * as `cause`.
 */
export function asSiftError(error: unknown, method: string): SiftError {
  if (error instanceof SiftError) return error
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return new SiftError(
    'INTERNAL',
    `${method}() failed unexpectedly (${detail}). This is a bug in Sift or an error it does not handle yet; please report it with this error's cause.`,
    { cause: error },
  )
}

/** `call()`, with whatever it throws or rejects with passed through `asSiftError`: the API boundary of `method`. */
export async function withSiftErrors<T>(method: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    throw asSiftError(error, method)
  }
}
