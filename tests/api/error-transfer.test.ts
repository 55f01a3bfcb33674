import { describe, expect, it } from 'vitest'
import { SiftError } from '../../src/errors'
import { revivedError, serializedError } from '../../src/error-transfer'

/** What the other side of a BroadcastChannel or worker port gets: a structured clone of the serialized error. */
const acrossChannel = (thrown: unknown): Error => revivedError(structuredClone(serializedError(thrown)))

describe('errors as plain data (the tab relay and the worker protocol)', () => {
  it('a SiftError arrives as a SiftError with its code, message and its cause', () => {
    const cause = new DOMException('The quota has been exceeded.', 'QuotaExceededError')
    const error = acrossChannel(new SiftError('QUOTA_EXCEEDED', 'Browser storage is full.', { cause }))
    expect(error).toBeInstanceOf(SiftError)
    expect((error as SiftError).code).toBe('QUOTA_EXCEEDED')
    expect(error.message).toBe('Browser storage is full.')
    expect(error.cause).toBeInstanceOf(Error)
    expect((error.cause as Error).name).toBe('QuotaExceededError')
    expect((error.cause as Error).message).toBe('The quota has been exceeded.')
  })

  it('another Error keeps its name, message and stack; it is not a SiftError', () => {
    const original = new TypeError('x is not a function')
    const error = acrossChannel(original)
    expect(error).not.toBeInstanceOf(SiftError)
    expect(error.name).toBe('TypeError')
    expect(error.message).toBe('x is not a function')
    expect(error.stack).toBe(original.stack)
    expect(error.cause).toBeUndefined()
  })

  it('a thrown value that is not an Error arrives as an Error with its text', () => {
    expect(acrossChannel('disk on fire').message).toBe('disk on fire')
  })

  it('a cause that is not an Error is left out rather than failing the clone', () => {
    const error = acrossChannel(new SiftError('INTERNAL', 'Something broke.', { cause: { handle: () => 0 } }))
    expect((error as SiftError).code).toBe('INTERNAL')
    expect(error.cause).toBeUndefined()
  })
})
