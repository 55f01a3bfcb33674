// A model that cannot load (its folder missing) costs dense ranking, never the context: hybrid and dense requests
// are ranked lexically and say so, unless the app asked for strictRanking.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createMemory, SiftError } from '../../src/node'

const emptyModelFolder = mkdtempSync(join(tmpdir(), 'sift-no-models-'))
afterAll(() => rmSync(emptyModelFolder, { recursive: true, force: true }))

const history = [
  { role: 'user', content: 'The lighthouse keeper waved at the ferry.' },
  { role: 'assistant', content: 'That sounds like a calm morning on the coast.' },
  { role: 'user', content: 'My sister is allergic to peanuts.' },
]

async function rejectionOf(promise: Promise<unknown>): Promise<SiftError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SiftError)
  return error as SiftError
}

describe('buildContext when the model cannot load', () => {
  it('ranks hybrid and dense requests lexically, with stats.ranking and stats.degraded saying so and why', async () => {
    const memory = await createMemory({ name: 'degraded', model: 'no-such-model', localModelPath: emptyModelFolder })
    await memory.add(history)
    // Its load failed (and ready() says why): until then the context would say the model is still loading.
    const failure = await rejectionOf(memory.ready())
    expect(failure.code).toBe('MODEL_UNAVAILABLE')
    expect(failure.message).toContain('no-such-model')
    expect((await memory.stats()).modelState).toBe('unavailable')
    const lexical = await memory.buildContext('Who has a peanut allergy?', { strategy: 'lexical', budget: 200 })
    expect(lexical.stats.ranking).toBe('lexical')
    expect(lexical.stats).not.toHaveProperty('degraded')
    for (const strategy of ['hybrid', 'dense'] as const) {
      const context = await memory.buildContext('Who has a peanut allergy?', { strategy, budget: 200 })
      expect(context.text).toContain('allergic to peanuts')
      expect(context.text).toBe(lexical.text)
      expect(context.stats).toMatchObject({
        strategy,
        ranking: 'lexical',
        degraded: expect.stringContaining('no-such-model'),
      })
    }
    expect(await memory.stats()).toMatchObject({ messages: 3, pending: 3 })
    await memory.close()
  })

  it('with strictRanking rejects hybrid and dense with MODEL_UNAVAILABLE, and lexical still works', async () => {
    const memory = await createMemory({
      name: 'strict',
      model: 'no-such-model',
      localModelPath: emptyModelFolder,
      strictRanking: true,
    })
    await memory.add(history)
    for (const strategy of ['hybrid', 'dense'] as const) {
      const error = await rejectionOf(memory.buildContext('peanuts', { strategy }))
      expect(error.code).toBe('MODEL_UNAVAILABLE')
      expect(error.message).toContain('no-such-model')
    }
    expect((await memory.buildContext('peanuts', { strategy: 'lexical' })).text).toContain('allergic to peanuts')
    await memory.close()
  })

  it('refuses a strictRanking that is not a boolean', async () => {
    const error = await rejectionOf(
      createMemory({ name: 'strict-invalid', strictRanking: 'yes' as unknown as boolean }),
    )
    expect(error.code).toBe('INVALID_INPUT')
  })

  it('with a working model ranks as asked, and says nothing is degraded', async () => {
    const memory = await createMemory({ name: 'not-degraded' })
    await memory.add(history)
    await memory.indexed()
    await memory.ready()
    expect((await memory.stats()).modelState).toBe('ready')
    const context = await memory.buildContext('Who has a peanut allergy?', { strategy: 'hybrid', budget: 200 })
    expect(context.stats.ranking).toBe('hybrid')
    expect(context.stats).not.toHaveProperty('degraded')
    expect(context.text).toContain('allergic to peanuts')
    await memory.close()
  })
})
