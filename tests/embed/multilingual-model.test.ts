// A multilingual model's loading path, end to end in Node: a tiny BERT-shaped model (scripts/model/tiny-bert-model.ts,
// written to a temporary folder; the real multilingual-e5-small cannot be downloaded here) passed with the options
// docs/models.md gives multilingual-e5-small, through transformers.js and the whole engine. The model's quality is
// not what is tested: its vectors only say which tokens two texts share. What is: its q8 weights load, its WordPiece
// tokenizer reads Chinese and Russian, so `hybrid` trusts its dense ranking with them, the ranking finds the sentence
// that shares the request's words, a batch's padding stays out of the pooled vectors, and the E5 prefixes reach the
// tokenizer.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MULTILINGUAL_E5_EMBEDDING, writeTinyBertModel } from '../../scripts/model/tiny-bert-model'
import { createMemory } from '../../src/node'
import type { Context, Memory, MessageInput } from '../../src/types'
import { localEmbedder } from './local-embedder'

const modelsDir = mkdtempSync(join(tmpdir(), 'sift-tiny-bert-'))
const MODEL = 'sift-test/tiny-multilingual-e5'

const CHINESE: MessageInput[] = [
  { role: 'user', content: '我的妹妹住在上海，她是一名医生。' },
  { role: 'assistant', content: '上海是一个很大的城市。' },
  { role: 'user', content: '我每天早上喝咖啡。我的猫叫小白，它很喜欢睡觉。' },
]
const RUSSIAN: MessageInput[] = [
  { role: 'user', content: 'Моя сестра живёт в Москве и работает врачом.' },
  { role: 'assistant', content: 'Москва очень большой город.' },
  { role: 'user', content: 'Я каждое утро пью кофе. Мою собаку зовут Шарик.' },
]

beforeAll(() => writeTinyBertModel(join(modelsDir, MODEL)))
afterAll(() => rmSync(modelsDir, { recursive: true, force: true }))

const openMemory = () => createMemory({ model: MODEL, localModelPath: modelsDir, embedding: MULTILINGUAL_E5_EMBEDDING })

async function withHistory(history: MessageInput[], use: (memory: Memory) => Promise<void>): Promise<void> {
  const memory = await openMemory()
  try {
    await memory.add(history)
    await memory.indexed()
    await use(memory)
  } finally {
    await memory.close()
  }
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i], 0)

describe('a multilingual BERT model from a local folder', () => {
  it('loads with the q8 weights and embeds every stored sentence', async () => {
    await withHistory(CHINESE, async (memory) => {
      const stats = await memory.stats()
      expect(stats).toMatchObject({ model: MODEL, modelState: 'ready', pending: 0, denseIndex: { kind: 'exact' } })
      expect(stats.sentences).toBeGreaterThanOrEqual(4)
    })
  })

  for (const [language, history, request, answer] of [
    ['Chinese', CHINESE, '我的猫叫什么名字？', '我的猫叫小白，它很喜欢睡觉。'],
    ['Russian', RUSSIAN, 'Как зовут мою собаку?', 'Мою собаку зовут Шарик.'],
  ] as const) {
    it(`${language}: hybrid trusts the dense ranking in full, and dense ranks the sentence first`, async () => {
      await withHistory(history, async (memory) => {
        const denseFirst = (context: Context) => context.items.find((item) => item.ranks?.dense === 1)?.text
        const hybrid = await memory.buildContext(request, { budget: 400 })
        expect(hybrid.stats.ranking).toBe('hybrid')
        expect(hybrid.stats.denseTrust).toBeUndefined()
        expect(denseFirst(hybrid)).toBe(answer)

        const dense = await memory.buildContext(request, { strategy: 'dense', budget: 400 })
        expect(dense.stats.ranking).toBe('dense')
        expect(denseFirst(dense)).toBe(answer)
      })
    })
  }

  it('does not trust it with a script its tokenizer cannot read (Hindi), even with languages "all"', async () => {
    await withHistory([{ role: 'user', content: 'मेरी बहन दिल्ली में रहती है।' }], async (memory) => {
      const context = await memory.buildContext('मेरी बहन कहाँ रहती है?', { budget: 400 })
      expect(context.stats.denseTrust).toEqual({ weight: 0, reason: 'unknown-text' })
    })
  })

  it('reads the attention mask: a text embeds the same alone and padded in a batch', async () => {
    const embedder = localEmbedder(MODEL, modelsDir, MULTILINGUAL_E5_EMBEDDING)
    const text = '我的猫叫小白。'
    const alone = await embedder.embed([text], 'document')
    const batch = await embedder.embed([text, 'Моя сестра живёт в Москве и работает врачом, каждое утро.'], 'document')
    expect(embedder.dim).toBe(64)
    expect(dot(alone, batch.subarray(0, 64))).toBeGreaterThan(0.9999)
    await embedder.dispose()
  })

  it('gives the E5 prefixes to the tokenizer: a query and a passage of the same text differ', async () => {
    const e5 = localEmbedder(MODEL, modelsDir, MULTILINGUAL_E5_EMBEDDING)
    const plain = localEmbedder(MODEL, modelsDir, { ...MULTILINGUAL_E5_EMBEDDING, queryPrefix: '', documentPrefix: '' })
    const text = 'Мою собаку зовут Шарик.'
    const query = await e5.embed([text], 'query')
    const passage = await e5.embed([text], 'document')
    expect(dot(query, await plain.embed([`query: ${text}`], 'document'))).toBeGreaterThan(0.9999)
    expect(dot(passage, await plain.embed([`passage: ${text}`], 'document'))).toBeGreaterThan(0.9999)
    expect(dot(query, passage)).toBeLessThan(0.99)
    await Promise.all([e5.dispose(), plain.dispose()])
  })
})
