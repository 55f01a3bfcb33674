// The engine with enough vectors to train coarse lists (COARSE_MIN_ROWS): trained in the background, awaited by
// indexed(), used by dense ranking, saved, and restored at the next open. Texts get vectors from an embedding cache
// (the host's own interface) so 20,000 sentences need no model time; the query vectors come from it too.
import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../worker/util/seeded-random'
import type { EmbeddingCache } from '../../worker/embed/embedding-cache'
import { Engine } from '../../worker/engine/engine'
import { nodeHost } from '../../worker/hosts/node/node-host'
import { COARSE_MIN_ROWS, type VectorIndex } from '../../worker/index/vector/vector-index'
import { DenseRanking } from '../../worker/rank/dense-ranking'

const DIM = 64
const TOPICS = 200
const random = seededRandom(12)
const centres = Array.from({ length: TOPICS }, () => Float32Array.from({ length: DIM }, () => random() * 2 - 1))

/** "Note N on topic T." → a unit vector near topic T's centre, the same for the same text. */
function vectorOf(text: string): Float32Array {
  const topic = Number(/topic (\d+)/.exec(text)?.[1] ?? 0) % TOPICS
  const noise = seededRandom([...text].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7))
  const out = Float32Array.from(centres[topic], (v) => v + (noise() * 2 - 1) * 0.4)
  const norm = Math.hypot(...out)
  return out.map((v) => v / norm)
}

// Derived from the text, nothing held: there is nothing to forget either.
const cache: EmbeddingCache = {
  get: (text) => vectorOf(text),
  set: () => undefined,
  flush: async () => undefined,
  forget: async () => undefined,
  clear: async () => undefined,
}

function hostFor(factory: IDBFactory) {
  const host = nodeHost({ indexedDB: factory }, new URL('../../', import.meta.url))
  return { ...host, openEmbeddingCache: async () => cache }
}

/** The engine's vector index, which exists once any vector does. */
function vectorsOf(engine: Engine): VectorIndex {
  const { vectors } = engine.background
  expect(vectors).toBeDefined()
  return vectors!
}

describe('Engine coarse lists', () => {
  it('trains them once the vectors pass COARSE_MIN_ROWS, ranks dense from them, saves them, restores them at open, and re-centres them after a forget', async () => {
    const factory = new IDBFactory()
    const count = COARSE_MIN_ROWS + 500
    const engine = await Engine.open({ name: 'coarse' }, hostFor(factory))
    await engine.add(
      Array.from({ length: count }, (_, i) => ({
        role: 'user',
        content: `Note ${i} on topic ${i % TOPICS}.`,
        conversationId: `c${i % 3}`,
      })),
    )
    expect((await engine.stats()).denseIndex).toEqual({ kind: 'exact' })
    await engine.indexed()
    const trained = vectorsOf(engine).serializeCoarseLists()!
    expect((await engine.stats()).denseIndex).toEqual({
      kind: 'coarse-lists',
      lists: 256,
      probeShare: trained.probeShare,
      trainedRows: trained.trainedRows,
    })
    expect(trained.sids.length).toBe(count)
    expect(trained.probeShare).toBeLessThan(1)

    const request = 'What was on topic 17?'
    const query = vectorOf(request)
    const before = await engine.buildContext(request, { strategy: 'dense', budget: 1200 })
    const relevant = before.items.filter((item) => item.reason === 'relevant')
    expect(relevant.length).toBeGreaterThan(10)
    expect(relevant.every((item) => / topic 17\.$/.test(item.text))).toBe(true)
    // The probe's top agrees with the exact scan's.
    const exact = new DenseRanking(vectorsOf(engine).scan(query))
    const exactTop = new Set(Array.from({ length: 20 }, (_, i) => exact.at(i)!.sid))
    const probedTop = Array.from(vectorsOf(engine).probe(query)!.sids.subarray(0, 20))
    expect(probedTop.filter((sid) => exactTop.has(sid)).length).toBeGreaterThanOrEqual(19)
    await engine.close()

    const reopened = await Engine.open({ name: 'coarse' }, hostFor(factory))
    // Put in use after open (with the residuals), not during it; indexed() waits for them.
    expect(vectorsOf(reopened).hasCoarseLists).toBe(false)
    expect((await reopened.stats()).denseIndex).toEqual({ kind: 'exact' })
    await reopened.indexed()
    expect((await reopened.stats()).denseIndex).toEqual({
      kind: 'coarse-lists',
      lists: 256,
      probeShare: trained.probeShare,
      trainedRows: trained.trainedRows,
    })
    const restored = vectorsOf(reopened).serializeCoarseLists()!
    expect(restored.centroids).toEqual(trained.centroids)
    expect(restored.probeShare).toBe(trained.probeShare)
    expect(await reopened.buildContext(request, { strategy: 'dense', budget: 1200 })).toMatchObject({
      text: before.text,
    })

    expect(await reopened.forget({ conversationId: 'c2' })).toBe(Math.floor(count / 3))
    const afterForget = await reopened.buildContext(request, { strategy: 'dense', budget: 1200 })
    expect(afterForget.items.every((item) => item.conversationId !== 'c2')).toBe(true)
    expect(vectorsOf(reopened).probe(query)).toBeDefined()
    const recentred = vectorsOf(reopened).serializeCoarseLists()!
    expect(recentred.centroids).not.toEqual(trained.centroids)
    await reopened.close()
    const third = await Engine.open({ name: 'coarse' }, hostFor(factory))
    // The first request is answered by the exact scan, and puts the saved lists in use right after it.
    expect(vectorsOf(third).hasCoarseLists).toBe(false)
    const first = await third.buildContext(request, { strategy: 'dense', budget: 1200 })
    const firstRelevant = first.items.filter((item) => item.reason === 'relevant')
    expect(firstRelevant.length).toBeGreaterThan(10)
    expect(firstRelevant.every((item) => / topic 17\.$/.test(item.text) && item.conversationId !== 'c2')).toBe(true)
    await third.background.settled()
    const afterReopen = vectorsOf(third).serializeCoarseLists()!
    expect(afterReopen.sids.length).toBe(count - Math.floor(count / 3))
    expect(afterReopen.centroids).toEqual(recentred.centroids)
    await third.indexed()
    expect((await third.buildContext(request, { strategy: 'dense', budget: 1200 })).text).toBe(afterForget.text)
    await third.close()

    // A forget before the saved lists were put in use still leaves no centroid as it was trained with the forgotten rows.
    const fourth = await Engine.open({ name: 'coarse' }, hostFor(factory))
    expect(vectorsOf(fourth).hasCoarseLists).toBe(false)
    expect(await fourth.forget({ conversationId: 'c1' })).toBe(Math.floor(count / 3))
    const centredAgain = vectorsOf(fourth).serializeCoarseLists()!
    expect(centredAgain.centroids).not.toEqual(recentred.centroids)
    expect(centredAgain.sids.length).toBe(count - 2 * Math.floor(count / 3))
    await fourth.close()
  }, 120_000)
})
