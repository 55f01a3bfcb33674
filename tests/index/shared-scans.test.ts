// A request's vectors with its scans shared (`withSharedScans`): a search for a query the request already scanned in
// the same scope answers exactly as a search of the index, without scanning again.
import { describe, expect, it } from 'vitest'
import { withSharedScans } from '../../worker/index/vector/shared-scans'
import { VectorIndex } from '../../worker/index/vector/vector-index'
import { seededRandom as random } from '../../worker/util/seeded-random'

function filledIndex(dim: number, count: number): VectorIndex {
  const next = random(11)
  const index = new VectorIndex(dim, 4)
  const sids = Array.from({ length: count }, (_, i) => i + 1)
  const vectors = Float32Array.from({ length: count * dim }, (_, i) =>
    // Every seventh row repeats the one before it: ties must break as the index breaks them.
    Math.floor(i / dim) % 7 === 6 ? 0 : Math.round((next() * 2 - 1) * 8) / 8,
  )
  for (let row = 6; row < count; row += 7) vectors.copyWithin(row * dim, (row - 1) * dim, row * dim)
  index.add(sids, vectors, (sid) => `c${sid % 3}`)
  return index
}

describe('withSharedScans', () => {
  it('answers a search of a scanned query from its scan, as the index would, and scans anything else anew', () => {
    const dim = 24
    const index = filledIndex(dim, 300)
    const next = random(5)
    const query = Float32Array.from({ length: dim }, () => next() * 2 - 1)
    const other = Float32Array.from({ length: dim }, () => next() * 2 - 1)
    const shared = withSharedScans(index)
    let searched = 0
    const search = index.search.bind(index)
    index.search = (...args) => {
      searched++
      return search(...args)
    }
    const penalty = (sid: number) => (sid % 5 === 0 ? 0.2 : 0)
    for (const conversationId of [undefined, 'c1']) {
      const filter = { conversationId }
      shared.scan(query, filter, penalty)
      const expected = search(query, 40, filter)
      expect(shared.search(query, 40, filter)).toEqual(expected)
      expect(shared.search(query, 3, filter)).toEqual(search(query, 3, filter))
    }
    expect(searched).toBe(0)
    // A query not scanned, or scanned in another scope, is searched in the index.
    expect(shared.search(other, 10)).toEqual(search(other, 10))
    expect(shared.search(query, 10, { conversationId: 'c2' })).toEqual(search(query, 10, { conversationId: 'c2' }))
    expect(searched).toBe(2)
    // Everything else is the index's own.
    expect(shared.vectorOf(7)).toEqual(index.vectorOf(7))
  })
})
