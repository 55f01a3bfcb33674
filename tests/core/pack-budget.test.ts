import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../worker/util/seeded-random'
import { packBudget, type PackOptions, type PackResult } from '../../src/core/pack-budget'
import { compareChronological, renderContext, type RenderOptions } from '../../src/core/render-context'
import type { ScoredSentence } from '../../src/core/scored-sentence'
import { SiftError } from '../../src/errors'

const DAY = 86_400_000
const START = Date.UTC(2023, 4, 8, 9)

interface MessageShape {
  conversation: number
  role: string
  /** Days after START; -1 gives an invalid timestamp (rendered without a date). */
  day: number
  sentences: string[]
}

/** Builds the sentences of a history: seq in array order, turns counted per conversation. */
function buildHistory(messages: readonly MessageShape[]): ScoredSentence[] {
  const turns = new Map<number, number>()
  const sentences: ScoredSentence[] = []
  messages.forEach((message, position) => {
    const turn = turns.get(message.conversation) ?? 0
    turns.set(message.conversation, turn + 1)
    message.sentences.forEach((text, index) => {
      sentences.push({
        sid: sentences.length + 1,
        messageId: `m${position + 1}`,
        conversationId: `c${message.conversation}`,
        seq: position + 1,
        index,
        role: message.role,
        timestamp: message.day < 0 ? Number.NaN : START + message.day * DAY,
        text,
        start: 0,
        end: text.length,
        turn,
        score: 0,
        reason: 'relevant',
      })
    })
  })
  return sentences
}

/** The packing rule written the slow, obvious way: re-render for every candidate. */
function referencePack(ranked: readonly ScoredSentence[], options: PackOptions) {
  const { budget, minFill = 0.9, render = {}, offeredFirst = [] } = options
  const length = (items: readonly ScoredSentence[]) => renderContext(items, render).length
  const uniqueFirst = offeredFirst.filter((item, i) => offeredFirst.findIndex((other) => other.sid === item.sid) === i)
  let items: ScoredSentence[] = []
  const offer = (item: ScoredSentence) => {
    if (!items.some((taken) => taken.sid === item.sid) && length([...items, item]) <= budget) items.push(item)
  }
  if (length(uniqueFirst) <= budget) items = uniqueFirst
  else offeredFirst.forEach(offer)
  let considered = offeredFirst.length
  let stoppedBy: PackResult['stoppedBy'] = length(items) >= minFill * budget ? 'budget' : 'exhausted'
  for (const item of ranked) {
    if (stoppedBy === 'budget') break
    considered++
    offer(item)
    if (length(items) >= minFill * budget) stoppedBy = 'budget'
  }
  return { sids: [...items].sort(compareChronological).map((item) => item.sid), stoppedBy, considered }
}

/** An iterable that records how many items were pulled from it. */
function counted(items: readonly ScoredSentence[]) {
  const counter = { pulls: 0 }
  const iterable = {
    *[Symbol.iterator]() {
      for (const item of items) {
        counter.pulls++
        yield item
      }
    },
  }
  return { iterable, counter }
}

const texts = fc.oneof(
  { weight: 1, arbitrary: fc.string({ maxLength: 3 }) },
  { weight: 3, arbitrary: fc.string({ minLength: 4, maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 60, maxLength: 250 }) },
)
const messageShape = (text: fc.Arbitrary<string>) =>
  fc.record({
    conversation: fc.integer({ min: 0, max: 2 }),
    role: fc.constantFrom('user', 'assistant', 'system', 't', ''),
    day: fc.integer({ min: -1, max: 3 }),
    sentences: fc.array(text, { minLength: 1, maxLength: 5 }),
  })
const histories = fc.array(messageShape(texts), { maxLength: 20 }).map(buildHistory)

