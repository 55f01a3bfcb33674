import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderAnswerTable } from '../../bench/recall/multilingual/answer-report'
import { AnswerTally, answerOutcome } from '../../bench/recall/multilingual/answer-tally'
import {
  checkedConversation,
  isMultilingualSet,
  readMultilingualSet,
} from '../../bench/recall/multilingual/multilingual-set'
import { packableSentences, randomContexts } from '../../bench/recall/multilingual/random-packing'
import type { ContextItem } from '../../src/types'

const SET = 'bench/recall/multilingual/conversations'

describe('the multilingual set', () => {
  it('reads every conversation of the folder, each keeping the format', async () => {
    expect(await isMultilingualSet(SET)).toBe(true)
    expect(await isMultilingualSet('package.json')).toBe(false)
    const conversations = await readMultilingualSet(SET)
    expect(conversations.map((conversation) => conversation.id)).toEqual([
      'ar',
      'de',
      'en-es',
      'en',
      'es',
      'fr',
      'hi',
      'it',
      'ja',
      'ko',
      'ru',
      'zh-Hans',
    ])
    for (const conversation of conversations) {
      const ids = new Set(conversation.messages.map((message) => message.id))
      for (const question of conversation.questions) {
        expect(question.evidence.every((id) => ids.has(id))).toBe(true)
        const evidence = conversation.messages.filter((message) => question.evidence.includes(message.id!))
        expect(evidence.some((message) => message.content.includes(question.answer))).toBe(true)
      }
    }
  })

  it('names every rule a file breaks', async () => {
    const data = JSON.parse(await readFile(`${SET}/de.json`, 'utf8'))
    data.questions[0].answer = 'nicht im Text'
    data.questions.find((question: { kind: string }) => question.kind === 'update').stale = 'nirgends gesagt'
    data.messages[5].timestamp = '2000-01-01T00:00:00Z'
    const { problems } = checkedConversation(data)
    expect(problems).toEqual([
      'messages[5].timestamp missing or before the previous one',
      expect.stringContaining('is not verbatim in its evidence'),
      expect.stringContaining('an update needs its stale value said before the evidence'),
    ])
    expect(checkedConversation({}).problems).toContain('format must be sift-multilingual-conversation, version 1')
  })
})

describe('answerOutcome and AnswerTally', () => {
  it('counts the answer in the text, and for an update the stale value alone', () => {
    const update = { answer: 'vegan', kind: 'update' as const, stale: 'vegetarisch' }
    expect(answerOutcome(update, 'Ich bin jetzt vegan.', true)).toEqual({
      anyEvidence: 1,
      answerInContext: 1,
      staleOnly: 0,
    })
    expect(answerOutcome(update, 'Ich bin vegetarisch.', false)).toEqual({
      anyEvidence: 0,
      answerInContext: 0,
      staleOnly: 1,
    })
    const onlyInLabel = answerOutcome(
      { answer: '2 April', kind: 'direct' },
      'user (2 April 2025): Hi.\nuser: 2 May',
      true,
    )
    expect(onlyInLabel.answerInContext).toBe(0)
    expect(answerOutcome({ answer: '58分', kind: 'direct' }, '考了58分', false)).toEqual({
      anyEvidence: 0,
      answerInContext: 1,
    })
  })

  it('summarises per language, strategy, budget and kind, and renders one row each', () => {
    const tally = new AnswerTally()
    tally.record('de', 'hybrid', 2000, 'direct', { anyEvidence: 1, answerInContext: 1 })
    tally.record('de', 'hybrid', 2000, 'direct', { anyEvidence: 1, answerInContext: 0 })
    tally.record('de', 'hybrid', 2000, 'update', { anyEvidence: 0, answerInContext: 0, staleOnly: 1 })
    tally.record('de', 'random', 2000, 'direct', { anyEvidence: 0.25, answerInContext: 0.5 })
    const results = tally.results()
    expect(results.de.hybrid['2000']).toEqual({
      n: 3,
      anyEvidence: 2 / 3,
      answerInContext: 1 / 3,
      staleOnly: 1,
      byKind: {
        direct: { n: 2, anyEvidence: 1, answerInContext: 0.5 },
        update: { n: 1, anyEvidence: 0, answerInContext: 0, staleOnly: 1 },
      },
    })
    expect(results.de.random['2000'].answerInContext).toBe(0.5)
    const table = renderAnswerTable(results, 'hybrid').split('\n')
    expect(table[2]).toMatch(/^de\s+hybrid\*\s+2000\s+3\s+66\.7%\s+33\.3%\s+50\.0%\s+-\s+0\.0%\s+100\.0%$/)
    expect(table[3]).toMatch(/^de\s+random\s+2000/)
  })
})

