import { SiftError } from './errors'

/**
 * `createMemory`'s options read once into a plain copy (`embedding` too), so that a getter or a Proxy trap of the
 * app's that throws is refused here with `INVALID_INPUT`, before anything opens, rather than failing inside the
 * engine as if it were a bug. Values that are not plain objects (a `CryptoKey`, an `IDBFactory`, a callback) are kept
 * as they are.
 */
export function readMemoryOptions<T>(options: T): T {
  if (typeof options !== 'object' || options === null) return options
  try {
    const copy = { ...options } as Record<string, unknown>
    const { embedding } = copy
    if (typeof embedding === 'object' && embedding !== null) copy.embedding = { ...embedding }
    return copy as T
  } catch (error) {
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    throw new SiftError(
      'INVALID_INPUT',
      `createMemory: the options cannot be read (${detail}); pass a plain object, without getters or Proxies that throw.`,
      { cause: error },
    )
  }
}