/** A history, ranked candidates and items offered first drawn from it (duplicates allowed), and pack options. */
const packCases = histories.chain((history) => {
  const pick = fc.integer({ min: 0, max: Math.max(0, history.length - 1) }).map((i) => history[i])
  const picks = (maxLength: number) =>
    history.length === 0 ? fc.constant<ScoredSentence[]>([]) : fc.array(pick, { maxLength })
  const total = renderContext(history).length
  return fc.record({
    history: fc.constant(history),
    ranked: picks(60),
    offeredFirst: fc.oneof(fc.constant<ScoredSentence[]>([]), picks(6)),
    budget: fc.oneof(fc.integer({ min: 0, max: Math.ceil(total * 1.2) + 10 }), fc.integer({ min: 0, max: 60 })),
    minFill: fc.oneof(fc.constant(0.9), fc.constantFrom(0, 0.5, 1), fc.double({ min: 0, max: 1, noNaN: true })),
    render: fc.record({ dates: fc.boolean() }) as fc.Arbitrary<RenderOptions>,
  })
})

describe('packBudget properties', () => {
  it('never exceeds the budget; used, text and renderContext(items) agree exactly', () => {
    const seen = { budget: 0, exhausted: 0, skipped: 0 }
    fc.assert(
      fc.property(packCases, ({ ranked, offeredFirst, budget, minFill, render }) => {
        const result = packBudget(ranked, { budget, minFill, render, offeredFirst })
        expect(result.used).toBeLessThanOrEqual(budget)
        expect(result.text).toBe(renderContext(result.items, render))
        expect(result.used).toBe(result.text.length)
        seen[result.stoppedBy]++
        const offered = new Set([...offeredFirst, ...ranked].slice(0, result.considered).map((item) => item.sid))
        if (result.items.length < offered.size) seen.skipped++
      }),
      { numRuns: 1000 },
    )
    // The generator must exercise both stop reasons and candidates that do not fit.
    expect(Math.min(seen.budget, seen.exhausted, seen.skipped)).toBeGreaterThan(100)
  })

  it('makes exactly the decisions of a packer that re-renders for every candidate', () => {
    fc.assert(
      fc.property(packCases, ({ ranked, offeredFirst, budget, minFill, render }) => {
        const options = { budget, minFill, render, offeredFirst }
        const result = packBudget(ranked, options)
        const reference = referencePack(ranked, options)
        expect(result.items.map((item) => item.sid)).toEqual(reference.sids)
        expect(result.stoppedBy).toBe(reference.stoppedBy)
        expect(result.considered).toBe(reference.considered)
      }),
      { numRuns: 1000 },
    )
  })

  it('returns distinct items in chronological order', () => {
    fc.assert(
      fc.property(packCases, ({ ranked, offeredFirst, budget, minFill, render }) => {
        const { items } = packBudget(ranked, { budget, minFill, render, offeredFirst })
        for (let i = 1; i < items.length; i++) {
          const [a, b] = [items[i - 1], items[i]]
          expect(compareChronological(a, b)).toBeLessThan(0)
        }
      }),
      { numRuns: 300 },
    )
  })

  it("reports 'budget' exactly when the fill reached minFill, else having looked at every candidate", () => {
    fc.assert(
      fc.property(packCases, ({ ranked, offeredFirst, budget, minFill, render }) => {
        const result = packBudget(ranked, { budget, minFill, render, offeredFirst })
        expect(result.stoppedBy === 'budget').toBe(result.used >= minFill * budget)
        if (result.stoppedBy === 'exhausted') expect(result.considered).toBe(offeredFirst.length + ranked.length)
      }),
      { numRuns: 500 },
    )
  })

  it('keeps every item offered first when the items offered first fit together', () => {
    fc.assert(
      fc.property(packCases, ({ ranked, offeredFirst, budget, minFill, render }) => {
        const result = packBudget(ranked, { budget, minFill, render, offeredFirst })
        if (
          renderContext(
            offeredFirst.filter((item, i) => offeredFirst.indexOf(item) === i),
            render,
          ).length <= budget
        ) {
          const sids = new Set(result.items.map((item) => item.sid))
          for (const item of offeredFirst) expect(sids.has(item.sid)).toBe(true)
        }
      }),
      { numRuns: 500 },
    )
  })

  it('pulls from a lazy iterable only while the budget is not full', () => {
    fc.assert(
      fc.property(packCases, ({ ranked, offeredFirst, budget, minFill, render }) => {
        const { iterable, counter } = counted(ranked)
        const result = packBudget(iterable, { budget, minFill, render, offeredFirst })
        expect(counter.pulls).toBe(result.considered - offeredFirst.length)
      }),
      { numRuns: 500 },
    )
  })

  it('fills ≥ 90% whenever every sentence is small relative to the slack', () => {
    const shortTexts = fc.string({ maxLength: 40, size: 'max' })
    const cases = fc.array(messageShape(shortTexts), { minLength: 1, maxLength: 80, size: 'max' }).chain((messages) => {
      const history = buildHistory(messages)
      const total = renderContext(history).length
      // Most a sentence can add: its text, its line label and the next line's date (≤ 17 + 3 + label), two gap markers.
      const largestAddition = Math.max(...history.map((item) => item.text.length)) + 2 * (9 + 2 + 17 + 3) + 10
      const smallestBudget = Math.ceil(largestAddition / 0.1)
      return fc.record({
        history: fc.constant(history),
        order: fc.shuffledSubarray(history, { minLength: history.length }),
        budget: fc.integer({ min: smallestBudget, max: Math.max(smallestBudget, Math.ceil(total * 1.5)) }),
        render: fc.record({ dates: fc.boolean() }) as fc.Arbitrary<RenderOptions>,
      })
    })
    let filled = 0
    fc.assert(
      fc.property(cases, ({ history, order, budget, render }) => {
        const result = packBudget(order, { budget, render })
        if (result.stoppedBy === 'budget') filled++
        if (renderContext(history, render).length >= budget) expect(result.stoppedBy).toBe('budget')
        if (result.stoppedBy === 'budget') expect(result.used).toBeGreaterThanOrEqual(0.9 * budget)
        else expect(result.items).toHaveLength(history.length)
      }),
      { numRuns: 500 },
    )
    expect(filled).toBeGreaterThan(50)
  })
})

