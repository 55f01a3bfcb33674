import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_BUDGETS, DEFAULT_STRATEGIES, parseBenchRecallArgs, readTuning } from '../../bench/recall/recall-args'
import { UsageError } from '../../tools/context-cli/context-args'

describe('parseBenchRecallArgs', () => {
  it('defaults to 2000,8000 × head,tail,lexical,dense,hybrid', () => {
    expect(parseBenchRecallArgs(['--data', 'd.json'])).toEqual({
      data: 'd.json',
      budgets: DEFAULT_BUDGETS,
      strategies: DEFAULT_STRATEGIES,
      images: 'caption',
      adaptiveStop: false,
      followUpdates: true,
      digest: false,
    })
    expect(parseBenchRecallArgs(['--data', 'd.json', '--no-follow-updates']).followUpdates).toBe(false)
    expect(DEFAULT_BUDGETS).toEqual([2000, 8000])
    expect(DEFAULT_STRATEGIES).toEqual(['head', 'tail', 'lexical', 'dense', 'hybrid'])
  })

  it('reads lists, limits and outputs; strategies are passed through for the engine to judge', () => {
    expect(
      parseBenchRecallArgs([
        '--data',
        'd',
        '--budgets',
        '500, 4000,500',
        '--strategies',
        'hybrid,anything-new',
        '--json',
        'o.json',
        '--misses',
        'm.jsonl',
        '--limit-conversations',
        '2',
        '--limit-questions',
        '7',
        '--cache',
        'c',
        '--images',
        'omit',
        '--adaptive-stop',
        '--follow-updates',
        '--digest',
      ]),
    ).toEqual({
      data: 'd',
      budgets: [500, 4000],
      strategies: ['hybrid', 'anything-new'],
      json: 'o.json',
      misses: 'm.jsonl',
      limitConversations: 2,
      limitQuestions: 7,
      cache: 'c',
      images: 'omit',
      adaptiveStop: true,
      followUpdates: true,
      digest: true,
    })
  })

  it('reads the options that give every context pins, recent turns, a heading or a token budget', () => {
    const argv = [
      '--data',
      'd',
      '--pins',
      '2',
      '--recent-turns',
      '4',
      '--exclude-recent',
      '0',
      '--tokenizer',
      'o200k_base',
    ]
    expect(parseBenchRecallArgs([...argv, '--heading', 'Memory:'])).toMatchObject({
      pins: 2,
      recentTurns: 4,
      excludeRecent: 0,
      tokenizer: 'o200k_base',
      heading: 'Memory:',
    })
    expect(() => parseBenchRecallArgs(['--data', 'd', '--recent-turns', '1.5'])).toThrow(
      /--recent-turns must be a whole/,
    )
  })

  it.each([
    [[], /--data FILE is required/],
    [['--data', 'd', '--budgets', '2000,,8000'], /--budgets must be a comma-separated list/],
    [['--data', 'd', '--budgets', '2k'], /--budgets must be a positive whole number/],
    [['--data', 'd', '--limit-conversations', '0'], /--limit-conversations must be a positive whole number/],
    [['--data', 'd', '--strategies', ''], /--strategies must be a comma-separated list/],
    [['--data', 'd', '--budget', '5'], /Unknown option '--budget'/],
    [['--data', 'd', '--images', 'alt-text'], /--images must be caption or omit/],
    [['--data', 'd', '--tune', 'replyLeads='], /--tune takes NAME=VALUE with a number, true or false/],
    [['--data', 'd', '--tune', 'continuation=off'], /--tune takes NAME=VALUE/],
    [['--data', 'd', '--tune', '=3'], /--tune takes NAME=VALUE/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseBenchRecallArgs(argv)).toThrow(UsageError)
    expect(() => parseBenchRecallArgs(argv)).toThrow(message)
  })

  it('reads --tune NAME=VALUE and --tune FILE.json, repeatable, in the order given', async () => {
    const args = parseBenchRecallArgs([
      '--data',
      'd',
      '--tune',
      'replyLeads=0',
      '--tune',
      join(dir, 'tune.json'),
      '--tune',
      'continuation=false',
    ])
    expect(args.tune).toEqual([
      { name: 'replyLeads', value: 0 },
      { file: join(dir, 'tune.json') },
      { name: 'continuation', value: false },
    ])
    writeFileSync(join(dir, 'tune.json'), JSON.stringify({ replyLeads: 2, leadBudget: 1e9 }))
    expect(await readTuning(args.tune!)).toEqual({ replyLeads: 2, leadBudget: 1e9, continuation: false })
    writeFileSync(join(dir, 'bad-tune.json'), JSON.stringify({ replyLeads: 'two' }))
    await expect(readTuning([{ file: join(dir, 'bad-tune.json') }])).rejects.toThrow(/replyLeads must be a number/)
    await expect(readTuning([{ file: join(dir, 'missing.json') }])).rejects.toThrow(UsageError)
  })
})

