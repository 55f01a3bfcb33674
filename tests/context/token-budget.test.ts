import { readFileSync } from 'node:fs'
import { Tokenizer } from '@huggingface/tokenizers'
import fc from 'fast-check'
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base'
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemory, type Memory, type MessageInput } from '../../src/node'

const plain = { disallowedSpecial: new Set<string>() }
const useLite = new Tokenizer(JSON.parse(readFileSync('public/models/use-lite/tokenizer.json', 'utf8')), {})
/** Each tokenizer a budget can name, counted here by the tokenizer library itself, not by Sift. */
const TOKENIZERS = {
  o200k_base: (text: string) => o200k(text, plain),
  cl100k_base: (text: string) => cl100k(text, plain),
  'use-lite/tokenizer.json': (text: string) => useLite.encode(text, { add_special_tokens: false }).ids.length,
}
type TokenizerName = keyof typeof TOKENIZERS

/** Turns in four kinds of text whose characters per token differ widely. */
const SAMPLES = {
  english: [
    'We adopted a beagle called Biscuit last spring.',
    'The ferry to the island leaves at seven, so pack the night before.',
    'My sister is moving to Lisbon for her new job at the observatory.',
    'Could you remind me which restaurant we liked in Porto?',
  ],
  japanese: [
    '昨日は京都で抹茶のケーキを食べました。',
    '来週の月曜日に東京駅で待ち合わせしましょう。',
    '新しい自転車はとても軽くて速いです。',
    '猫の名前はモモで、三歳になりました。',
  ],
  code: [
    'const total = items.reduce((sum, item) => sum + item.price * item.qty, 0);',
    'if (err != nil) { return fmt.Errorf("open %s: %w", path, err) }',
    'def fib(n): return n if n < 2 else fib(n - 1) + fib(n - 2)',
    'SELECT id, name FROM users WHERE created_at > NOW() - INTERVAL 7 DAY;',
  ],
  emoji: [
    'Party tonight 🎉🎉🎉 bring snacks 🍕🍩!',
    'Thumbs up 👍🏽 from the whole family 👨‍👩‍👧‍👦.',
    'Flags for the trip: 🇵🇹 🇯🇵 🇧🇷 and lots of ☀️.',
    'The cat 🐈 knocked the plant 🪴 over again 😩.',
  ],
}

/**
 * The most tokens one line of `SAMPLES` can take (label, date, two sentences, separators): a context with less room
 * left than that may have no candidate left that fits, so "full" is at least 90%, or less room left than a line.
 */
function lineTokens(count: (text: string) => number): number {
  const all = Object.values(SAMPLES).flat()
  let most = 0
  for (const a of all)
    for (const b of all) most = Math.max(most, count(`\n[…]\nassistant (31 December 2024): ${a} […] ${b}`))
  return most
}

function expectFull(counted: number, tokens: number, count: (text: string) => number, what: string): void {
  if (counted < 0.9 * tokens) expect(tokens - counted, what).toBeLessThan(lineTokens(count))
}

function history(kind: keyof typeof SAMPLES, turns: number, conversationId: string): MessageInput[] {
  const lines = SAMPLES[kind]
  return Array.from({ length: turns }, (_, i) => ({
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: `${lines[i % lines.length]} ${lines[(i * 3 + 1) % lines.length]}`,
    conversationId,
    timestamp: Date.UTC(2024, 0, 1 + Math.floor(i / 5)),
  }))
}

