import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { UsageError, parseContextArgs } from '../../tools/context-cli/context-args'

describe('parseContextArgs', () => {
  it('reads every option', () => {
    expect(
      parseContextArgs([
        '--history',
        'h.json',
        '--request',
        'where?',
        '--budget',
        '500',
        '--strategy',
        'lexical',
        '--conversation',
        'c1',
        '--json',
        '--cache',
        'd',
      ]),
    ).toEqual({
      history: 'h.json',
      request: 'where?',
      budget: 500,
      strategy: 'lexical',
      conversation: 'c1',
      json: true,
      cache: 'd',
    })
    expect(parseContextArgs(['--history=h.json', '--request=x'])).toEqual({
      history: 'h.json',
      request: 'x',
      json: false,
    })
  })

  it.each([
    [[], /--history FILE is required/],
    [['--history', 'h.json'], /--request "TEXT" is required/],
    [['--history', 'h.json', '--request', '  '], /--request "TEXT" is required/],
    [['--history', 'h.json', '--request', 'x', '--budget', '0'], /--budget must be a positive whole number, got "0"/],
    [['--history', 'h.json', '--request', 'x', '--budget', '1.5'], /--budget must be a positive whole number/],
    [['--history', 'h.json', '--request', 'x', '--budget', 'lots'], /--budget must be a positive whole number/],
    [['--history', 'h.json', '--request', 'x', '--strategy', ''], /--strategy must not be empty/],
    [['--history', 'h.json', '--request', 'x', '--colour', 'red'], /Unknown option '--colour'/],
    [['--history', 'h.json', '--request', 'x', 'stray'], /positional argument/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseContextArgs(argv)).toThrow(UsageError)
    expect(() => parseContextArgs(argv)).toThrow(message)
  })
})

const MODEL = join(import.meta.dirname, '..', '..', 'public', 'models', 'use-lite', 'onnx', 'model.onnx')
const ENGINE = join(import.meta.dirname, '..', '..', 'src', 'node.ts')
const dir = mkdtempSync(join(tmpdir(), 'sift-context-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Filler turns about everyday things, so the answer has to be found, not just included. */
const FILLER = [
  'I went for a long walk along the river this morning.',
  'The weather has been surprisingly warm for the season.',
  'Work was busy, we shipped the new release on Friday.',
  'I tried a new recipe for lentil soup and it turned out well.',
  'My sister is visiting next month, we plan to see a concert.',
  'I have been reading a novel about sailors in the Arctic.',
  'The garden needs weeding but I keep putting it off.',
  'We repainted the kitchen a pale shade of green.',
]
const SECRET = 'Our new puppy is called Biscuit and she loves chasing tennis balls.'

function turns(speakers: [string, string], session: number, count: number, secretAt: number) {
  return Array.from({ length: count }, (_, i) => ({
    speaker: speakers[i % 2],
    dia_id: `D${session}:${i + 1}`,
    text: i === secretAt ? SECRET : `${FILLER[(i + session) % FILLER.length]} (${session}.${i})`,
  }))
}

const locomoPath = join(dir, 'locomo.json')
writeFileSync(
  locomoPath,
  JSON.stringify([
    {
      sample_id: 'c1',
      conversation: {
        speaker_a: 'Ann',
        speaker_b: 'Bob',
        session_1_date_time: '1:56 pm on 8 May, 2023',
        session_1: turns(['Ann', 'Bob'], 1, 12, 5),
        session_2_date_time: '10:00 am on 9 May, 2023',
        session_2: turns(['Ann', 'Bob'], 2, 12, -1),
      },
      qa: [{ question: "What is the puppy's name?", answer: 'Biscuit', evidence: ['D1:6'], category: 4 }],
    },
    {
      sample_id: 'c2',
      conversation: {
        speaker_a: 'Cy',
        speaker_b: 'Di',
        session_1_date_time: '9:00 am on 1 June, 2023',
        session_1: turns(['Cy', 'Di'], 1, 12, 3),
      },
      qa: [],
    },
  ]),
)
const plainPath = join(dir, 'plain.json')
writeFileSync(
  plainPath,
  JSON.stringify([
    ...FILLER.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content })),
    { role: 'user', content: SECRET, id: 'secret' },
    ...FILLER.map((content, i) => ({ role: i % 2 ? 'user' : 'assistant', content: `Again: ${content}` })),
  ]),
)

