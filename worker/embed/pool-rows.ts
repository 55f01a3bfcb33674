import type { Tensor } from '@huggingface/transformers'
import { SiftError } from '../../src/errors'
import type { EmbeddingOptions } from '../../src/types'

/** Output names that already hold one vector per text, preferred in this order. */
const POOLED_OUTPUTS = ['sentence_embedding', 'embeddings', 'pooler_output', 'default']
/** Output names that hold one vector per token. */
const TOKEN_OUTPUTS = ['last_hidden_state', 'token_embeddings', 'logits']

/**
 * Model outputs → one row per text (`rows × dim`), pooled and optionally L2-normalised.
 * A row that is not finite or has zero norm becomes all zeros, so it scores 0, never NaN.
 */
export function poolRows(
  outputs: Record<string, Tensor>,
  attentionMask: Tensor | undefined,
  rows: number,
  pooling: NonNullable<EmbeddingOptions['pooling']>,
  normalize: boolean,
): { data: Float32Array; dim: number } {
  const pooled = pooling === 'none' ? pickOutput(outputs, POOLED_OUTPUTS, 2) : pickOutput(outputs, TOKEN_OUTPUTS, 3)
  const source = Float32Array.from(pooled.data as ArrayLike<number>)
  let data: Float32Array
  let dim: number
  if (pooling === 'none') {
    dim = pooled.dims[pooled.dims.length - 1]
    data = source
  } else {
    const [, tokens, width] = pooled.dims
    dim = width
    data =
      pooling === 'cls'
        ? firstTokens(source, rows, tokens, dim)
        : meanOverMask(source, attentionMask, rows, tokens, dim)
  }
  for (let row = 0; row < rows; row++) cleanRow(data.subarray(row * dim, (row + 1) * dim), normalize)
  return { data, dim }
}

function pickOutput(outputs: Record<string, Tensor>, preferred: readonly string[], rank: number): Tensor {
  for (const name of preferred) if (outputs[name]?.dims?.length === rank) return outputs[name]
  const any = Object.values(outputs).find((tensor) => tensor?.dims?.length === rank)
  if (!any) {
    const shapes = Object.entries(outputs)
      .map(([name, t]) => `${name}[${t?.dims?.join('×')}]`)
      .join(', ')
    throw new SiftError(
      'MODEL_UNAVAILABLE',
      `No ${rank}-D output to take embeddings from (outputs: ${shapes}); set embedding.pooling to match the model.`,
    )
  }
  return any
}

function firstTokens(source: Float32Array, rows: number, tokens: number, dim: number): Float32Array {
  const out = new Float32Array(rows * dim)
  for (let row = 0; row < rows; row++) out.set(source.subarray(row * tokens * dim, row * tokens * dim + dim), row * dim)
  return out
}

function meanOverMask(
  source: Float32Array,
  mask: Tensor | undefined,
  rows: number,
  tokens: number,
  dim: number,
): Float32Array {
  const out = new Float32Array(rows * dim)
  for (let row = 0; row < rows; row++) {
    let count = 0
    for (let t = 0; t < tokens; t++) {
      if (mask && Number(mask.data[row * tokens + t]) === 0) continue
      count++
      const base = (row * tokens + t) * dim
      for (let d = 0; d < dim; d++) out[row * dim + d] += source[base + d]
    }
    for (let d = 0; d < dim && count > 0; d++) out[row * dim + d] /= count
  }
  return out
}

function cleanRow(row: Float32Array, normalize: boolean): void {
  let sum = 0
  for (let d = 0; d < row.length; d++) sum += row[d] * row[d]
  const norm = Math.sqrt(sum)
  if (!Number.isFinite(norm) || norm === 0) {
    row.fill(0)
    return
  }
  if (normalize) for (let d = 0; d < row.length; d++) row[d] /= norm
}