describe('randomContexts', () => {
  const items: ContextItem[] = Array.from({ length: 40 }, (_, i) => ({
    messageId: `m${Math.floor(i / 4)}`,
    conversationId: 'c',
    seq: Math.floor(i / 4),
    role: i % 8 < 4 ? 'user' : 'assistant',
    text: `Sentence number ${i} of the history, long enough to count.`,
    score: 0,
    start: (i % 4) * 60,
    end: (i % 4) * 60 + 55,
    timestamp: Date.UTC(2025, 0, 1 + Math.floor(i / 4)),
    reason: 'position',
  }))

  it('packs shuffled sentences into the budget, the same draws for the same seed', () => {
    const sentences = packableSentences(items)
    expect(sentences[5]).toMatchObject({ sid: 5, turn: 1, index: 1, messageId: 'm1' })
    const drawn = randomContexts(sentences, 500, 5, 7)
    expect(drawn).toHaveLength(5)
    for (const context of drawn) expect(context.text.length).toBeLessThanOrEqual(500)
    expect(randomContexts(sentences, 500, 5, 7)).toEqual(drawn)
    expect(new Set(drawn.map((context) => context.text)).size).toBeGreaterThan(1)
    const everything = randomContexts(sentences, 100_000, 1, 1)[0]
    expect(everything.messageIds.size).toBe(10)
  })
})

describe('bench:recall on the multilingual set', () => {
  it('asks every question of a file and writes the per-language table and the answers in its JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sift-multilingual-bench-'))
    try {
      const jsonPath = join(dir, 'out.json')
      const run = spawnSync(
        'npx',
        [
          'tsx',
          'bench/recall/run.ts',
          ...['--data', `${SET}/de.json`, '--cache', join(dir, 'cache'), '--strategies', 'head,tail'],
          ...['--budgets', '2000', '--json', jsonPath],
        ],
        { encoding: 'utf8', timeout: 180_000 },
      )
      expect(run.stderr).toMatch(/1 conversations, 75 questions × 2 strategies × 1 budgets/)
      expect(run.status).toBe(0)
      expect(run.stdout).toMatch(/^language\s+strategy\s+budget\s+n\s+any\s+answer\s+direct\s+indirect\s+update/m)
      expect(run.stdout).toMatch(/^de\s+random\s+2000\s+75\s/m)
      const report = JSON.parse(readFileSync(jsonPath, 'utf8'))
      expect(Object.keys(report.answers.de)).toEqual(['random', 'head', 'tail'])
      expect(report.answers.de.head['2000'].byKind.direct.n).toBe(49)
      expect(report.meta.data.sha256).toMatch(/^[0-9a-f]{64}$/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses --questions with the multilingual set', () => {
    const run = spawnSync(
      'npx',
      ['tsx', 'bench/recall/run.ts', '--data', SET, '--questions', 'bench/recall/paraphrases/locomo-paraphrases.json'],
      { encoding: 'utf8', timeout: 180_000 },
    )
    expect(run.status).toBe(2)
    expect(run.stderr).toMatch(/--questions asks about LoCoMo conversations/)
  })
})
