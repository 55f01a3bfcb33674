import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../worker/util/seeded-random'
import { DenseRanking } from '../../worker/rank/dense-ranking'
import { ProbedDenseRanking } from '../../worker/rank/probed-dense-ranking'
import { VectorIndex } from '../../worker/index/vector/vector-index'

/** Unit vectors around `clusters` random directions (noise 0.35 per dimension before normalising). */
function clustered(rows: number, dim: number, clusters: number, random: () => number): Float32Array {
  const centres = Array.from({ length: clusters }, () => Float32Array.from({ length: dim }, () => random() * 2 - 1))
  const out = new Float32Array(rows * dim)
  for (let r = 0; r < rows; r++) {
    const centre = centres[Math.floor(random() * clusters)]
    let norm = 0
    for (let d = 0; d < dim; d++) norm += (out[r * dim + d] = centre[d] + (random() * 2 - 1) * 0.35) ** 2
    for (let d = 0; d < dim; d++) out[r * dim + d] /= Math.sqrt(norm)
  }
  return out
}

function train(index: VectorIndex, seed = 1): void {
  for (const _ of index.trainCoarseLists(seededRandom(seed)));
}

/** An index of `rows` clustered vectors (sids 1 … rows), coarse lists trained. */
function trainedIndex(
  rows: number,
  dim: number,
  clusters: number,
  seed: number,
): { vectors: Float32Array; index: VectorIndex } {
  const vectors = clustered(rows, dim, clusters, seededRandom(seed))
  const index = new VectorIndex(dim)
  index.add(
    Array.from({ length: rows }, (_, r) => r + 1),
    vectors,
    () => 'c',
  )
  train(index)
  return { vectors, index }
}

const recall = (found: ArrayLike<number>, truth: readonly number[]) =>
  truth.filter((sid) => Array.from(found).includes(sid)).length / truth.length

describe('VectorIndex coarse lists', () => {
  const dim = 32
  const rows = 4000
  const vectors = clustered(rows, dim, 60, seededRandom(4))
  const sids = Array.from({ length: rows }, (_, r) => 10 + r)
  const queries = clustered(40, dim, 60, seededRandom(4)).slice(0, 40 * dim)

  it('declines to probe until trained; trained, finds the exact top-k at the calibrated share, scores re-scored exactly', () => {
    const index = new VectorIndex(dim)
    index.add(sids, vectors, () => 'c')
    expect(index.probe(queries.subarray(0, dim))).toBeUndefined()
    expect(index.wantsCoarseLists()).toBe(false)
    train(index)
    const snapshot = index.serializeCoarseLists()!
    expect(snapshot.centroids.length / dim).toBe(128)
    expect(snapshot.probeShare).toBeLessThan(1)
    let total = 0
    for (let q = 0; q < 40; q++) {
      const query = queries.subarray(q * dim, (q + 1) * dim)
      const probed = index.probe(query)!
      const exact = index.search(query, 20)
      total += recall(
        probed.sids.subarray(0, 20),
        exact.map((h) => h.sid),
      )
      expect(probed.count).toBeGreaterThanOrEqual(20)
      for (let i = 1; i < probed.count; i++) expect(probed.score[i - 1]).toBeGreaterThanOrEqual(probed.score[i])
      const exactScore = new Map(exact.map((h) => [h.sid, h.score]))
      for (let i = 0; i < 20; i++)
        if (exactScore.has(probed.sids[i])) expect(probed.raw[i]).toBe(exactScore.get(probed.sids[i]))
    }
    expect(total / 40).toBeGreaterThanOrEqual(0.98)
  })

  it('lays the rows out list by list when trained and when restored, keeping every row’s data', () => {
    const index = new VectorIndex(dim)
    index.add(sids, vectors, () => 'c')
    const query = queries.subarray(0, dim)
    const before = index.scan(query)
    const scoreOf = new Map(Array.from(before.sids, (sid, i) => [sid, before.raw[i]]))
    train(index)
    const after = index.scan(query)
    expect(after.count).toBe(rows)
    for (let i = 0; i < after.count; i++) expect(after.raw[i]).toBe(scoreOf.get(after.sids[i]))
    const listsInRowOrder = Array.from(index.serializeCoarseLists()!.lists)
    expect(listsInRowOrder).toEqual([...listsInRowOrder].sort((a, b) => a - b))
    const reopened = new VectorIndex(dim)
    reopened.add(sids, vectors, () => 'c')
    reopened.restoreCoarseLists(structuredClone(index.serializeCoarseLists()!))
    expect(Array.from(reopened.serializeCoarseLists()!.lists)).toEqual(listsInRowOrder)
    expect(Array.from(reopened.serializeCoarseLists()!.sids)).toEqual(Array.from(index.serializeCoarseLists()!.sids))
  })

  it('files rows added and removed while training runs, so the lists end whole', () => {
    const index = new VectorIndex(dim)
    index.add(sids.slice(0, 3000), vectors.subarray(0, 3000 * dim), () => 'c')
    const steps = index.trainCoarseLists(seededRandom(2))
    const live = new Set(sids.slice(0, 3000))
    let next = 3000
    for (let step = 0; !steps.next().done; step++) {
      if (step % 7 === 0 && next < rows) {
        index.add([sids[next]], vectors.slice(next * dim, (next + 1) * dim), () => 'c')
        live.add(sids[next++])
      }
      if (step % 5 === 0) {
        const victim = sids[(step * 37) % next]
        index.remove([victim])
        live.delete(victim)
      }
    }
    const snapshot = index.serializeCoarseLists()!
    expect(new Set(snapshot.sids)).toEqual(live)
    expect(Array.from(snapshot.lists).every((list) => list >= 0)).toBe(true)
    const probed = index.probe(queries.subarray(0, dim))!
    for (const sid of probed.sids) expect(live.has(sid)).toBe(true)
    index.add([sids[next]], vectors.slice(next * dim, (next + 1) * dim), () => 'c')
    expect(index.serializeCoarseLists()!.lists.every((list) => list >= 0)).toBe(true)
  })

  it('restores stored lists: same probes as before, rows unknown to the snapshot filed, forgotten ones skipped', () => {
    const index = new VectorIndex(dim)
    index.add(sids.slice(0, 3500), vectors.subarray(0, 3500 * dim), () => 'c')
    train(index)
    const snapshot = structuredClone(index.serializeCoarseLists()!)
    const reopened = new VectorIndex(dim)
    reopened.add(sids.slice(0, 3500).reverse(), reverseRows(vectors.subarray(0, 3500 * dim), dim), () => 'c')
    reopened.restoreCoarseLists(snapshot)
    for (let q = 0; q < 10; q++) {
      const query = queries.subarray(q * dim, (q + 1) * dim)
      expect(reopened.probe(query)).toEqual(index.probe(query))
    }
    const later = new VectorIndex(dim)
    later.add(sids.slice(100), vectors.subarray(100 * dim), () => 'c')
    later.restoreCoarseLists(snapshot)
    const restored = later.serializeCoarseLists()!
    expect(restored.sids.length).toBe(rows - 100)
    expect(restored.lists.every((list) => list >= 0)).toBe(true)
    expect(restored.probeShare).toBe(snapshot.probeShare)
    expect(new VectorIndex(dim + 1).restoreCoarseLists(snapshot)).toBeUndefined()
  })
})

