import { transferHandlers, type TransferHandler } from 'comlink'
import { SiftError, type SiftErrorCode } from './errors'

/** A thrown value as it crosses a message channel: structured clone cannot carry an Error's class or its `cause`. */
interface SerializedSiftError {
  sift: true
  code: SiftErrorCode
  message: string
  stack?: string
  /** The name, message and stack of an Error `cause`: the original itself may not be cloneable. */
  cause?: { name: string; message: string; stack?: string }
}

const installed = Symbol.for('sift-memory.errorTransfer')

/**
 * Makes a `SiftError` thrown in a worker arrive on the other side as a `SiftError` with the same `code`, and
 * with an Error `cause` rebuilt as a plain Error of the same name and message (comlink's own handler would turn
 * the SiftError into a plain Error). Other thrown values keep comlink's behaviour. Part of the protocol between
 * the page and the engine's worker, and between the engine and the model's worker: both sides of a channel must
 * call this; calling it again is harmless.
 */
export function installSiftErrorTransfer(): void {
  const builtIn = transferHandlers.get('throw') as TransferHandler<{ value: unknown }, unknown>
  if ((builtIn as unknown as Record<symbol, boolean>)[installed]) return
  const handler: TransferHandler<{ value: unknown }, unknown> & Record<symbol, boolean> = {
    [installed]: true,
    canHandle: (value): value is { value: unknown } => builtIn.canHandle(value),
    serialize(thrown) {
      const { value } = thrown
      if (value instanceof SiftError) {
        const serialized: SerializedSiftError = { sift: true, code: value.code, message: value.message, stack: value.stack }
        if (value.cause instanceof Error) serialized.cause = { name: value.cause.name, message: value.cause.message, stack: value.cause.stack }
        return [serialized, []]
      }
      return builtIn.serialize(thrown)
    },
    deserialize(serialized) {
      const candidate = serialized as Partial<SerializedSiftError>
      if (candidate && candidate.sift === true && typeof candidate.code === 'string') {
        const error = new SiftError(candidate.code, candidate.message ?? '', candidate.cause && { cause: rebuiltCause(candidate.cause) })
        if (candidate.stack) error.stack = candidate.stack
        throw error
      }
      return builtIn.deserialize(serialized)
    },
  }
  transferHandlers.set('throw', handler)
}

function rebuiltCause({ name, message, stack }: NonNullable<SerializedSiftError['cause']>): Error {
  const cause = new Error(message)
  cause.name = name
  if (stack) cause.stack = stack
  return cause
}
