import { transferHandlers, type TransferHandler } from 'comlink'
import { SiftError, type SiftErrorCode } from './errors'

/**
 * A thrown value as plain data, for a message channel: structured clone cannot carry an Error's class (a
 * `SiftError`'s `code` would survive, its class not) or a `cause` that is not itself cloneable.
 */
export interface SerializedError {
  /** Set for a `SiftError`. */
  code?: SiftErrorCode
  name: string
  message: string
  stack?: string
  /** The name, message and stack of an Error `cause`. */
  cause?: { name: string; message: string; stack?: string }
}

/** `value` (anything thrown) as plain data: an Error's name, message, stack and Error cause; a SiftError's code. */
export function serializedError(value: unknown): SerializedError {
  if (!(value instanceof Error)) return { name: 'Error', message: String(value) }
  const serialized: SerializedError = { name: value.name, message: value.message, stack: value.stack }
  if (value instanceof SiftError) serialized.code = value.code
  if (value.cause instanceof Error)
    serialized.cause = { name: value.cause.name, message: value.cause.message, stack: value.cause.stack }
  return serialized
}

/** The error `serializedError` described: a `SiftError` with its code when it was one, its cause a plain Error of the same name and message. */
export function revivedError({ code, name, message, stack, cause }: SerializedError): Error {
  const error =
    code === undefined
      ? new Error(message, cause && { cause: plainError(cause) })
      : new SiftError(code, message, cause && { cause: plainError(cause) })
  if (code === undefined) error.name = name
  if (stack) error.stack = stack
  return error
}

/** A serialized SiftError as this protocol's throw handler sends it. */
type SerializedSiftError = SerializedError & { sift: true }

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
      if (value instanceof SiftError)
        return [{ sift: true, ...serializedError(value) } satisfies SerializedSiftError, []]
      return builtIn.serialize(thrown)
    },
    deserialize(serialized) {
      const candidate = serialized as Partial<SerializedSiftError>
      if (candidate && candidate.sift === true && typeof candidate.code === 'string')
        throw revivedError(candidate as SerializedSiftError)
      return builtIn.deserialize(serialized)
    },
  }
  transferHandlers.set('throw', handler)
}

function plainError({ name, message, stack }: NonNullable<SerializedError['cause']>): Error {
  const error = new Error(message)
  error.name = name
  if (stack) error.stack = stack
  return error
}
