// Prints the contexts for one question of the multilingual set: npx tsx ctx.mts LANG "question" [budget] [strategies]
import { readMultilingualSet } from './bench/multilingual/multilingual-set'
import { createMemory } from './src/node'
const [lang, question, budget = '2000', strategies = 'lexical,hybrid'] = process.argv.slice(2)
const conv = (await readMultilingualSet(`bench/multilingual/conversations/${lang}.json`))[0]
const memory = await createMemory({ name: 'dbg-' + lang, embeddingCacheDir: '.cache/embeddings' })
await memory.add(conv.messages)
await memory.indexed()
const q = conv.questions.find((x) => x.question === question)!
console.log('Q', question, '| answer', q.answer, '| evidence', q.evidence)
for (const strategy of strategies.split(',')) {
  const ctx = await memory.buildContext(question, { budget: Number(budget), strategy: strategy as any, conversationId: conv.id })
  console.log(`--- ${strategy}: answer in: ${ctx.text.includes(q.answer)} stats`, JSON.stringify({ language: ctx.stats.language, denseTrust: ctx.stats.denseTrust }))
  for (const item of ctx.items.filter((i) => i.reason === 'relevant').sort((a, b) => (a.ranks?.lexical ?? 9999) - (b.ranks?.lexical ?? 9999)).slice(0, 12))
    console.log(`  ${item.messageId} L${item.ranks?.lexical ?? '-'} D${item.ranks?.dense ?? '-'} f${item.fused?.toFixed(4) ?? ''} ${q.evidence.includes(item.messageId) ? '*' : ' '} ${item.text.slice(0, 100)}`)
}
await memory.close()