describe('packBudget', () => {
  const history = buildHistory([
    { conversation: 0, role: 'user', day: 0, sentences: ['I moved to Lisbon.', 'It is sunny.', 'I like it.'] },
    { conversation: 0, role: 'assistant', day: 0, sentences: ['Nice!', 'Do you surf?'] },
    { conversation: 0, role: 'user', day: 1, sentences: ['Yes, every weekend at Carcavelos beach with my friends.'] },
    { conversation: 0, role: 'assistant', day: 1, sentences: ['Great.'] },
  ])
  const [lisbon, sunny, like, nice, surf, weekend, great] = history

  it('renders the picks chronologically with labels, dates and gap markers', () => {
    const result = packBudget([great, lisbon, like], { budget: 1000 })
    expect(result.text).toBe(
      'user (8 May 2023): I moved to Lisbon. […] I like it.\n[…]\nassistant (9 May 2023): Great.',
    )
    expect(result).toMatchObject({ used: result.text.length, stoppedBy: 'exhausted', considered: 3 })
    expect(result.items).toEqual([lisbon, like, great])
  })

  it('skips a candidate that does not fit and takes a later one that does', () => {
    const budget = renderContext([lisbon, nice]).length
    const result = packBudget([lisbon, weekend, nice], { budget, minFill: 1 })
    expect(result.items).toEqual([lisbon, nice])
    expect(result).toMatchObject({ used: budget, stoppedBy: 'budget', considered: 3 })
  })

  it('stops once 90% full without pulling further candidates', () => {
    const budget = Math.floor(renderContext([weekend]).length / 0.9)
    const { iterable, counter } = counted([weekend, lisbon, sunny])
    const result = packBudget(iterable, { budget })
    expect(result.items).toEqual([weekend])
    expect(result.stoppedBy).toBe('budget')
    expect(counter.pulls).toBe(1)
  })

  it('ignores duplicate sids but counts them as considered', () => {
    const result = packBudget([surf, surf, nice, surf], { budget: 1000, offeredFirst: [nice] })
    expect(result.items).toEqual([nice, surf])
    expect(result.considered).toBe(5)
  })

  it('puts items offered first in first, in their order, each only if it fits', () => {
    const budget = renderContext([great, lisbon]).length
    const result = packBudget([sunny], { budget, minFill: 1, offeredFirst: [great, weekend, lisbon] })
    expect(result.items).toEqual([lisbon, great])
    expect(result.stoppedBy).toBe('budget')
    expect(result.considered).toBe(3)
  })

  it('offers every item offered first even after the fill is reached', () => {
    const budget = renderContext([weekend, great]).length
    const result = packBudget([lisbon], { budget, minFill: 0.5, offeredFirst: [great, weekend] })
    expect(result.items).toEqual([weekend, great])
    expect(result.considered).toBe(2)
  })

  it('keeps a set offered first that fits as a whole even when a subset of it would not', () => {
    const [first, , third] = history
    const hi = { ...sunny, text: 'Hi' }
    const whole = renderContext([first, hi, third])
    expect(renderContext([first, third]).length).toBe(whole.length + 1)
    const result = packBudget([], { budget: whole.length, offeredFirst: [first, third, hi] })
    expect(result.text).toBe(whole)
  })

  it('still takes the items offered first under their deprecated name, pinned', () => {
    const budget = renderContext([great, lisbon]).length
    const offered = { budget, minFill: 1, offeredFirst: [great, weekend, lisbon] }
    const { offeredFirst, ...rest } = offered
    expect(packBudget([sunny], { ...rest, pinned: offeredFirst })).toEqual(packBudget([sunny], offered))
  })

  it('takes nothing with a zero budget and pulls nothing', () => {
    const { iterable, counter } = counted(history)
    expect(packBudget(iterable, { budget: 0 })).toEqual({
      items: [],
      text: '',
      used: 0,
      stoppedBy: 'budget',
      considered: 0,
    })
    expect(counter.pulls).toBe(0)
  })

  it('takes everything with an infinite budget', () => {
    const result = packBudget([...history].reverse(), { budget: Number.POSITIVE_INFINITY })
    expect(result.text).toBe(renderContext(history))
    expect(result.stoppedBy).toBe('exhausted')
  })

  it('measures the rendering it was asked for', () => {
    const result = packBudget(history, { budget: 1000, render: { dates: false } })
    expect(result.text).not.toContain('May')
    expect(result.used).toBe(renderContext(history, { dates: false }).length)
  })

  it('rejects a negative or NaN budget and a minFill outside [0, 1]', () => {
    for (const options of [
      { budget: -1 },
      { budget: Number.NaN },
      { budget: 10, minFill: 1.5 },
      { budget: 10, minFill: -0.1 },
    ]) {
      expect(() => packBudget([], options)).toThrow(SiftError)
    }
  })
})

