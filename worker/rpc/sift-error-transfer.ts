import { transferHandlers, type TransferHandler } from 'comlink'
import { SiftError, type SiftErrorCode } from '../../src/errors'

interface SerializedSiftError {
  sift: true
  code: SiftErrorCode
  message: string
  stack?: string
}

const installed = Symbol.for('sift-memory.errorTransfer')

/**
 * Makes a `SiftError` thrown in the worker arrive on the main thread as a `SiftError` with the same `code`
 * (comlink's own handler would turn it into a plain Error). Other thrown values keep comlink's behaviour.
 * Both sides of the channel must call this; calling it again is harmless.
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
        return [serialized, []]
      }
      return builtIn.serialize(thrown)
    },
    deserialize(serialized) {
      const candidate = serialized as Partial<SerializedSiftError>
      if (candidate && candidate.sift === true && typeof candidate.code === 'string') {
        const error = new SiftError(candidate.code, candidate.message ?? '')
        if (candidate.stack) error.stack = candidate.stack
        throw error
      }
      return builtIn.deserialize(serialized)
    },
  }
  transferHandlers.set('throw', handler)
}
