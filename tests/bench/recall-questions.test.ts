import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseBenchRecallArgs } from '../../bench/recall/recall-args'
import type { LoadedConversation } from '../../tools/locomo/locomo-format'
import {
  readQuestionSet,
  sharedContentTerms,
  withQuestionSet,
  type QuestionSetEntry,
} from '../../bench/recall/recall-questions'

const conversation = (id: string, turns: string[]): LoadedConversation => ({
  id,
  messages: turns.map((content, i) => ({
    id: `D1:${i + 1}`,
    role: i % 2 ? 'Bob' : 'Ann',
    content,
    conversationId: id,
  })),
  questions: [{ question: 'Original?', answer: 'a', category: 4, evidence: ['D1:1'], rawEvidence: ['D1:1'] }],
})

describe('sharedContentTerms', () => {
  const evidence = ['I just signed up for a pottery class yesterday, Bob!', 'We should collaborate on the mural.']
  it.each([
    ['When did Ann enrol in ceramics lessons?', []],
    ['When did Ann sign up for a pottery class?', ['sign', 'pottery', 'class']],
    ['Who wants a collaboration with Ann?', ['collaboration']],
    ['When did Bob hear about the lessons?', []],
  ])('%j shares %j', (question, shared) => {
    expect(sharedContentTerms(question, evidence, ['Ann', 'Bob'])).toEqual(shared)
  })
  it('counts the speakers’ names unless they are allowed', () => {
    expect(sharedContentTerms('When did Bob hear about it?', evidence)).toEqual(['bob'])
  })
})

describe('withQuestionSet', () => {
  const data = [conversation('c1', ['Pottery class!', 'Nice.']), conversation('c2', ['Hiking today.', 'Fun.'])]
  const entry = (over: Partial<QuestionSetEntry>): QuestionSetEntry => ({
    conversation: 'c1',
    category: 2,
    question: 'When?',
    evidence: ['D1:1'],
    ...over,
  })

  it('replaces each conversation’s questions by the set’s, drops the others, and skips questions about absent conversations', () => {
    const asked = withQuestionSet(data, [
      entry({}),
      entry({ question: 'Who?', evidence: ['D1:2'] }),
      entry({ conversation: 'c9' }),
    ])
    expect(asked.map((c) => c.id)).toEqual(['c1'])
    expect(asked[0].questions.map((q) => [q.question, q.category, q.evidence])).toEqual([
      ['When?', 2, ['D1:1']],
      ['Who?', 2, ['D1:2']],
    ])
    expect(asked[0].messages).toBe(data[0].messages)
  })

  it('refuses an evidence turn the conversation lacks, and a set with nothing to ask', () => {
    expect(() => withQuestionSet(data, [entry({ evidence: ['D7:1'] })])).toThrow(/questions\[0\] names evidence D7:1/)
    expect(() => withQuestionSet(data, [entry({ conversation: 'c9' })])).toThrow(/none of its questions/)
  })
})

describe('readQuestionSet and --questions', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sift-question-set-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('reads a set, and refuses another format or an entry without evidence', async () => {
    const good = join(dir, 'good.json')
    writeFileSync(
      good,
      JSON.stringify({
        format: 'sift-recall-questions',
        version: 1,
        questions: [{ conversation: 'c1', category: 4, question: 'Q?', evidence: ['D1:1'] }],
      }),
    )
    expect(await readQuestionSet(good)).toEqual([
      { conversation: 'c1', category: 4, question: 'Q?', evidence: ['D1:1'] },
    ])
    const other = join(dir, 'other.json')
    writeFileSync(other, JSON.stringify([{ question: 'Q?' }]))
    await expect(readQuestionSet(other)).rejects.toThrow(/is not a question set/)
    const empty = join(dir, 'empty.json')
    writeFileSync(
      empty,
      JSON.stringify({
        format: 'sift-recall-questions',
        version: 1,
        questions: [{ conversation: 'c1', category: 4, question: 'Q?', evidence: [] }],
      }),
    )
    await expect(readQuestionSet(empty)).rejects.toThrow(/questions\[0\] needs/)
  })

  it('is passed to the benchmark with --questions', () => {
    expect(parseBenchRecallArgs(['--data', 'd.json', '--questions', 'q.json']).questions).toBe('q.json')
    expect(parseBenchRecallArgs(['--data', 'd.json'])).not.toHaveProperty('questions')
  })
})