const ROOT = join(import.meta.dirname, '..', '..')
const MODEL = join(ROOT, 'public', 'models', 'use-lite', 'onnx', 'model.onnx')
const ENGINE = join(ROOT, 'src', 'node.ts')
const dir = mkdtempSync(join(tmpdir(), 'sift-bench-recall-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const TOPICS = [
  'river walks',
  'warm weather',
  'a software release',
  'lentil soup',
  'a concert',
  'an Arctic novel',
  'weeding',
  'green paint',
]
const session = (n: number, special: Record<number, string>) =>
  Array.from({ length: 10 }, (_, i) => ({
    speaker: i % 2 ? 'Bob' : 'Ann',
    dia_id: `D${n}:${i + 1}`,
    text:
      special[i + 1] ??
      `Today I mostly thought about ${TOPICS[(i + n) % TOPICS.length]}, nothing more to add (${n}.${i + 1}).`,
  }))
const dataPath = join(dir, 'mini-locomo.json')
writeFileSync(
  dataPath,
  JSON.stringify([
    {
      sample_id: 'mini',
      conversation: {
        speaker_a: 'Ann',
        speaker_b: 'Bob',
        session_1_date_time: '1:56 pm on 8 May, 2023',
        session_1: session(1, { 2: 'Our new puppy is called Biscuit.' }),
        session_2_date_time: '2:00 pm on 20 May, 2023',
        session_2: session(2, { 5: 'I finally booked the flight to Lisbon for July.' }),
      },
      qa: [
        { question: 'What is the name of the puppy?', answer: 'Biscuit', evidence: ['D1:2'], category: 4 },
        { question: 'Where is the flight booked to?', answer: 'Lisbon', evidence: ['D2:5'], category: 2 },
        { question: 'Which two things were planned?', answer: 'puppy, flight', evidence: ['D1:2; D2:5'], category: 1 },
        { question: 'What was the broken one?', answer: 'x', evidence: ['D'], category: 4 },
        { question: 'What did Bob never say?', adversarial_answer: 'y', evidence: ['D1:3'], category: 5 },
      ],
    },
  ]),
)

/** `npm run bench:recall` on the small data file, with the test's embedding cache and `options`. */
const benchRecall = (...options: string[]) =>
  spawnSync('npx', ['tsx', 'bench/recall/run.ts', '--data', dataPath, '--cache', join(dir, 'cache'), ...options], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 180_000,
    env: { ...process.env, npm_config_loglevel: 'error' },
  })

