// The demo's file loader: which layout a file is, and the messages it yields for `memory.import`.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { readHistoryFile, splitLongMessage } from '../../demo/history-files'
import { readHistory } from '../../tools/locomo/locomo'
import { parseHistory, qualifiedConversation, qualifiedMessages } from '../../tools/locomo/locomo-format'

const locomo = {
  sample_id: 'conv-x',
  conversation: {
    speaker_a: 'Ann',
    speaker_b: 'Bo',
    session_2_date_time: 'no date here',
    session_1_date_time: '1:56 pm on 8 May, 2023',
    session_2: [{ speaker: 'Bo', dia_id: 'D2:1', text: 'Later, undated.' }],
    session_1: [
      { speaker: 'Ann', dia_id: 'D1:1', text: 'Hello.' },
      { speaker: 'Bo', dia_id: 'D1:2', text: 'Look.', blip_caption: 'a photo of a dog' },
    ],
  },
  qa: [],
}

function chat(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Trip\u0007 plans',
    create_time: 1_700_000_000,
    current_node: 'a2',
    mapping: {
      root: {
        parent: null,
        message: { id: 'sys', author: { role: 'system' }, content: { parts: ['You are helpful.'] } },
      },
      u1: {
        parent: 'root',
        message: {
          id: 'u1',
          author: { role: 'user' },
          create_time: 1_700_000_010,
          content: { parts: ['Where to go?', { image: true }] },
        },
      },
      a1: {
        parent: 'u1',
        message: {
          id: 'a1',
          author: { role: 'assistant' },
          create_time: 1_700_000_020,
          content: { parts: ['Old branch.'] },
        },
      },
      hidden: {
        parent: 'u1',
        message: {
          id: 'h',
          author: { role: 'assistant' },
          content: { parts: ['Hidden.'] },
          metadata: { is_visually_hidden_from_conversation: true },
        },
      },
      a2: {
        parent: 'hidden',
        message: { id: 'a2', author: { role: 'assistant' }, content: { parts: ['Go to Ghent.'] } },
      },
    },
    ...overrides,
  }
}

