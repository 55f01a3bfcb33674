import { SiftError } from '../../src/errors'
import type { EmbeddingOptions } from '../../src/types'

/** Embedding options with every field decided. */
export type ResolvedEmbedding = Required<EmbeddingOptions>

/** The model used when `MemoryOptions.model` is not given: Universal Sentence Encoder Lite, converted to ONNX and shipped in `public/models/`. */
export const DEFAULT_MODEL = 'use-lite'

const BGE_QUERY_INSTRUCTION = 'Represent this sentence for searching relevant passages: '

/** Known model families by name: the pooling and prefixes they were trained with. */
function presetFor(model: string): ResolvedEmbedding {
  const name = model.toLowerCase()
  const base: ResolvedEmbedding = {
    pooling: 'mean',
    normalize: true,
    queryPrefix: '',
    documentPrefix: '',
    dtype: 'fp32',
    languages: 'all',
  }
  // int8 weights: a quarter of the fp32 download (most of a first visit's bytes), at the same LoCoMo recall
  // (BENCHMARKS.md, "The int8 model"), so the package ships only them.
  // Universal Sentence Encoder Lite was trained on English: its tokenizer knows Latin letters and a few others.
  if (/(^|\/)use-lite\/?$/.test(name)) return { ...base, pooling: 'none', dtype: 'q8', languages: ['en'] }
  if (name.includes('bge')) return { ...base, pooling: 'cls', queryPrefix: BGE_QUERY_INSTRUCTION }
  if (name.includes('e5')) return { ...base, queryPrefix: 'query: ', documentPrefix: 'passage: ' }
  return base
}

/** The poolings `poolRows` implements, and the weights transformers.js can load. */
const POOLINGS: readonly ResolvedEmbedding['pooling'][] = ['none', 'mean', 'cls']
const DTYPES: readonly ResolvedEmbedding['dtype'][] = ['fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4']

/**
 * `model`'s preset with the app's `overrides` on top, each checked: `INVALID_INPUT` for a pooling the embedder does not
 * implement, weights transformers.js cannot load, or a field of the wrong type, before any model is fetched.
 */
export function resolveEmbedding(model: string, overrides: EmbeddingOptions = {}): ResolvedEmbedding {
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides))
    invalid(`embedding must be an object like { pooling: 'mean' }, got ${String(overrides)}`)
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined))
  const { pooling, normalize, queryPrefix, documentPrefix, dtype } = defined as EmbeddingOptions
  if (pooling !== undefined && !POOLINGS.includes(pooling))
    invalid(`embedding.pooling must be one of ${quoted(POOLINGS)}, got ${String(pooling)}`)
  if (normalize !== undefined && typeof normalize !== 'boolean')
    invalid(`embedding.normalize must be a boolean, got ${String(normalize)}`)
  for (const [field, prefix] of [
    ['queryPrefix', queryPrefix],
    ['documentPrefix', documentPrefix],
  ] as const) {
    if (prefix !== undefined && typeof prefix !== 'string')
      invalid(`embedding.${field} must be a string, got ${String(prefix)}`)
  }
  if (dtype !== undefined && !DTYPES.includes(dtype))
    invalid(`embedding.dtype must be one of ${quoted(DTYPES)}, got ${String(dtype)}`)
  return { ...presetFor(model), ...defined }
}

function quoted(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(', ')
}

function invalid(message: string): never {
  throw new SiftError('INVALID_INPUT', `createMemory: ${message}.`)
}

/** Identifies what produced stored vectors: change any part and they are re-embedded. The query prefix and the languages are not part of it. */
export function modelFingerprint(model: string, embedding: ResolvedEmbedding): string {
  const { pooling, normalize, documentPrefix, dtype } = embedding
  return JSON.stringify({ model, dtype, pooling, normalize, documentPrefix })
}
