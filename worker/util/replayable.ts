/**
 * `source` as an iterable that can be iterated again from its start, pulling from `source` only what no earlier pass
 * pulled: a lazy pipeline (ranking, selection stages) is run once however often its output is replayed.
 */
export function replayable<T>(source: Iterable<T>): Iterable<T> {
  const pulled: T[] = []
  let iterator: Iterator<T> | undefined
  let done = false
  return {
    *[Symbol.iterator]() {
      for (let i = 0; ; i++) {
        if (i < pulled.length) {
          yield pulled[i]
          continue
        }
        if (done) return
        iterator ??= source[Symbol.iterator]()
        const next = iterator.next()
        if (next.done) {
          done = true
          return
        }
        pulled.push(next.value)
        yield next.value
      }
    },
  }
}
