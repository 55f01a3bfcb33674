/** Stable machine-readable error codes; `SiftError.message` says what to do. */
export type SiftErrorCode =
  | 'INVALID_INPUT'
  | 'DUPLICATE_ID'
  | 'MODEL_UNAVAILABLE'
  | 'QUOTA_EXCEEDED'
  | 'STORAGE_FAILED'
  | 'CLOSED'

/** The one error class Sift throws. Survives the worker boundary with its `code` intact. */
export class SiftError extends Error {
  readonly code: SiftErrorCode
  constructor(code: SiftErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'SiftError'
    this.code = code
  }
}

export function isSiftError(value: unknown): value is SiftError {
  return value instanceof SiftError
}
