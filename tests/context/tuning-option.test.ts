import { describe, expect, it } from 'vitest'
import { isSiftError } from '../../src/errors'
import { createMemory } from '../../src/node'
import { CONTEXT_TUNING } from '../../worker/context/context-tuning'
import { DEFAULT_TUNING, toTuning } from '../../worker/input/tuning-option'
import { RANK_TUNING } from '../../worker/rank/rank-tuning'

describe('toTuning', () => {
  it('is the shipped tables without overrides, and replaces only the names given', () => {
    expect(toTuning(undefined)).toBe(DEFAULT_TUNING)
    expect(DEFAULT_TUNING).toEqual({ ...RANK_TUNING, ...CONTEXT_TUNING })
    const tuned = toTuning({ replyLeads: 1, continuation: false, turnShare: 0.3, lexicalShareBias: -2.5 })
    expect(tuned).toEqual({
      ...DEFAULT_TUNING,
      replyLeads: 1,
      continuation: false,
      turnShare: 0.3,
      lexicalShareBias: -2.5,
    })
    expect(DEFAULT_TUNING.replyLeads).toBe(3)
  })

  it.each([
    [[], /tuning must be an object/],
    [{ replyLead: 1 }, /no constant named "replyLead"; known: .*replyLeads/],
    [{ replyLeads: 2.5 }, /tuning.replyLeads must be a whole number ≥ 0, got 2.5/],
    [{ replyLeads: -1 }, /tuning.replyLeads must be a whole number ≥ 0/],
    [{ continuation: 'no' }, /tuning.continuation must be true or false, got "no"/],
    [{ turnShare: 1.5 }, /tuning.turnShare must be a number from 0 to 1/],
    [{ rrfK: -1 }, /tuning.rrfK must be a number ≥ 0/],
    [{ leadBudget: 0 }, /tuning.leadBudget must be a number above 0/],
    [{ lexicalShareBias: Number.NaN }, /tuning.lexicalShareBias must be a finite number/],
    [{ compoundGramLength: 5 }, /tuning.compoundGramLength is fixed: .* change it in its table/],
    [{ rescoredRows: 512 }, /tuning.rescoredRows is fixed/],
  ])('rejects %j with INVALID_INPUT', (overrides, message) => {
    let error: unknown
    try {
      toTuning(overrides)
    } catch (thrown) {
      error = thrown
    }
    expect(isSiftError(error) && error.code).toBe('INVALID_INPUT')
    expect((error as Error).message).toMatch(message)
  })
})

describe('the Node entry’s tuning option', () => {
  it('is checked when the memory opens, and reaches the ranking', async () => {
    await expect(createMemory({ name: 'tuning-bad', tuning: { nope: 1 } })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
    const turnScore = async (tuning?: Record<string, number>) => {
      const memory = await createMemory({ name: `tuning-${JSON.stringify(tuning)}`, tuning })
      try {
        await memory.add({ role: 'user', content: 'I take violin lessons. They are on Sundays, at nine.' })
        const context = await memory.buildContext('violin lessons', { strategy: 'lexical' })
        return context.items.find((item) => item.text.startsWith('They'))?.score
      } finally {
        await memory.close()
      }
    }
    // The second sentence holds no word of the request: only its turn's score, the turn share of it, ranks it.
    expect(await turnScore()).toBeGreaterThan(0)
    expect(await turnScore({ turnShare: 0 })).toBe(0)
  })
})