function cli(...args: string[]) {
  const result = spawnSync('npx', ['tsx', 'tools/context-cli/context.ts', ...args], {
    cwd: join(import.meta.dirname, '..', '..'),
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, npm_config_loglevel: 'error' },
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('npm run context: usage errors', () => {
  it.each([
    [['--request', 'x'], /--history FILE is required/],
    [['--history', locomoPath], /--request "TEXT" is required/],
    [['--history', locomoPath, '--request', 'x', '--budget', '-3'], /--budget/],
    [['--history', join(dir, 'missing.json'), '--request', 'x'], /cannot read --history: ENOENT/],
    [
      ['--history', locomoPath, '--request', 'x', '--conversation', 'c9'],
      /--conversation c9 is not in .*; it has: c1, c2/,
    ],
  ])('%j exits with 2, the problem and one usage line', (args, message) => {
    const { code, stdout, stderr } = cli(...args)
    expect(code).toBe(2)
    expect(stdout).toBe('')
    const lines = stderr.trimEnd().split('\n')
    expect(lines.slice(-2)[0]).toMatch(message)
    expect(lines.at(-1)).toMatch(/^usage: npm run context -- --history FILE --request "TEXT"/)
  })
})

describe.skipIf(!existsSync(ENGINE) || !existsSync(MODEL))('npm run context: building a context', () => {
  it('finds the relevant turn of a LoCoMo conversation within the budget and prints JSON', () => {
    const { code, stdout, stderr } = cli(
      '--history',
      locomoPath,
      '--request',
      "What is the puppy's name?",
      '--budget',
      '300',
      '--conversation',
      'c1',
      '--json',
    )
    expect(stderr).toMatch(/^context: \d+\/300 chars/m)
    expect(code).toBe(0)
    const context = JSON.parse(stdout)
    expect(Object.keys(context).sort()).toEqual(['items', 'sections', 'stats', 'text'])
    expect(context.stats).toMatchObject({ budget: 300, strategy: 'hybrid' })
    expect(context.stats.used).toBe(context.text.length)
    expect(context.stats.used).toBeLessThanOrEqual(300)
    expect(context.items.every((item: { conversationId: string }) => item.conversationId === 'c1')).toBe(true)
    expect(context.items.map((item: { messageId: string }) => item.messageId)).toContain('D1:6')
    expect(context.text).toContain('Biscuit')
  })

  it('prints plain text for a message list, honouring --strategy', () => {
    const lexical = cli(
      '--history',
      plainPath,
      '--request',
      'puppy Biscuit',
      '--budget',
      '200',
      '--strategy',
      'lexical',
    )
    expect(lexical.code).toBe(0)
    expect(lexical.stdout).toContain(SECRET)
    expect(lexical.stdout.length).toBeLessThanOrEqual(201)
    expect(lexical.stderr).toMatch(/strategy lexical/)
    const head = cli('--history', plainPath, '--request', 'puppy Biscuit', '--budget', '200', '--strategy', 'head')
    expect(head.code).toBe(0)
    expect(head.stdout).toContain(FILLER[0])
    expect(head.stdout).not.toContain('Biscuit')
  })

  it('rejects a strategy the engine does not know with exit code 2', () => {
    const { code, stderr } = cli('--history', plainPath, '--request', 'x', '--strategy', 'psychic')
    expect(code).toBe(2)
    expect(stderr.trimEnd().split('\n').at(-1)).toMatch(/^usage: /)
  })
})