describe('packBudget speed', () => {
  it('packs a few hundred candidates in well under a millisecond', () => {
    const random = seededRandom(42)
    const words = ['memory', 'lisbon', 'surf', 'beach', 'the', 'a', 'weekend', 'friends', 'work', 'coffee', 'book']
    const sentenceText = () =>
      Array.from({ length: 5 + Math.floor(random() * 20) }, () => words[Math.floor(random() * words.length)]).join(' ')
    const history = buildHistory(
      Array.from({ length: 2000 }, (_, i) => ({
        conversation: i % 3,
        role: i % 2 ? 'assistant' : 'user',
        day: Math.floor(i / 100),
        sentences: Array.from({ length: 1 + Math.floor(random() * 4) }, sentenceText),
      })),
    )
    const candidates = Array.from({ length: 300 }, () => history[Math.floor(random() * history.length)])
    const offeredFirst = history.slice(-4).reverse()
    const median = (budget: number) => {
      const times: number[] = []
      for (let run = 0; run < 300; run++) {
        const begin = performance.now()
        packBudget(candidates, { budget, offeredFirst })
        times.push(performance.now() - begin)
      }
      return times.sort((a, b) => a - b)[times.length >> 1]
    }
    const typical = median(8000)
    const allCandidates = median(1_000_000)
    console.log(
      `packBudget median over 300 runs: budget 8000 ${typical.toFixed(3)} ms; all 300 candidates ${allCandidates.toFixed(3)} ms`,
    )
    expect(packBudget(candidates, { budget: 1_000_000, offeredFirst }).considered).toBe(304)
    expect(typical).toBeLessThan(1)
    expect(allCandidates).toBeLessThan(1)
  })
})