describe('token budgets', () => {
  let memory: Memory
  let run = 0
  beforeAll(async () => {
    memory = await createMemory({ name: 'token-budget' })
  })
  afterAll(() => memory?.close())

  for (const kind of Object.keys(SAMPLES) as (keyof typeof SAMPLES)[]) {
    for (const tokenizer of Object.keys(TOKENIZERS) as TokenizerName[]) {
      it(`${kind}, ${tokenizer}: the text counts within the budget and fills at least 90% of it`, async () => {
        const conversationId = `${kind}-${tokenizer}`
        await memory.add(history(kind, 120, conversationId))
        const count = TOKENIZERS[tokenizer]
        const whole = count((await memory.buildContext('', { strategy: 'full', conversationId })).text)
        for (const tokens of [60, 300, 1500]) {
          for (const strategy of ['lexical', 'tail', 'head'] as const) {
            const ctx = await memory.buildContext(`${SAMPLES[kind][1]}`, {
              budget: { tokens, tokenizer },
              strategy,
              conversationId,
              recentTurns: 2,
            })
            const counted = count(ctx.text)
            expect(ctx.stats.tokens).toEqual({ budget: tokens, used: counted, fill: counted / tokens, tokenizer })
            expect(counted).toBeLessThanOrEqual(tokens)
            // A lexical ranking of these few distinct lines can run out before the budget: then it says so.
            if (strategy === 'lexical' && ctx.stats.stoppedBy === 'exhausted') continue
            if (whole <= tokens) {
              expect(ctx.stats.stoppedBy).toBe('exhausted')
              continue
            }
            expectFull(counted, tokens, count, `${strategy} at ${tokens}: ${JSON.stringify(ctx.stats)}`)
            expect(ctx.stats.used).toBe(ctx.text.length)
          }
        }
      })
    }
  }

  it('counts content that spells a special token as the text it is', async () => {
    const conversationId = 'special'
    await memory.add({ role: 'user', content: 'Type <|endoftext|> to end it.', conversationId })
    const ctx = await memory.buildContext('end', { budget: { tokens: 50, tokenizer: 'o200k_base' }, conversationId })
    expect(ctx.text).toContain('<|endoftext|>')
    expect(ctx.stats.tokens?.used).toBe(o200k(ctx.text, plain))
  })

  it('property: for random histories and budgets, never over; at least 90% full when the history holds more', async () => {
    const turn = fc.record({
      kind: fc.constantFrom(...(Object.keys(SAMPLES) as (keyof typeof SAMPLES)[])),
      line: fc.nat(3),
      day: fc.nat(3),
    })
    await fc.assert(
      fc.asyncProperty(
        fc.array(turn, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 800 }),
        fc.constantFrom(...(Object.keys(TOKENIZERS) as TokenizerName[])),
        fc.constantFrom('lexical' as const, 'tail' as const),
        fc.nat(3),
        async (turns, tokens, tokenizer, strategy, recentTurns) => {
          const conversationId = `property-${run++}`
          await memory.add(
            turns.map((t, i) => ({
              role: i % 2 ? 'assistant' : 'user',
              content: SAMPLES[t.kind][t.line],
              conversationId,
              timestamp: Date.UTC(2024, 1, 1 + t.day),
            })),
          )
          const budget = { tokens, tokenizer }
          const ctx = await memory.buildContext('the trip', { budget, strategy, conversationId, recentTurns })
          const count = TOKENIZERS[tokenizer]
          const counted = count(ctx.text)
          expect(counted).toBe(ctx.stats.tokens?.used)
          expect(counted).toBeLessThanOrEqual(tokens)
          const whole = await memory.buildContext('', { strategy: 'full', conversationId })
          // The tail of a history larger than the budget always has more to give; a lexical ranking may run out.
          if (strategy === 'tail' && count(whole.text) > tokens) expectFull(counted, tokens, count, 'tail')
        },
      ),
      { numRuns: 60 },
    )
  })

  it('reports the tokens of a full context, which ignores the budget', async () => {
    const conversationId = 'full'
    await memory.add(history('english', 30, conversationId))
    const ctx = await memory.buildContext('', {
      strategy: 'full',
      budget: { tokens: 10, tokenizer: 'cl100k_base' },
      conversationId,
    })
    expect(ctx.stats.tokens?.used).toBe(cl100k(ctx.text, plain))
    expect(ctx.stats.tokens?.used).toBeGreaterThan(10)
  })

  it('refuses a malformed token budget with INVALID_INPUT, and an unreadable tokenizer.json with MODEL_UNAVAILABLE', async () => {
    for (const budget of [
      { tokens: 0, tokenizer: 'o200k_base' },
      { tokens: 1.5, tokenizer: 'o200k_base' },
      { tokens: 100 },
      { tokens: 100, tokenizer: 'p50k_base' },
      [100],
    ]) {
      await expect(memory.buildContext('x', { budget: budget as never })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      })
    }
    await expect(
      memory.buildContext('x', { budget: { tokens: 100, tokenizer: 'missing/tokenizer.json' } }),
    ).rejects.toMatchObject({ code: 'MODEL_UNAVAILABLE', message: expect.stringContaining('missing/tokenizer.json') })
  })
})