describe('readHistoryFile', () => {
  it('reads LoCoMo samples: speakers as roles, qualified dia_ids, session dates plus a second per turn, captions kept', () => {
    const file = readHistoryFile(JSON.stringify([locomo]))
    expect(file.kind).toBe('conversations')
    if (file.kind !== 'conversations') return
    expect(file.format).toBe('locomo')
    const [conversation] = file.conversations
    expect(conversation.title).toBe('conv-x: Ann & Bo (3 turns)')
    const start = Date.UTC(2023, 4, 8, 13, 56)
    expect(conversation.messages).toEqual([
      { id: 'conv-x/D1:1', conversationId: 'conv-x', role: 'Ann', content: 'Hello.', timestamp: start },
      {
        id: 'conv-x/D1:2',
        conversationId: 'conv-x',
        role: 'Bo',
        content: 'Look. [shared a photo of a dog]',
        timestamp: start + 1000,
      },
      { id: 'conv-x/D2:1', conversationId: 'conv-x', role: 'Bo', content: 'Later, undated.', timestamp: start + 2000 },
    ])
    // A single sample object is read the same way.
    expect(readHistoryFile(JSON.stringify(locomo))).toEqual(file)
  })

  it('reads a LoCoMo sample as the benchmark does where the demo once differed: its id, dates, turns without text', () => {
    const sample = {
      conversation: {
        session_1_date_time: '8 May 2023',
        session_1: [
          { speaker: 'Ann', text: 'Hello.' },
          { speaker: 'Bo', blip_caption: 'a photo of a dog' },
          'not a turn',
          { dia_id: 'D1:4', text: 'Who?' },
        ],
      },
    }
    const file = readHistoryFile(JSON.stringify(sample))
    if (file.kind !== 'conversations') throw new Error(`expected conversations, got ${file.kind}`)
    const start = Date.UTC(2023, 4, 8)
    const benchmark = parseHistory(sample).conversations[0]
    expect(file.conversations).toEqual([{ title: 'sample-1 (3 turns)', messages: qualifiedConversation(benchmark) }])
    expect(file.conversations[0].messages).toEqual([
      { id: 'sample-1/D1:1', conversationId: 'sample-1', role: 'Ann', content: 'Hello.', timestamp: start },
      {
        id: 'sample-1/D1:2',
        conversationId: 'sample-1',
        role: 'Bo',
        content: ' [shared a photo of a dog]',
        timestamp: start + 1000,
      },
      { id: 'sample-1/D1:4', conversationId: 'sample-1', role: 'speaker', content: 'Who?', timestamp: start + 3000 },
    ])
  })

  it('reads a ChatGPT chat as the branch ending at current_node, visible user and assistant text only', () => {
    const file = readHistoryFile(
      JSON.stringify([
        chat(),
        chat({ title: 'Empty', mapping: { x: { parent: null, message: null } }, current_node: 'x' }),
      ]),
    )
    expect(file.kind === 'conversations' && file.format).toBe('chatgpt')
    if (file.kind !== 'conversations') return
    expect(file.conversations).toHaveLength(1)
    const conversationId = 'Trip  plans · 2023-11-14'
    expect(file.conversations[0].title).toBe(`${conversationId} (2 turns)`)
    expect(file.conversations[0].messages).toEqual([
      { id: 'u1', conversationId, role: 'user', content: 'Where to go?', timestamp: 1_700_000_010_000 },
      { id: 'a2', conversationId, role: 'assistant', content: 'Go to Ghent.', timestamp: 1_700_000_010_000 },
    ])
    // Without current_node, the branch is the one that ends in a leaf.
    const leaf = readHistoryFile(
      JSON.stringify([chat({ current_node: undefined, mapping: { ...chat().mapping, a1: undefined } })]),
    )
    expect(leaf.kind === 'conversations' && leaf.conversations[0].messages.map((message) => message.id)).toEqual([
      'u1',
      'a2',
    ])
  })

  it('passes plain message arrays and Sift exports to import as they are', () => {
    const messages = [{ role: 'user', content: 'Hi' }]
    expect(readHistoryFile(JSON.stringify(messages))).toEqual({
      kind: 'importable',
      format: 'messages',
      data: messages,
      messages: 1,
    })
    const exported = {
      format: 'sift-memory',
      version: 1,
      exportedAt: '2026-01-01T00:00:00Z',
      messages: [{ id: 'a', conversationId: 'default', role: 'user', content: 'x', timestamp: 0 }],
    }
    expect(readHistoryFile(JSON.stringify(exported))).toEqual({
      kind: 'importable',
      format: 'sift-export',
      data: exported,
      messages: 1,
    })
  })

  it('refuses what it cannot read, saying what a file should be', () => {
    expect(() => readHistoryFile('{ nope')).toThrow(/not JSON/)
    for (const data of [[], {}, [{ role: 'user' }], 'text', [{ mapping: { x: { parent: null, message: null } } }]]) {
      expect(() => readHistoryFile(JSON.stringify(data))).toThrow(/LoCoMo|ChatGPT/)
    }
  })
})

describe('splitLongMessage', () => {
  it('cuts a message over the limit at whitespace into parts with derived ids, keeping every character', () => {
    const content = 'word '.repeat(50)
    const parts = splitLongMessage({ id: 'm', role: 'user', content, timestamp: 5 }, 32)
    expect(parts.map((part) => part.content).join('')).toBe(content)
    expect(parts.every((part) => part.content.length <= 32)).toBe(true)
    expect(parts.map((part) => part.id)).toEqual(['m', ...parts.slice(1).map((_, index) => `m#${index + 2}`)])
    expect(parts.every((part) => part.content.endsWith(' ') || part === parts.at(-1))).toBe(true)
    expect(splitLongMessage({ id: 'x'.repeat(1), role: 'user', content: 'short' }, 32)).toHaveLength(1)
    expect(
      splitLongMessage({ id: 'y', role: 'user', content: 'z'.repeat(70) }, 32).map((part) => part.content.length),
    ).toEqual([32, 32, 6])
  })
})

// The project's benchmark data sits beside the checkout (../shared), here and in CI.
const LOCOMO = fileURLToPath(new URL('../../../shared/data/locomo10.json', import.meta.url))

describe.skipIf(!existsSync(LOCOMO))('the LoCoMo file', () => {
  it('loads as the benchmark loads it: the same turns, roles, ids and timestamps, ids unique across samples', async () => {
    const file = readHistoryFile(await readFile(LOCOMO, 'utf8'))
    if (file.kind !== 'conversations') throw new Error(`expected conversations, got ${file.kind}`)
    const benchmark = qualifiedMessages((await readHistory(LOCOMO)).conversations)
    const demo = file.conversations.flatMap((conversation) => conversation.messages)
    expect(demo).toEqual(benchmark)
    expect(new Set(demo.map((message) => message.id)).size).toBe(demo.length)
  })
})
