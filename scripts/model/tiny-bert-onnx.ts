// A tiny BERT-shaped encoder for tests: the inputs and output a transformers.js BERT export has (`input_ids`,
// `attention_mask`, `token_type_ids` → `last_hidden_state` [B,T,D]) and BERT's embedding block (token + position +
// segment embeddings, then LayerNorm) followed by one attention sublayer with fixed projections (no feed-forward one).
// Its weights are derived from each token's spelling by a seeded PRNG, so the same vocabulary always gives the same
// model, and a token's vector is far larger than the position's: texts that share tokens mean-pool to close vectors,
// in any script the vocabulary covers, which is what lets a test tell a dense ranking that reads the text from one
// that does not.
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
  const embedded = layerNorm(b, summed, hidden)
  b.output(layerNorm(b, b.op('Add', [embedded, selfAttention(b, embedded, hidden)]), hidden), 'last_hidden_state')

  const tokenInput = (name: string): GraphIo => ({ name, type: 'int64', dims: ['batch_size', 'sequence_length'] })
  return b.encode(
    [tokenInput('input_ids'), tokenInput('attention_mask'), tokenInput('token_type_ids')],
    [{ name: 'last_hidden_state', type: 'float32', dims: ['batch_size', 'sequence_length', hidden] }],
    17,
    'sift-memory tiny-bert',
  )
}

/**
 * One attention head with identity projections, scaled by 1/width rather than 1/√width so that it spreads over the
 * text instead of staying on each token itself. Padding is masked out of every row as BERT masks it, and padding rows
 * still get a state: a text embeds the same alone and padded in a batch only if both this mask and the caller's
 * pooling read `attention_mask`.
 */
function selfAttention(b: OnnxGraphBuilder, states: string, width: number): string {
  const scores = b.op('Mul', [
    b.op('MatMul', [states, b.op('Transpose', [states], { perm: [0, 2, 1] })]),
    b.floats([1 / width], []),
  ])
  const keep = b.op('Cast', ['attention_mask'], { to: 1 })
  const padding = b.op('Mul', [b.op('Sub', [b.floats([1], []), keep]), b.floats([-1e4], [])])
  const weights = b.op('Softmax', [b.op('Add', [scores, b.op('Unsqueeze', [padding, b.ints([1])])])], { axis: -1 })
  return b.op('MatMul', [weights, states])
}

function layerNorm(b: OnnxGraphBuilder, x: string, width: number): string {
  return b.op('LayerNormalization', [x, b.floats(Array(width).fill(1)), b.floats(Array(width).fill(0))], {
    axis: -1,
    epsilon: { float: 1e-12 },
  })
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