describe.skipIf(!existsSync(ENGINE) || !existsSync(MODEL))('npm run bench:recall', () => {
  it('scores head and tail against known evidence positions, writes the JSON report and the misses', () => {
    const jsonPath = join(dir, 'out', 'recall.json')
    const missesPath = join(dir, 'out', 'misses.jsonl')
    const run = benchRecall(
      '--budgets',
      '250,100000',
      '--strategies',
      'head,tail,lexical',
      '--json',
      jsonPath,
      '--misses',
      missesPath,
    )
    expect(run.stderr).toMatch(/1 conversations, 3 questions × 3 strategies × 2 budgets/)
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/^strategy\s+budget\s+any\s+all/)

    const report = JSON.parse(readFileSync(jsonPath, 'utf8'))
    expect(Object.keys(report).sort()).toEqual(['default', 'head', 'lexical', 'meta', 'tail'])
    expect(report.default).toBe('hybrid')
    // Everything fits in 100,000 characters: head and tail hold all evidence.
    for (const strategy of ['head', 'tail'])
      expect(report[strategy]['100000']).toMatchObject({ anyEvidence: 1, allEvidence: 1, n: 3 })
    // 250 characters hold the first (head) or last (tail) two or three turns only.
    expect(report.head['250']).toMatchObject({ anyEvidence: 2 / 3, allEvidence: 1 / 3, n: 3 })
    expect(report.head['250'].byCategory).toEqual({
      'multi-hop': { anyEvidence: 1, allEvidence: 0, n: 1 },
      temporal: { anyEvidence: 0, allEvidence: 0, n: 1 },
      'single-hop': { anyEvidence: 1, allEvidence: 1, n: 1 },
    })
    expect(report.tail['250']).toMatchObject({ anyEvidence: 0, allEvidence: 0 })
    expect(report.lexical['250'].byCategory['single-hop'].anyEvidence).toBe(1)
    expect(report.head['250'].meanChars).toBeLessThanOrEqual(250)
    expect(report.head['250'].meanFill).toBeCloseTo(report.head['250'].meanChars / 250, 10)
    expect(report.meta).toMatchObject({ data: { conversations: 1, questions: 3, answerableWithoutEvidence: 1 } })
    expect(report.meta.full.meanHistoryChars).toBeGreaterThan(1000)
    expect(report.meta.commit).toMatch(/^[0-9a-f]{40}$/)
    expect(report.meta.tuning.changed).toEqual({})
    expect(report.meta.tuning.values).toMatchObject({ replyLeads: 3, continuation: true, turnShare: 0.5 })

    const misses = readFileSync(missesPath, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line))
    const flight = misses.find((miss) => miss.question === 'Where is the flight booked to?')
    expect(flight).toMatchObject({ conversationId: 'mini', category: 2, evidence: ['D2:5'] })
    expect(flight.missed).toContainEqual({ strategy: 'head', budget: 250, found: [] })
    expect(flight.missed).not.toContainEqual(expect.objectContaining({ budget: 100000, strategy: 'head' }))
    const multi = misses.find((miss) => miss.category === 1)
    expect(multi.missed).toContainEqual({ strategy: 'head', budget: 250, found: ['D1:2'] })
    expect(misses.some((miss) => miss.category === 5)).toBe(false)
  })

  it('runs with --tune and records it in the report; an unknown tuning name exits with 2 before any work', () => {
    const jsonPath = join(dir, 'out', 'tuned.json')
    const bench = (...tune: string[]) =>
      benchRecall(
        '--budgets',
        '250',
        '--strategies',
        'lexical',
        '--json',
        jsonPath,
        ...tune.flatMap((option) => ['--tune', option]),
      )
    const tuned = bench('turnShare=0', 'repeatsLast=false')
    expect(tuned.status).toBe(0)
    expect(tuned.stderr).toMatch(/tuning: turnShare=0, repeatsLast=false/)
    const report = JSON.parse(readFileSync(jsonPath, 'utf8'))
    expect(report.meta.tuning.changed).toEqual({ turnShare: 0, repeatsLast: false })
    expect(report.meta.tuning.values).toMatchObject({ turnShare: 0, repeatsLast: false, replyLeads: 3 })
    const misspelt = bench('replyLead=0')
    expect(misspelt.status).toBe(2)
    expect(misspelt.stderr).toMatch(/tuning has no constant named "replyLead"/)
    expect(misspelt.stderr).not.toMatch(/questions, .* s\n/)
  })

  it('exits with 2 and the usage line when the engine rejects a strategy name', () => {
    const run = spawnSync(
      'npx',
      ['tsx', 'bench/recall/run.ts', '--data', dataPath, '--strategies', 'psychic', '--cache', join(dir, 'cache')],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 180_000,
      },
    )
    expect(run.status).toBe(2)
    expect(run.stderr.trimEnd().split('\n').at(-1)).toMatch(/^usage: npm run bench:recall/)
  })
})
