import { SiftError } from '../../src/errors'

/**
 * `read()`: a validator over what the app passed. What it throws other than its own `SiftError` came from reading the
 * app's value itself (a getter or a Proxy trap of the app's that threw): input that cannot be read as plain data, so
 * it is refused as the app's mistake, `code` naming `method` with the thrown error as cause, not reported as a bug.
 */
export function readInput<T>(
  method: string,
  read: () => T,
  code: 'INVALID_INPUT' | 'INVALID_IMPORT' = 'INVALID_INPUT',
): T {
  try {
    return read()
  } catch (error) {
    if (error instanceof SiftError) throw error
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    throw new SiftError(
      code,
      `${method}: an argument cannot be read (${detail}); pass plain objects, arrays, strings, numbers and Dates, without getters or Proxies that throw. Nothing was stored or changed.`,
      { cause: error },
    )
  }
}
