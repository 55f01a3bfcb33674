// `queries` is bounded by count as well as by characters: each query is embedded and ranked on its own while the
// engine answers nothing else, so thousands of one-letter queries, far under maxRequestChars, would hold it (and every
// tab sharing it) for minutes. With the count bounded, the costliest request allowed costs about what the longest one
// does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemory, type BuildContextOptions, type Memory } from '../../src/node'
import { MAX_EXTRA_QUERIES } from '../../worker/input/context-request'
import { DEFAULT_MAX_REQUEST_CHARS } from '../../worker/input/input-limits'

const TOPICS = ['boiler', 'violin', 'harbour', 'marathon', 'peanut', 'lighthouse', 'ferry', 'cardamom', 'quokka']

describe('the number of queries', () => {
  let memory: Memory
  beforeAll(async () => {
    memory = await createMemory({ name: 'query-count' })
    await memory.add(
      Array.from({ length: 400 }, (_, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        content: `Turn ${i} is about the ${TOPICS[i % TOPICS.length]} and the ${TOPICS[(i * 7) % TOPICS.length]}. It mentions ${i * 13} things too.`,
      })),
    )
    await memory.indexed()
  })
  afterAll(() => memory?.close())

  it(`takes ${MAX_EXTRA_QUERIES} extra queries and refuses one more with INVALID_INPUT naming the limit`, async () => {
    const letters = (count: number) => Array.from({ length: count }, (_, i) => String.fromCharCode(97 + (i % 26)))
    const allowed = await memory.buildContext('boiler', { queries: letters(MAX_EXTRA_QUERIES) })
    expect(allowed.stats.ranking).toBe('hybrid')
    for (const count of [MAX_EXTRA_QUERIES + 1, 5_000]) {
      await expect(memory.buildContext('boiler', { queries: letters(count) })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringContaining(`at most ${MAX_EXTRA_QUERIES} extra queries`),
      })
    }
  })

  it('finishes the costliest request allowed in about the time of the longest single request allowed', async () => {
    const words = (count: number, offset: number) =>
      Array.from({ length: count }, (_, i) => `${TOPICS[(i + offset) % TOPICS.length]}${(i * 31 + offset) % 997}`).join(
        ' ',
      )
    const longest = words(20_000, 0).slice(0, DEFAULT_MAX_REQUEST_CHARS)
    const share = Math.floor(DEFAULT_MAX_REQUEST_CHARS / (MAX_EXTRA_QUERIES + 1))
    const costliest: [string, BuildContextOptions][] = [
      // As many queries as allowed, each as long as the character limit leaves it, words all different.
      [
        words(4_000, 1).slice(0, share),
        { queries: Array.from({ length: MAX_EXTRA_QUERIES }, (_, q) => words(4_000, q + 2).slice(0, share)) },
      ],
      // As many queries as allowed, each one letter, with every option that works per query.
      [
        'b',
        {
          queries: Array.from({ length: MAX_EXTRA_QUERIES }, (_, q) => String.fromCharCode(97 + (q % 26))),
          followUpdates: true,
          adaptiveStop: true,
        },
      ],
    ]
    const once = async ([request, options]: [string, BuildContextOptions]) => {
      const started = performance.now()
      await memory.buildContext(request, options)
      return performance.now() - started
    }
    for (const costly of costliest) {
      // Alternated, best of three each, so that both see the same load on a busy machine.
      let [single, ms] = [Infinity, Infinity]
      for (let run = 0; run < 3; run++) {
        single = Math.min(single, await once([longest, {}]))
        ms = Math.min(ms, await once(costly))
      }
      // Generous, so that a busy machine does not fail it; unbounded, such a request took minutes.
      expect({ ms, single }).toSatisfy(({ ms, single }: { ms: number; single: number }) => ms < 4 * single + 1_000)
    }
  })
})
