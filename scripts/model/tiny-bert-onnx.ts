// A tiny BERT-shaped encoder for tests: the inputs and output a transformers.js BERT export has (`input_ids`,
// `attention_mask`, `token_type_ids` → `last_hidden_state` [B,T,D]) and BERT's embedding block (token + position +
// segment embeddings, then LayerNorm), without attention layers. Its weights are derived from each token's spelling
// by a seeded PRNG, so the same vocabulary always gives the same model, and a token's vector is far larger than the
// position's: texts that share tokens mean-pool to close vectors, in any script the vocabulary covers, which is what
// lets a test tell a dense ranking that reads the text from one that does not.
import { seededRandom } from '../../worker/util/seeded-random'
import { type GraphIo, OnnxGraphBuilder } from './onnx-writer.js'
import { quantizedMatrix } from './quantized-matrix.js'
import type { WeightPrecision } from './use-lite-onnx.js'

export interface TinyBertShape {
  /** Width of every token's vector (BERT-base: 768; multilingual-e5-small: 384). */
  hidden: number
  /** Positions the model has embeddings for: the tokenizer's `model_max_length` must not exceed it. */
  maxPositions: number
}

/** How much smaller a position's or a segment's vector is than a token's: small, so that tokens decide similarity. */
const POSITION_SCALE = 0.1

export function buildTinyBertOnnx(
  vocabulary: readonly string[],
  { hidden, maxPositions }: TinyBertShape,
  precision: WeightPrecision,
): Uint8Array {
  const b = new OnnxGraphBuilder()
  const table = (name: string, rows: Float32Array, count: number): string =>
    precision === 'fp32' ? b.initializer(name, [count, hidden], rows) : quantizedMatrix(b, name, rows, count, hidden, 0)
  const tokens = table('embeddings.word_embeddings', spelledRows(vocabulary, hidden, 1), vocabulary.length)
  const positionNames = Array.from({ length: maxPositions }, (_, position) => `position ${position}`)
  const positions = table(
    'embeddings.position_embeddings',
    spelledRows(positionNames, hidden, POSITION_SCALE),
    maxPositions,
  )
  const segments = table(
    'embeddings.token_type_embeddings',
    spelledRows(['segment A', 'segment B'], hidden, POSITION_SCALE),
    2,
  )

  const length = b.op('Squeeze', [b.op('Shape', ['input_ids'], { start: 1, end: 2 })])
  const positionIds = b.op('Range', [b.ints([0], []), length, b.ints([1], [])])
  const summed = b.op('Add', [
    b.op('Add', [gather(b, tokens, 'input_ids'), gather(b, positions, positionIds)]),
    gather(b, segments, 'token_type_ids'),
  ])
  const normalized = b.op(
    'LayerNormalization',
    [summed, b.floats(Array(hidden).fill(1)), b.floats(Array(hidden).fill(0))],
    {
      axis: -1,
      epsilon: { float: 1e-12 },
    },
  )
  // BERT's padding positions still get a state; zeroing them shows that the caller's pooling reads the mask.
  const mask = b.op('Unsqueeze', [b.op('Cast', ['attention_mask'], { to: 1 }), b.ints([-1])])
  b.output(b.op('Mul', [normalized, mask]), 'last_hidden_state')

  const tokenInput = (name: string): GraphIo => ({ name, type: 'int64', dims: ['batch_size', 'sequence_length'] })
  return b.encode(
    [tokenInput('input_ids'), tokenInput('attention_mask'), tokenInput('token_type_ids')],
    [{ name: 'last_hidden_state', type: 'float32', dims: ['batch_size', 'sequence_length', hidden] }],
    17,
    'sift-memory tiny-bert',
  )
}

function gather(b: OnnxGraphBuilder, table: string, ids: string): string {
  return b.op('Gather', [table, ids], { axis: 0 })
}

/** One row of uniform values in [-scale, scale] per name, seeded by the name's FNV-1a hash. */
function spelledRows(names: readonly string[], width: number, scale: number): Float32Array {
  const rows = new Float32Array(names.length * width)
  names.forEach((name, row) => {
    const random = seededRandom(fnv1a(name))
    for (let column = 0; column < width; column++) rows[row * width + column] = (random() * 2 - 1) * scale
  })
  return rows
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5
  for (const unit of new TextEncoder().encode(text)) hash = Math.imul(hash ^ unit, 0x01000193)
  return hash >>> 0
}