describe('VectorIndex.recentreCoarseLists', () => {
  it('makes each centroid the mean direction of the rows left in its list, keeping every row where it was', () => {
    const dim = 16
    const { vectors, index } = trainedIndex(2000, dim, 25, 6)
    const before = index.serializeCoarseLists()!
    const gone = Array.from({ length: 600 }, (_, i) => 1 + i * 3)
    index.remove(gone)
    index.recentreCoarseLists()
    const after = index.serializeCoarseLists()!
    const listOf = new Map(Array.from(before.sids, (sid, i) => [sid, before.lists[i]]))
    after.sids.forEach((sid, i) => expect(after.lists[i]).toBe(listOf.get(sid)))
    const count = after.centroids.length / dim
    for (let list = 0; list < count; list++) {
      const mean = new Float64Array(dim)
      after.sids.forEach((sid, i) => {
        if (after.lists[i] !== list) return
        for (let d = 0; d < dim; d++) mean[d] += vectors[(sid - 1) * dim + d]
      })
      const norm = Math.hypot(...mean)
      const centroid = after.centroids.subarray(list * dim, (list + 1) * dim)
      // Rows are stored as int8 codes plus residuals: their mean matches the float mean to about 10⁻⁴.
      for (let d = 0; d < dim; d++) expect(Math.abs(centroid[d] - (norm > 0 ? mean[d] / norm : 0))).toBeLessThan(1e-3)
    }
  })
})

describe('ProbedDenseRanking', () => {
  it('gives the probe’s rows, then the exact ranking without them: every row once', () => {
    const dim = 16
    const rows = 1500
    const { vectors, index } = trainedIndex(rows, dim, 20, 8)
    const query = vectors.slice(0, dim)
    const probed = index.probe(query)!
    let exactBuilt = 0
    const ranking = new ProbedDenseRanking(probed, () => {
      exactBuilt++
      return new DenseRanking(index.scan(query))
    })
    for (let i = 0; i < probed.count; i++)
      expect(ranking.at(i)).toEqual({ sid: probed.sids[i], score: probed.score[i] })
    expect(exactBuilt).toBe(0)
    const seen = new Set<number>()
    for (let i = 0; ; i++) {
      const entry = ranking.at(i)
      if (!entry) break
      expect(seen.has(entry.sid)).toBe(false)
      seen.add(entry.sid)
    }
    expect(seen.size).toBe(rows)
    expect(exactBuilt).toBe(1)
    const exact = new DenseRanking(index.scan(query))
    const rest = Array.from({ length: rows }, (_, i) => exact.at(i)!).filter(
      (e) => !Array.from(probed.sids).includes(e.sid),
    )
    expect(Array.from({ length: rest.length }, (_, i) => ranking.at(probed.count + i))).toEqual(rest)
    expect(ranking.scoreOf(probed.sids[0])).toBe(probed.score[0])
    expect(ranking.scoreOf(rest[0].sid)).toBe(rest[0].score)
  })
})

function reverseRows(vectors: Float32Array, dim: number): Float32Array {
  const rows = vectors.length / dim
  const out = new Float32Array(vectors.length)
  for (let r = 0; r < rows; r++) out.set(vectors.subarray(r * dim, (r + 1) * dim), (rows - 1 - r) * dim)
  return out
}
