// Contexts for histories in other languages, through the Node entry with the shipped (English) model: the request's
// language, how far the dense ranking is trusted with it, and the sentences its words find.
import { IDBFactory } from 'fake-indexeddb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemory, type Memory } from '../../src/node'

const histories = {
  zh: [
    '你好！我上个月在七宝买了一套老房子，打算全部翻新。',
    '恭喜你！老房子翻新一般需要三到四个月。',
    '我们找的装修公司叫匠心居装饰，报价是十六万八。',
    '这个价格在上海算合理的，记得签合同前看清楚付款节点。',
  ],
  de: [
    'Gestern war der Notartermin, jetzt gehört mir eine Altbauwohnung im Stühlinger.',
    'Herzlichen Glückwunsch zur Wohnung! Eine Renovierung braucht einen guten Plan.',
    'Mein Bruder Stefan lebt mit seiner Familie in Hamburg.',
    'Dann kann er dir beim Umzug vielleicht nicht helfen.',
  ],
  en: [
    'I signed up for the Great North Run in September.',
    'That is exciting! Half marathon training usually takes twelve weeks.',
    'My son Oscar was diagnosed with a peanut allergy last week.',
    'I am sorry to hear that; an allergy plan for school will help.',
  ],
}

let memory: Memory
beforeAll(async () => {
  memory = await createMemory({ name: 'languages', indexedDB: new IDBFactory() })
  for (const [conversationId, turns] of Object.entries(histories))
    await memory.add(
      turns.map((content, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        content,
        conversationId,
        id: `${conversationId}${i}`,
      })),
    )
  await memory.indexed()
})
afterAll(() => memory.close())

describe('a request in another language', () => {
  it('in Chinese: analysed as Chinese, the dense ranking trusted with nothing, the words’ sentence first', async () => {
    const ctx = await memory.buildContext('给我们做装修的是哪家公司？', { conversationId: 'zh', budget: 200 })
    expect(ctx.stats.language).toBe('zh')
    expect(ctx.stats.denseTrust).toEqual({ weight: 0, reason: 'unknown-text' })
    const best = ctx.items.filter((item) => item.reason === 'relevant').sort((a, b) => b.score - a.score)[0]
    expect(best.messageId).toBe('zh2')
    expect(ctx.text).toContain('匠心居装饰')
  })

  it('in German: analysed as German, its inflections met, and the English model not trusted with it', async () => {
    const ctx = await memory.buildContext('Wo wohnt die Familie meines Bruders?', { conversationId: 'de', budget: 200 })
    expect(ctx.stats.language).toBe('de')
    expect(ctx.stats.denseTrust).toEqual({ weight: 0, reason: 'other-language' })
    expect(ctx.text).toContain('Hamburg')
    const lexical = await memory.buildContext('Wohnungen', { conversationId: 'de', strategy: 'lexical', budget: 200 })
    expect(lexical.items.map((item) => item.messageId)).toContain('de1')
  })

  it('in English, with the English model: trusted in full, as before', async () => {
    const ctx = await memory.buildContext('What is my son allergic to?', { conversationId: 'en', budget: 300 })
    expect(ctx.stats.language).toBe('en')
    expect(ctx.stats.denseTrust).toBeUndefined()
    expect(ctx.text).toContain('peanut allergy')
  })

  it('lexical and dense contexts say the language too, and never a trust', async () => {
    for (const strategy of ['lexical', 'dense'] as const) {
      const ctx = await memory.buildContext('装修公司', { conversationId: 'zh', strategy, budget: 200 })
      expect(ctx.stats.language).toBe('zh')
      expect(ctx.stats.denseTrust).toBeUndefined()
    }
    const head = await memory.buildContext('装修公司', { conversationId: 'zh', strategy: 'head', budget: 200 })
    expect(head.stats.language).toBeUndefined()
  })
})
