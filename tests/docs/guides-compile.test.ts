// Every ```ts and ```tsx block of README.md and docs/*.md compiles against the library's types, as an app that copies
// it would (tests/docs/doc-blocks.ts says how a block is read). A guide whose snippet uses an option or a method that
// does not exist fails here, not in a reader's editor.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { checkBlocks, type DocBlock, docBlocks, root } from './doc-blocks'

const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs')).flatMap((name) => (name.endsWith('.md') ? [`docs/${name}`] : [])),
]
const blocks = pages.flatMap((page) => docBlocks(page, readFileSync(join(root, page), 'utf8')))

// Two pages no guide has, checked in the same program, to show what the check catches and how it reads the comments.
const wrong = docBlocks(
  'tests/docs/wrong.md',
  [
    'Text.',
    '',
    '```ts',
    "import { createMemory } from 'sift-memory'",
    "import { siftMemory } from 'sift-memory/ai'",
    '',
    "const memory = await createMemory({ nam: 'chat' })",
    "await memory.buildContxt('Which dog?', { budget: 4000 })",
    'siftMemory(memory, { recentTurn: 6 })',
    '```',
  ].join('\n'),
)
const marked = docBlocks(
  'tests/docs/marked.md',
  [
    '<!-- file: src/chat-turn.ts -->',
    '```ts',
    'export const turn = 1',
    '```',
    '<!-- not-checked: a shape, not code -->',
    '',
    '```ts',
    '{ format, … }',
    '```',
    '```tsx',
    "import { turn } from './chat-turn'",
    'export const view = <p>{turn}</p>',
    '```',
  ].join('\n'),
)

let errors: Map<DocBlock, string[]>
// One program for every block: the library's sources are read and checked once.
beforeAll(() => {
  errors = checkBlocks([...blocks, ...wrong, ...marked])
})

describe('the guides’ TypeScript blocks', () => {
  it.each(
    blocks.filter((block) => block.notChecked === undefined).map((block) => [`${block.page}:${block.line}`, block]),
  )('%s compiles', (_, block) => {
    expect(errors.get(block as DocBlock)).toEqual([])
  })

  it('leave out only blocks that say why', () => {
    const left = blocks.filter((block) => block.notChecked !== undefined)
    for (const block of left) console.log(`[guides] not checked: ${block.page}:${block.line}: ${block.notChecked}`)
    expect(blocks.length - left.length).toBeGreaterThanOrEqual(13)
  })
})

describe('the check itself', () => {
  it('fails a block that misspells an option or calls a method that does not exist, at the guide’s line', () => {
    const found = errors.get(wrong[0])
    expect(found).toHaveLength(3)
    expect(found?.[0]).toMatch(/^tests\/docs\/wrong\.md:7: .*'nam' does not exist in type 'MemoryOptions'/)
    expect(found?.[1]).toMatch(/^tests\/docs\/wrong\.md:8: Property 'buildContxt' does not exist on type 'Memory'/)
    expect(found?.[2]).toMatch(/^tests\/docs\/wrong\.md:9: .*'recentTurn' does not exist in type 'SiftMemoryOptions'/)
  })

  it('reads the comments before a block: its module name, or why it is not checked', () => {
    expect(marked.map(({ line, lang, file, notChecked }) => ({ line, lang, file, notChecked }))).toEqual([
      { line: 2, lang: 'ts', file: 'src/chat-turn.ts', notChecked: undefined },
      { line: 7, lang: 'ts', file: 'src/block-7.ts', notChecked: 'a shape, not code' },
      { line: 10, lang: 'tsx', file: 'src/block-10.tsx', notChecked: undefined },
    ])
    expect(marked.map((block) => errors.get(block))).toEqual([[], undefined, []])
    expect(() => docBlocks('tests/docs/marked.md', '<!-- not-checked: -->\n```ts\n{}\n```')).toThrow(/needs its reason/)
  })
})
